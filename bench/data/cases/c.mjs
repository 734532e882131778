// gcc/g++ compile errors and GNU ld link errors (gcc 12). A = memory program, B = query program.
const gcc = { tool: 'gcc', stack: ['c'], scope: ['src/**', '**/*.c', '**/*.h'] };
const gxx = { tool: 'gcc', stack: ['cpp'], scope: ['src/**', '**/*.cpp', '**/*.hpp', '**/*.h'] };
const ld = { tool: 'ld', fixtureTool: 'ld', scope: ['**'] };
const compileC = f => `gcc -c ${f} -o /dev/null`;
const compileCxx = f => `g++ -c ${f} -o /dev/null`;

export default [
  {
    ...gcc, id: 'gcc-undeclared-identifier', project: ['sensor-fw', 'tiny-shell'], errorCategory: 'declaration', tags: ['scope'],
    a: { 'src/sensor.c': 'int read_sensor(void) {\n    for (int i = 0; i < 3; i++) {\n        int sample = i * 2;\n    }\n    return sample;\n}\n' },
    b: { 'src/shell.c': 'int run(int argc) {\n    if (argc > 1) {\n        int status = 0;\n    }\n    return status;\n}\n' },
    cmd: side => compileC(side === 'a' ? 'src/sensor.c' : 'src/shell.c'),
    rootCause: 'The variable is declared inside an inner block (loop or if body) and used after that block, where it is out of scope.',
    fixApproach: 'Declare the variable before the block (with an initial value) and assign inside; compile with -Wall -Wshadow to catch shadowing copies.',
  },
  {
    ...gcc, id: 'gcc-missing-include-path', project: ['img-tool', 'net-daemon'], errorCategory: 'build-config', tags: ['include', '-I', 'headers'],
    a: { 'src/main.c': '#include "codec.h"\nint main(void) { return codec_init(); }\n', 'include/codec.h': 'int codec_init(void);\n' },
    b: { 'src/daemon.c': '#include <netutil/socket.h>\nint main(void) { return 0; }\n', 'third_party/netutil/include/netutil/socket.h': 'int s;\n' },
    cmd: side => compileC(side === 'a' ? 'src/main.c' : 'src/daemon.c'),
    rootCause: 'The header exists in the project but its directory (include/ or a third_party include dir) is not on the compiler\'s include search path.',
    fixApproach: 'Add the directory with -I (Makefile: `CFLAGS += -Iinclude`; CMake: `target_include_directories(app PRIVATE include)`); do not hard-code ../../ relative includes.',
  },
  {
    ...ld, id: 'ld-missing-object', stack: ['c'], project: ['calc', 'kv-store'], errorCategory: 'link', tags: ['linker', 'makefile'],
    a: { 'main.c': '#include "mathx.h"\nint main(void) { return add(1, 2); }\n', 'mathx.h': 'int add(int a, int b);\n', 'mathx.c': 'int add(int a, int b) { return a + b; }\n' },
    b: { 'main.c': '#include "store.h"\nint main(void) { kv_open("db"); return 0; }\n', 'store.h': 'void kv_open(const char *path);\n', 'store.c': 'void kv_open(const char *path) { (void)path; }\n' },
    cmd: () => 'gcc main.c -o app.out',
    rootCause: 'The function is declared in a header and defined in another .c file, but that file is not compiled/linked into the program (missing from the gcc command, Makefile OBJS or CMake sources).',
    fixApproach: 'Add the source file to the build: `gcc main.c mathx.c -o app`, or list it in the Makefile objects / `add_executable(app main.c mathx.c)`.',
  },
  {
    ...ld, id: 'ld-missing-libm', stack: ['c'], project: ['physics', 'stats'], errorCategory: 'link', tags: ['linker', 'libm', '-lm'],
    a: { 'sim.c': '#include <math.h>\n#include <stdio.h>\nint main(int argc, char **argv) { double d = argc * 2.0; printf("%f\\n", sqrt(d)); return 0; }\n' },
    b: { 'stats.c': '#include <math.h>\n#include <stdio.h>\nint main(int argc, char **argv) { double x = argc; printf("%f\\n", pow(x, 1.5) + floor(x / 3)); return 0; }\n' },
    cmd: side => `gcc ${side === 'a' ? 'sim.c' : 'stats.c'} -o app.out`,
    rootCause: 'Math functions such as sqrt, pow, floor, sin or exp live in libm, which gcc does not link by default (constant arguments get folded at compile time, so it only shows up with runtime values).',
    fixApproach: 'Link libm: put -lm at the END of the link line (`gcc sim.c -o sim -lm`; Makefile `LDLIBS += -lm`; CMake `target_link_libraries(app m)`).',
  },
  {
    ...ld, id: 'ld-multiple-definition', stack: ['c'], project: ['game', 'logger'], errorCategory: 'link', tags: ['linker', 'extern', 'headers'],
    a: { 'state.h': 'int score = 0;\n', 'a.c': '#include "state.h"\nint main(void) { return score; }\n', 'b.c': '#include "state.h"\nvoid bump(void) { score++; }\n' },
    b: { 'config.h': 'const char *log_level = "info";\n', 'main.c': '#include "config.h"\nint main(void) { return log_level[0]; }\n', 'log.c': '#include "config.h"\nconst char *lvl(void) { return log_level; }\n' },
    cmd: side => side === 'a' ? 'gcc a.c b.c -o app.out' : 'gcc main.c log.c -o app.out',
    rootCause: 'A global variable is DEFINED (with storage) in a header included by several .c files, so every object file gets its own definition.',
    fixApproach: 'Declare it `extern int score;` in the header and define it once in exactly one .c file (`int score = 0;`); for constants use `static const` in the header.',
  },
  {
    ...gcc, id: 'gcc-conflicting-types', project: ['parser-c', 'audio'], errorCategory: 'declaration', tags: ['prototype', 'headers'],
    a: { 'src/parse.c': 'int parse_line(const char *s);\nlong parse_line(const char *s) { return 0; }\n' },
    b: { 'src/mix.c': 'void mix(float *buf, int n);\nvoid mix(double *buf, int n) { (void)buf; (void)n; }\n' },
    cmd: side => compileC(side === 'a' ? 'src/parse.c' : 'src/mix.c'),
    rootCause: 'The function\'s definition no longer matches its prototype (return or parameter type changed in one place only), typically the header was not updated.',
    fixApproach: 'Make the header prototype and the definition identical, and include the header in the .c that defines the function so the compiler checks them.',
  },
  {
    ...gcc, id: 'gcc-missing-semicolon', project: ['ring-buffer', 'tokenizer'], errorCategory: 'syntax', tags: ['syntax'],
    a: { 'src/ring.c': 'int next(int i) {\n    int n = i + 1\n    return n % 8;\n}\n' },
    b: { 'src/tok.c': 'int count(const char *s) {\n    int c = 0;\n    while (*s++) c++\n}\n' },
    cmd: side => compileC(side === 'a' ? 'src/ring.c' : 'src/tok.c'),
    rootCause: 'A statement is missing its terminating semicolon; gcc reports it at the next token (often on the following line).',
    fixApproach: 'Add the semicolon at the end of the statement BEFORE the reported position; the caret points to where parsing failed, not where the mistake is.',
  },
  {
    ...gxx, id: 'gxx-cout-not-declared', project: ['cpp-cli', 'matrix'], errorCategory: 'declaration', tags: ['std', 'iostream'],
    a: { 'src/main.cpp': 'int main() {\n    cout << "hello" << endl;\n}\n' },
    b: { 'src/matrix.cpp': '#include <vector>\nint main() {\n    vector<int> v{1, 2};\n    return v.size();\n}\n' },
    cmd: side => compileCxx(side === 'a' ? 'src/main.cpp' : 'src/matrix.cpp'),
    rootCause: 'Standard library names live in namespace std (and need their header); the code uses them unqualified without `using` or without the #include.',
    fixApproach: 'Include the header (<iostream>, <vector>) and qualify names (`std::cout`, `std::vector`); avoid `using namespace std;` in headers.',
  },
  {
    ...gxx, id: 'gxx-no-matching-function', project: ['geometry-cpp', 'http-cpp'], errorCategory: 'types', tags: ['overload'],
    a: { 'src/geo.cpp': '#include <string>\nstruct Vec2 { double x, y; };\ndouble len(const Vec2 &v) { return v.x + v.y; }\nint main() {\n    return (int)len(std::string("1,2"));\n}\n' },
    b: { 'src/req.cpp': '#include <vector>\nstruct Request { int port; };\nint send(const Request &r, int timeout) { return r.port + timeout; }\nint main() {\n    std::vector<int> body;\n    return send(body, 3);\n}\n' },
    cmd: side => compileCxx(side === 'a' ? 'src/geo.cpp' : 'src/req.cpp'),
    rootCause: 'The call passes an argument type for which no overload exists and no implicit conversion applies (a different struct/class than the parameter type).',
    fixApproach: 'Read the "candidate" notes: convert or construct the expected type explicitly, or add the missing overload/constructor.',
  },
  {
    ...gxx, tool: 'ld', fixtureTool: 'ld', id: 'ld-vtable-undefined', project: ['shapes-cpp', 'plugins-cpp'], errorCategory: 'link', tags: ['virtual', 'vtable'],
    a: { 'main.cpp': 'struct Shape { virtual double area() const; virtual ~Shape() {} };\nint main() { Shape s; return (int)s.area(); }\n' },
    b: { 'main.cpp': 'struct Logger { virtual void log(const char *m); virtual ~Logger() {} };\nint main() { Logger l; (void)l; }\n' },
    cmd: () => 'g++ main.cpp -o app.out',
    rootCause: 'A class declares a non-pure virtual function that is never defined; the vtable is emitted with the first non-inline virtual function, so it is missing entirely.',
    fixApproach: 'Define the virtual function (in the .cpp that is linked), or make it pure virtual (`= 0`) if the class is abstract.',
  },
  {
    ...gxx, tool: 'ld', fixtureTool: 'ld', id: 'ld-template-in-cpp', project: ['stack-cpp', 'cache-cpp'], errorCategory: 'link', tags: ['templates', 'headers'],
    a: { 'stack.h': 'template <typename T> struct Stack { void push(T v); };\n', 'stack.cpp': '#include "stack.h"\ntemplate <typename T> void Stack<T>::push(T v) { (void)v; }\n', 'main.cpp': '#include "stack.h"\nint main() { Stack<int> s; s.push(1); }\n' },
    b: { 'cache.h': 'template <typename K> struct Cache { bool has(const K &k) const; };\n', 'cache.cpp': '#include "cache.h"\ntemplate <typename K> bool Cache<K>::has(const K &k) const { (void)k; return false; }\n', 'main.cpp': '#include "cache.h"\n#include <string>\nint main() { Cache<std::string> c; return c.has("x"); }\n' },
    cmd: side => side === 'a' ? 'g++ main.cpp stack.cpp -o app.out' : 'g++ main.cpp cache.cpp -o app.out',
    rootCause: 'Template member functions are defined in a .cpp file; templates are instantiated where they are used, and main.cpp cannot see the definitions, so no code is generated for Stack<int>::push.',
    fixApproach: 'Move the template definitions into the header (or a .tpp included by it); or add explicit instantiations (`template struct Stack<int>;`) in the .cpp.',
  },
  {
    ...gcc, id: 'gcc-unknown-type-bool', project: ['flags-c', 'led-fw'], errorCategory: 'declaration', tags: ['stdbool', 'C17'],
    a: { 'src/flags.c': 'bool is_set(int f) { return f != 0; }\n' },
    b: { 'src/led.c': 'struct led { int pin; bool on; };\n' },
    cmd: side => compileC(side === 'a' ? 'src/flags.c' : 'src/led.c'),
    rootCause: 'Before C23, `bool` is not a keyword in C; it comes from <stdbool.h>.',
    fixApproach: 'Add `#include <stdbool.h>` (or compile with -std=c2x/c23 where bool is built in).',
  },
  {
    ...gcc, id: 'gcc-no-member-named', project: ['users-c', 'packets'], errorCategory: 'declaration', tags: ['struct', 'typo'],
    a: { 'src/users.c': 'struct user { char name[16]; int age; };\nint age_of(struct user *u) { return u->agee; }\n' },
    b: { 'src/pkt.c': 'struct packet { int len; char *payload; };\nint size(struct packet p) { return p.length; }\n' },
    cmd: side => compileC(side === 'a' ? 'src/users.c' : 'src/pkt.c'),
    rootCause: 'The code accesses a struct field that does not exist under that name (typo, or the field was renamed in the struct definition).',
    fixApproach: 'Use the actual field name from the struct definition (go to definition); if renamed, update all uses or keep a compatibility macro during migration.',
  },
];
