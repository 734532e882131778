// C and C++ builds beyond one gcc call: g++ through make (gcc's `note:` lines beside the error, one
// include that clears two errors, an include fix that turns a compile error into a link error), make's
// own errors (a missing tab, a renamed source), cmake configure and include errors (build/ written on
// every configure), ctest's summary lines, a long build log with one error among many warnings, and the
// same include fixing the same error in two folders.
import { story } from './story.mjs';

const cxxMake = (objs, { extra = '' } = {}) => `CXX = g++\nCXXFLAGS = -Wall -std=c++17\n\napp: ${objs.join(' ')}\n\t$(CXX) -o app ${objs.join(' ')}${extra}\n\nsrc/%.o: src/%.cpp\n\t$(CXX) $(CXXFLAGS) -c $< -o $@\n\nclean:\n\trm -f app src/*.o\n`;
const cmakeLists = body => `cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\nset(CMAKE_CXX_STANDARD 17)\n${body}`;

const wordsCpp = '#include <string>\n\nstd::vector<std::string> split(const std::string& s) {\n  std::vector<std::string> out;\n  std::string cur;\n  for (char c : s) {\n    if (c == \' \') { out.push_back(cur); cur.clear(); } else cur += c;\n  }\n  out.push_back(cur);\n  return out;\n}\n\nint countWords(const std::string& s) {\n  return static_cast<int>(split(s).size());\n}\n';

/** 120 small C files with unused parameters (two warnings each under -Wextra), and one that uses an undeclared LIMIT. */
function manyModules() {
  const files = {
    'Makefile': 'CC = gcc\nCFLAGS = -Wall -Wextra -Iinclude\nSRCS = $(sort $(wildcard src/*.c))\nOBJS = $(SRCS:.c=.o)\n\nplugins: $(OBJS)\n\t$(CC) -o plugins $(OBJS)\n\nsrc/%.o: src/%.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n',
    'include/plugin.h': '#ifndef PLUGIN_H\n#define PLUGIN_H\nstruct ctx { int n; };\nint run_plugin(struct ctx *ctx, int flags);\n#endif\n',
    'src/main.c': '#include <stdio.h>\n\nint main(void) {\n  printf("plugins ready\\n");\n  return 0;\n}\n',
  };
  for (let i = 1; i <= 120; i++) {
    const n = String(i).padStart(3, '0');
    files[`src/mod_${n}.c`] = i === 97
      ? `#include "plugin.h"\n\nint plugin_${n}(struct ctx *ctx, int flags) {\n  int budget = LIMIT * 2;\n  return budget;\n}\n`
      : `#include "plugin.h"\n\nint plugin_${n}(struct ctx *ctx, int flags) {\n  return ${i};\n}\n`;
  }
  return files;
}

/** The same missing <iomanip> in two folders of one repository, fixed by the same include: one lesson. */
function setwStory(name, folder, fn) {
  const src = `${folder}/${fn}.cpp`;
  return story({
    name, family: 'gxx',
    files: {
      [`${folder}/Makefile`]: `${fn}: ${fn}.cpp\n\tg++ -Wall -std=c++17 -o ${fn} ${fn}.cpp\n`,
      [src]: `#include <iostream>\n\nvoid row(const char* name, int n) {\n  std::cout << std::setw(12) << name << n << "\\n";\n}\n\nint main() {\n  row("${fn}", 1);\n}\n`,
    },
    steps: [
      ['open', src],
      ['run', 'make', 'fail', { cwd: folder }],
      ['replace', src, '#include <iostream>\n', '#include <iostream>\n#include <iomanip>\n'],
      ['run', 'make', 0, { cwd: folder }],
    ],
    label: {
      description: `make in ${folder}/ (g++): "'setw' is not a member of 'std'" in ${src}; fixed by #include <iomanip>. The same include for the same error as in the repository's other folder: one lesson, at pattern`,
      mustContain: ['#include <iomanip>'], mustNotClaim: [`${folder}/Makefile`],
      errors: ['‘setw’ is not a member of ‘std’'],
      lessons: 1, resolved: 'fixed', story: 'terminal', mergeGroup: 'gxx-iomanip-setw', classes: ['same-fix-two-folders'],
    },
    queries: [
      { kind: 'related', file: 'tools/table.cpp', files: { 'tools/table.cpp': '#include <iostream>\nvoid t() { std::cout << std::setw(4) << 1; }\n' }, how: 'g++ -std=c++17 -c tools/table.cpp -o tools/table.o' },
      { kind: 'near', file: src, files: { [src]: '#include <iostream>\nvoid t() { std::cout << std::quoted("x"); }\n' }, how: `g++ -std=c++17 -c ${src} -o ${folder}/x.o` },
    ],
  });
}

export const episodes = [
  story({
    name: 'gxx-missing-include-vector', family: 'gxx',
    files: {
      'Makefile': cxxMake(['src/main.o', 'src/words.o']),
      'src/words.cpp': wordsCpp,
      'src/main.cpp': '#include <iostream>\n#include <string>\n\nint countWords(const std::string& s);\n\nint main() {\n  std::cout << countWords("to be or not") << "\\n";\n}\n',
    },
    steps: [
      ['open', 'src/words.cpp'],
      ['run', 'make', 'fail'],
      ['replace', 'src/words.cpp', '#include <string>\n', '#include <string>\n#include <vector>\n'],
      ['run', 'make', 0],
      ['run', './app', 0],
    ],
    label: {
      description: "make (g++): src/words.cpp uses std::vector without <vector>: \"'vector' in namespace 'std' does not name a template type\" (followed by a note naming the header), and so \"'split' was not declared in this scope\" further down; one include of <vector> cleared both",
      mustContain: ['#include <vector>'], mustNotClaim: ['Makefile', 'src/main.cpp'],
      errors: ['‘vector’ in namespace ‘std’ does not name a template type', '‘split’ was not declared in this scope'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line', 'one-fix-two-errors'],
    },
    queries: [
      { kind: 'related', file: 'src/tokens.cpp', files: { 'src/tokens.cpp': '#include <string>\n\nstd::vector<int> lengths(const std::string& s) {\n  return {static_cast<int>(s.size())};\n}\n' }, how: 'g++ -Wall -std=c++17 -c src/tokens.cpp -o src/tokens.o' },
      { kind: 'near', file: 'src/words.cpp', files: { 'src/words.cpp': '#include <string>\n\nstd::map<std::string, int> counts(const std::string& s) {\n  return {{s, 1}};\n}\n' }, how: 'g++ -Wall -std=c++17 -c src/words.cpp -o src/words.o' },
    ],
  }),
  story({
    name: 'gxx-include-then-undefined-reference', family: 'gxx',
    files: {
      'Makefile': cxxMake(['src/main.o']),
      'src/shapes.h': '#pragma once\ndouble area(double radius);\n',
      'src/shapes.cpp': '#include "shapes.h"\n\ndouble area(double radius) {\n  return 3.14159 * radius * radius;\n}\n',
      'src/main.cpp': '#include <iostream>\n\nint main() {\n  std::cout << area(2.0) << "\\n";\n}\n',
    },
    steps: [
      ['open', 'src/main.cpp'],
      ['run', 'make', 'fail'],
      ['replace', 'src/main.cpp', '#include <iostream>\n', '#include <iostream>\n#include "shapes.h"\n'],
      ['run', 'make', 'fail'],
      ['open', 'Makefile'],
      ['edit', 'Makefile', cxxMake(['src/main.o', 'src/shapes.o'])],
      ['run', 'make', 0],
      ['run', './app', 0],
    ],
    label: {
      description: "make (g++): \"'area' was not declared in this scope\" in src/main.cpp; including \"shapes.h\" fixed that and the build then failed at the link step with undefined reference to `area(double)', fixed by adding src/shapes.o to the Makefile's app target. Two lessons; the include did fix the first error",
      mustContain: ['#include "shapes.h"', 'src/shapes.o'], mustNotClaim: ['src/shapes.cpp', 'src/shapes.h'],
      errors: ['‘area’ was not declared in this scope', "undefined reference to `area(double)'"],
      mustNotSay: ['did not fix', 'not resolved'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['changed-error'],
    },
    queries: [
      { kind: 'related', file: 'src/report.cpp', files: { 'src/shapes.h': '#pragma once\ndouble area(double radius);\n', 'src/report.cpp': '#include <iostream>\n\nvoid report() {\n  std::cout << area(1.5) << "\\n";\n}\n' }, how: 'g++ -Wall -std=c++17 -c src/report.cpp -o src/report.o' },
      { kind: 'near', file: 'src/main.cpp', files: { 'src/main.cpp': '#include <iostream>\n\nint main() {\n  std::cout << perimeter(2.0) << "\\n";\n}\n' }, how: 'g++ -Wall -std=c++17 -c src/main.cpp -o src/main.o' },
    ],
  }),
  story({
    name: 'make-missing-separator', family: 'make',
    files: {
      'Makefile': 'CC = gcc\nCFLAGS = -Wall\n\nhello: hello.c\n        $(CC) $(CFLAGS) -o hello hello.c\n',
      'hello.c': '#include <stdio.h>\n\nint main(void) {\n  puts("hello");\n  return 0;\n}\n',
    },
    steps: [
      ['open', 'Makefile'],
      ['run', 'make', 'fail'],
      ['run', 'cat -A Makefile', 0],
      ['replace', 'Makefile', '        $(CC)', '\t$(CC)'],
      ['run', 'make', 0],
    ],
    label: {
      description: 'make: "Makefile:5: *** missing separator (did you mean TAB instead of 8 spaces?).  Stop." — the recipe line was indented with spaces; replacing them with a tab in the Makefile fixed it. `cat -A Makefile` in between only read the file',
      mustContain: ['missing separator', 'Makefile'], mustNotClaim: ['hello.c'], decoys: ['cat -A Makefile'],
      errors: ['Makefile:5: *** missing separator (did you mean TAB instead of 8 spaces?).  Stop.'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'tools/Makefile', files: { 'tools/Makefile': 'all:\n    echo building tools\n' }, how: 'make -C tools' },
      { kind: 'near', file: 'Makefile', files: { 'Makefile': 'all: hello\n' }, how: 'make' },
    ],
  }),
  story({
    name: 'make-no-rule-renamed-source', family: 'make',
    files: {
      'Makefile': 'CC = gcc\nCFLAGS = -Wall\n\napp: src/main.c src/parse.c\n\t$(CC) $(CFLAGS) -o app src/main.c src/parse.c\n',
      'src/main.c': 'int parse(const char *s);\n\nint main(void) {\n  return parse("42") == 42 ? 0 : 1;\n}\n',
      'src/parser.c': '#include <stdlib.h>\n\nint parse(const char *s) {\n  return atoi(s);\n}\n',
    },
    steps: [
      ['open', 'Makefile'],
      ['run', 'make', 'fail'],
      ['run', 'ls src', 0],
      ['edit', 'Makefile', 'CC = gcc\nCFLAGS = -Wall\n\napp: src/main.c src/parser.c\n\t$(CC) $(CFLAGS) -o app src/main.c src/parser.c\n'],
      ['run', 'make', 0],
    ],
    label: {
      description: "make: \"No rule to make target 'src/parse.c', needed by 'app'.  Stop.\" — the source had been renamed src/parser.c; the Makefile's target and recipe now name src/parser.c. `ls src` only looked",
      mustContain: ['src/parser.c', 'Makefile'], mustNotClaim: ['src/main.c'], decoys: ['ls src'],
      errors: ["No rule to make target 'src/parse.c', needed by 'app'."],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'cli/Makefile', files: { 'cli/Makefile': 'cli: cli.c opts.c\n\tgcc -o cli cli.c opts.c\n', 'cli/cli.c': 'int main(void) { return 0; }\n' }, how: 'make -C cli' },
      { kind: 'near', file: 'Makefile', files: { 'Makefile': 'all:\n\t$(MAKE) -C docs\n' }, how: 'make' },
    ],
  }),
  story({
    name: 'gcc-werror-unused-variable', family: 'gcc',
    files: {
      'Makefile': 'CC = gcc\nCFLAGS = -Wall -Werror\n\nstats: stats.c\n\t$(CC) $(CFLAGS) -o stats stats.c\n',
      'stats.c': '#include <stdio.h>\n\nstatic int sum(const int *xs, int n) {\n  int total = 0, tmp;\n  for (int i = 0; i < n; i++) total += xs[i];\n  return total;\n}\n\nint main(void) {\n  int xs[] = {1, 2, 3};\n  printf("%d\\n", sum(xs, 3));\n  return 0;\n}\n',
    },
    steps: [
      ['open', 'stats.c'],
      ['run', 'make', 'fail'],
      ['replace', 'stats.c', 'int total = 0, tmp;', 'int total = 0;'],
      ['run', 'make', 0],
    ],
    label: {
      description: "make (gcc -Wall -Werror): \"unused variable 'tmp' [-Werror=unused-variable]\" followed by gcc's summary \"cc1: all warnings being treated as errors\"; removing tmp from the declaration fixed it. The summary line is not the error",
      mustContain: ['int total = 0;'], mustNotClaim: ['Makefile'],
      errors: ['unused variable ‘tmp’ [-Werror=unused-variable]'], mustNotSay: ['all warnings being treated as errors'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'lib/avg.c', files: { 'lib/avg.c': 'double avg(const int *xs, int n) {\n  int count = n, tmp;\n  double s = 0;\n  for (int i = 0; i < count; i++) s += xs[i];\n  return s / count;\n}\n' }, how: 'gcc -Wall -Werror -c lib/avg.c -o lib/avg.o' },
      { kind: 'near', file: 'stats.c', files: { 'stats.c': 'static int unused_helper(void) { return 1; }\nint main(void) { return 0; }\n' }, how: 'gcc -Wall -Werror -c stats.c -o stats.o' },
    ],
  }),
  story({
    name: 'cmake-missing-source-file', family: 'cmake',
    files: {
      'CMakeLists.txt': cmakeLists('add_executable(app src/main.cpp src/util.cpp)\n'),
      'src/main.cpp': 'int twice(int x);\n\nint main() { return twice(0); }\n',
      'src/utils.cpp': 'int twice(int x) { return 2 * x; }\n',
    },
    steps: [
      ['open', 'CMakeLists.txt'],
      ['run', 'cmake -S . -B build', 'fail'],
      ['replace', 'CMakeLists.txt', 'src/util.cpp', 'src/utils.cpp'],
      ['run', 'cmake -S . -B build', 0],
      ['run', 'cmake --build build', 0],
    ],
    label: {
      description: 'cmake configure: "CMake Error at CMakeLists.txt:4 (add_executable): Cannot find source file: src/util.cpp" (and "CMake Generate step failed"); the file is src/utils.cpp, fixed in CMakeLists.txt. Files cmake writes under build/ are build output, not the fix',
      mustContain: ['src/utils.cpp', 'CMakeLists.txt'], mustNotClaim: ['src/main.cpp'], decoys: ['build/CMakeCache.txt'],
      errors: ['Cannot find source file:'], mustNotSay: ['Generate step failed'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'tools/CMakeLists.txt', files: { 'tools/CMakeLists.txt': cmakeLists('add_executable(tool main.cpp helpers.cpp)\n'), 'tools/main.cpp': 'int main() { return 0; }\n' }, how: 'cmake -S tools -B tools/build' },
      { kind: 'near', file: 'CMakeLists.txt', files: { 'CMakeLists.txt': cmakeLists('find_package(Frobnicate REQUIRED)\nadd_executable(app src/main.cpp)\n'), 'src/main.cpp': 'int main() { return 0; }\n' }, how: 'cmake -S . -B build' },
    ],
  }),
  story({
    name: 'cmake-include-dir-fatal', family: 'cmake',
    files: {
      'CMakeLists.txt': cmakeLists('add_executable(app src/main.cpp)\n'),
      'include/config.h': '#pragma once\nconstexpr int kPort = 8080;\n',
      'src/main.cpp': '#include <cstdio>\n#include "config.h"\n\nint main() {\n  std::printf("port %d\\n", kPort);\n}\n',
    },
    steps: [
      ['open', 'src/main.cpp'],
      ['run', 'cmake -S . -B build', 0],
      ['run', 'cmake --build build', 'fail'],
      ['open', 'CMakeLists.txt'],
      ['replace', 'CMakeLists.txt', 'add_executable(app src/main.cpp)\n', 'add_executable(app src/main.cpp)\ntarget_include_directories(app PRIVATE include)\n'],
      ['run', 'cmake --build build', 0],
    ],
    label: {
      description: 'cmake --build: g++ "fatal error: config.h: No such file or directory" then "compilation terminated."; the header is in include/, fixed by target_include_directories(app PRIVATE include) in CMakeLists.txt. The summary lines are not the error; build/ is output',
      mustContain: ['target_include_directories(app PRIVATE include)'], mustNotClaim: ['include/config.h', 'src/main.cpp'], decoys: ['build/Makefile'],
      errors: ['fatal error: config.h: No such file or directory'], mustNotSay: ['compilation terminated'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'src/server.cpp', files: { 'include/config.h': '#pragma once\n', 'src/server.cpp': '#include "config.h"\nint serve() { return 0; }\n' }, how: 'g++ -std=c++17 -c src/server.cpp -o server.o' },
      { kind: 'near', file: 'src/main.cpp', files: { 'src/main.cpp': '#include <boost/asio.hpp>\nint main() { return 0; }\n' }, how: 'g++ -std=c++17 -c src/main.cpp -o main.o' },
    ],
  }),
  story({
    name: 'ctest-slug-lowercase', family: 'ctest',
    files: {
      'CMakeLists.txt': cmakeLists('enable_testing()\nadd_library(slug src/slug.cpp)\nadd_executable(slug_test tests/slug_test.cpp)\ntarget_link_libraries(slug_test slug)\nadd_test(NAME slug_test COMMAND slug_test)\n'),
      'src/slug.cpp': '#include <string>\n\nstd::string slug(const std::string& s) {\n  std::string out;\n  for (char c : s) out += (c == \' \') ? \'-\' : c;\n  return out;\n}\n',
      'tests/slug_test.cpp': '#include <iostream>\n#include <string>\n\nstd::string slug(const std::string& s);\n\nint main() {\n  std::string got = slug("Hello World");\n  if (got != "hello-world") {\n    std::cerr << "slug_test: expected hello-world, got " << got << "\\n";\n    return 1;\n  }\n  return 0;\n}\n',
    },
    steps: [
      ['open', 'src/slug.cpp'],
      ['run', 'cmake -S . -B build && cmake --build build', 0],
      ['run', 'ctest --test-dir build --output-on-failure', 'fail'],
      ['edit', 'src/slug.cpp', '#include <cctype>\n#include <string>\n\nstd::string slug(const std::string& s) {\n  std::string out;\n  for (char c : s) out += (c == \' \') ? \'-\' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));\n  return out;\n}\n'],
      ['run', 'cmake --build build && ctest --test-dir build --output-on-failure', 0],
    ],
    label: {
      description: 'ctest: slug_test fails ("slug_test: expected hello-world, got Hello-World"), summarised as "The following tests FAILED: 1 - slug_test (Failed)" and "Errors while running CTest"; fixed in src/slug.cpp with std::tolower. The test file is not the fix; build/ is output',
      mustContain: ['tolower', 'src/slug.cpp'], mustNotClaim: ['tests/slug_test.cpp', 'CMakeLists.txt'],
      errors: ['slug_test: expected hello-world, got Hello-World'], mustNotSay: ['Errors while running CTest'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line', 'build-output'],
    },
    queries: [
      { kind: 'related', file: 'tests/title_test.cpp', files: { 'tests/title_test.cpp': '#include <iostream>\nint main() {\n  std::cerr << "slug_test: expected hello-world, got Hello-World\\n";\n  return 1;\n}\n', 'CMakeLists.txt': cmakeLists('enable_testing()\nadd_executable(title_test tests/title_test.cpp)\nadd_test(NAME slug_test COMMAND title_test)\n') }, how: 'cmake -S . -B build >/dev/null && cmake --build build >/dev/null && ctest --test-dir build --output-on-failure' },
      { kind: 'near', file: 'tests/slug_test.cpp', files: { 'tests/slug_test.cpp': '#include <iostream>\nint main() {\n  std::cerr << "trim_test: expected abc, got  abc \\n";\n  return 1;\n}\n', 'CMakeLists.txt': cmakeLists('enable_testing()\nadd_executable(trim_test tests/slug_test.cpp)\nadd_test(NAME trim_test COMMAND trim_test)\n') }, how: 'cmake -S . -B build >/dev/null && cmake --build build >/dev/null && ctest --test-dir build --output-on-failure' },
    ],
  }),
  story({
    name: 'gcc-long-log-undeclared', family: 'gcc',
    files: manyModules,
    steps: [
      ['open', 'src/mod_097.c'],
      ['run', 'make', 'fail'],
      ['replace', 'include/plugin.h', 'struct ctx { int n; };\n', 'struct ctx { int n; };\n#define LIMIT 64\n'],
      ['run', 'make', 0],
    ],
    label: {
      description: "make: 96 files compile with two -Wextra warnings each (unused parameter 'ctx' / 'flags'), then src/mod_097.c fails: \"'LIMIT' undeclared (first use in this function)\" — a long log where the warnings are not the error; fixed by defining LIMIT in include/plugin.h",
      mustContain: ['#define LIMIT 64'], mustNotClaim: ['Makefile'],
      errors: ['‘LIMIT’ undeclared (first use in this function)'], mustNotSay: ['unused parameter'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['long-log', 'note-line'],
    },
    queries: [
      { kind: 'related', file: 'src/quota.c', files: { 'src/quota.c': 'int quota(void) {\n  return LIMIT / 2;\n}\n' }, how: 'gcc -Wall -c src/quota.c -o src/quota.o' },
      { kind: 'near', file: 'src/mod_097.c', files: { 'src/mod_097.c': 'int plugin(void) {\n  return TIMEOUT_MS;\n}\n' }, how: 'gcc -Wall -c src/mod_097.c -o src/mod_097.o' },
    ],
  }),
  story({
    name: 'gcc-conflicting-types-agent', family: 'gcc',
    files: {
      'Makefile': 'CC = gcc\nCFLAGS = -Wall\n\nparse: main.c parse.c parse.h\n\t$(CC) $(CFLAGS) -o parse main.c parse.c\n',
      'parse.h': '#ifndef PARSE_H\n#define PARSE_H\nint parse_size(const char *s);\n#endif\n',
      'parse.c': '#include <stdlib.h>\n#include "parse.h"\n\nlong parse_size(const char *s) {\n  return strtol(s, NULL, 10) * 1024L;\n}\n',
      'main.c': '#include <stdio.h>\n#include "parse.h"\n\nint main(void) {\n  printf("%ld\\n", (long) parse_size("4"));\n  return 0;\n}\n',
    },
    steps: [
      ['open', 'parse.c'],
      ['run', 'make', 'fail'],
      ['agentReplace', 'parse.h', 'int parse_size(const char *s);', 'long parse_size(const char *s);'],
      ['run', 'make', 0],
    ],
    label: {
      description: "make (gcc): \"conflicting types for 'parse_size'; have 'long int(const char *)'\" in parse.c, with the note \"previous declaration of 'parse_size' with type 'int(const char *)'\" in parse.h; a coding agent changed the header's declaration to long, and make passed. The note is context, not the error",
      mustContain: ['long parse_size(const char *s);'], mustNotClaim: ['Makefile', 'main.c'],
      errors: ['conflicting types for ‘parse_size’'], mustNotSay: ['previous declaration of'],
      lessons: 1, resolved: 'fixed', story: 'agent', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'size.c', files: { 'size.h': 'int parse_size(const char *s);\n', 'size.c': '#include "size.h"\nlong parse_size(const char *s) { return 0; }\n' }, how: 'gcc -Wall -c size.c -o size.o' },
      { kind: 'near', file: 'parse.c', files: { 'parse.h': 'const char *parse_name(const char *s);\n', 'parse.c': '#include "parse.h"\nchar *parse_name(char *s) { return s; }\n' }, how: 'gcc -Wall -c parse.c -o parse.o' },
    ],
  }),
  setwStory('gxx-setw-report', 'report', 'summary'),
  setwStory('gxx-setw-cli', 'cli', 'listing'),
];
