// javac 17 compile errors and one JVM runtime exception. A = memory program, B = query program.
const base = { tool: 'javac', stack: ['java'], scope: ['src/**/*.java', '**/*.java'] };
const java = (file, body) => ({ cmd: `javac -d out ${file}`, files: { [file]: body } });
function pair(a, b) {
  return { a: a.files, b: b.files, cmd: side => (side === 'a' ? a : b).cmd };
}

export default [
  {
    ...base, id: 'javac-missing-import', project: ['orders', 'reports'], errorCategory: 'symbol', tags: ['import'],
    ...pair(java('Orders.java', 'public class Orders {\n    List<String> ids = new ArrayList<>();\n}\n'),
            java('Report.java', 'public class Report {\n    Map<String, Integer> counts;\n}\n')),
    rootCause: 'A java.util type (List, ArrayList, Map, ...) is used without an import; only java.lang is imported implicitly.',
    fixApproach: 'Add the import (`import java.util.List; import java.util.ArrayList;`), or let the IDE "Organize Imports" add them.',
  },
  {
    ...base, id: 'javac-string-to-int', project: ['cli-java', 'shop-java'], errorCategory: 'types', tags: ['parseInt', 'conversion'],
    ...pair(java('Args.java', 'public class Args {\n    public static void main(String[] a) {\n        int port = a[0];\n    }\n}\n'),
            java('Price.java', 'public class Price {\n    int cents(String raw) {\n        int c = raw.trim();\n        return c;\n    }\n}\n')),
    rootCause: 'A String (command-line argument, text field, parsed token) is assigned to an int; Java never converts between them implicitly.',
    fixApproach: 'Parse explicitly with Integer.parseInt(s) (handle NumberFormatException), or keep the value as String if it is not numeric.',
  },
  {
    ...base, id: 'javac-missing-return', project: ['grading', 'router-java'], errorCategory: 'flow', tags: ['return'],
    ...pair(java('Grade.java', 'public class Grade {\n    static String of(int s) {\n        if (s > 90) return "A";\n        else if (s > 80) return "B";\n    }\n}\n'),
            java('Route.java', 'public class Route {\n    int code(String p) {\n        switch (p) {\n            case "/": return 200;\n        }\n    }\n}\n')),
    rootCause: 'A method with a non-void return type has a path (final else, switch default) that reaches the end without returning.',
    fixApproach: 'Return a value or throw on the remaining path (e.g. `throw new IllegalArgumentException(...)` in default); with enums a switch expression makes exhaustiveness explicit.',
  },
  {
    ...base, id: 'javac-unreported-exception', project: ['file-io', 'http-java'], errorCategory: 'exceptions', tags: ['checked-exceptions', 'IOException'],
    ...pair(java('Load.java', 'import java.nio.file.*;\npublic class Load {\n    String read() {\n        return Files.readString(Path.of("a.txt"));\n    }\n}\n'),
            java('Wait.java', 'public class Wait {\n    void pause() {\n        Thread.sleep(100);\n    }\n}\n')),
    rootCause: 'The called API throws a checked exception (IOException, InterruptedException) that the method neither catches nor declares.',
    fixApproach: 'Add `throws IOException` to the method signature or wrap in try/catch; for InterruptedException, restore the flag with Thread.currentThread().interrupt() in the catch.',
  },
  {
    ...base, id: 'javac-uninitialized-variable', project: ['tax', 'parser-java'], errorCategory: 'flow', tags: ['definite-assignment'],
    ...pair(java('Tax.java', 'public class Tax {\n    double rate(String c) {\n        double r;\n        if (c.equals("DE")) r = 0.19;\n        return r;\n    }\n}\n'),
            java('Tok.java', 'public class Tok {\n    int next(char ch) {\n        int kind;\n        switch (ch) { case \'a\': kind = 1; break; }\n        return kind;\n    }\n}\n')),
    rootCause: 'A local variable is assigned only on some paths (an if without else, a switch without default) and read afterwards.',
    fixApproach: 'Initialise it at declaration with a sensible default, or assign it on every path (add else/default that assigns or throws).',
  },
  {
    ...base, id: 'javac-non-static-from-static', project: ['app-java', 'bot-java'], errorCategory: 'structure', tags: ['static', 'main'],
    ...pair(java('App.java', 'public class App {\n    void start() {}\n    public static void main(String[] a) {\n        start();\n    }\n}\n'),
            java('Bot.java', 'public class Bot {\n    int count = 0;\n    public static void main(String[] a) {\n        count++;\n    }\n}\n')),
    rootCause: 'Instance members are used from static main(); there is no `this` in a static context.',
    fixApproach: 'Create an instance (`new App().start();`) and call the member on it, or make the member static if it does not need instance state.',
  },
  {
    ...base, id: 'javac-public-class-filename', project: ['users-java', 'billing-java'], errorCategory: 'structure', tags: ['filenames'],
    ...pair(java('Users.java', 'public class UserService {\n}\n'), java('Invoice.java', 'public class InvoiceGenerator {\n}\n')),
    rootCause: 'A public top-level class must live in a file with the same name; the class (or the file) was renamed without the other.',
    fixApproach: 'Rename the file to match the class (UserService.java) or the class to match the file; IDE rename refactoring keeps them in sync.',
  },
  {
    ...base, id: 'javac-lossy-conversion', project: ['stats-java', 'pixels'], errorCategory: 'types', tags: ['casting', 'double'],
    ...pair(java('Avg.java', 'public class Avg {\n    int mean(int[] xs) {\n        double s = 0;\n        for (int x : xs) s += x;\n        int m = s / xs.length;\n        return m;\n    }\n}\n'),
            java('Px.java', 'public class Px {\n    int scale(int w) {\n        int out = w * 1.5;\n        return out;\n    }\n}\n')),
    rootCause: 'A double expression is assigned to an int; narrowing conversions need an explicit cast because they lose the fraction.',
    fixApproach: 'Decide the rounding: `(int) Math.round(s / xs.length)` or an explicit `(int)` cast to truncate; or keep the variable as double.',
  },
  {
    ...base, id: 'javac-final-reassign', project: ['conf-java', 'retry-java'], errorCategory: 'flow', tags: ['final'],
    ...pair(java('Conf.java', 'public class Conf {\n    final int port = 80;\n    void set(int p) { port = p; }\n}\n'),
            java('Retry.java', 'public class Retry {\n    void run() {\n        final int tries = 0;\n        tries = tries + 1;\n    }\n}\n')),
    rootCause: 'A variable or field declared final is assigned again.',
    fixApproach: 'Remove final if the value must change, or create a new object/variable with the new value (immutable config: builder or with-er methods).',
  },
  {
    ...base, id: 'javac-method-args-mismatch', project: ['mail-java', 'geo-java'], errorCategory: 'types', tags: ['signature'],
    ...pair(java('Mail.java', 'public class Mail {\n    static void send(String to, String subject) {}\n    public static void main(String[] a) {\n        send("x@example.com");\n    }\n}\n'),
            java('Geo.java', 'public class Geo {\n    static double dist(double a, double b, double c, double d) { return 0; }\n    public static void main(String[] x) {\n        dist(1.0, 2.0);\n    }\n}\n')),
    rootCause: 'The call passes a different number or type of arguments than the method declares (signature changed or wrong overload assumed).',
    fixApproach: 'Read "required:" vs "found:" in the error, update the call or add an overload with defaults for the old signature.',
  },
  {
    ...base, id: 'javac-missing-interface-method', project: ['tasks-java', 'events-java'], errorCategory: 'structure', tags: ['interfaces', 'override'],
    ...pair(java('Job.java', 'public class Job implements Runnable {\n    public void execute() {}\n}\n'),
            java('Sorter.java', 'import java.util.Comparator;\npublic class Sorter implements Comparator<String> {\n    public int compareStrings(String a, String b) { return 0; }\n}\n')),
    rootCause: 'The class implements an interface but does not implement its abstract method under the exact name and signature (run, compare).',
    fixApproach: 'Implement the method with the interface\'s exact signature and annotate it with @Override so mistakes are caught; or declare the class abstract.',
  },
  {
    ...base, id: 'javac-unreachable-statement', project: ['loop-java', 'sum-java'], errorCategory: 'flow', tags: ['return', 'dead-code'],
    ...pair(java('Loop.java', 'public class Loop {\n    int f() {\n        return 1;\n        System.out.println("done");\n    }\n}\n'),
            java('Sum.java', 'public class Sum {\n    void g() {\n        while (true) { }\n        System.out.println("never");\n    }\n}\n')),
    rootCause: 'A statement follows a return/throw/infinite loop, so it can never run; javac treats unreachable code as an error.',
    fixApproach: 'Remove the dead statement or move it before the return; if the loop should end, give it a real exit condition or break.',
  },
  {
    ...base, id: 'java-npe-null-field', tool: 'java', fixtureTool: 'java', project: ['profile-java', 'cart-java'], errorCategory: 'runtime', tags: ['NullPointerException', 'initialisation'],
    a: { 'Main.java': 'public class Main {\n    static String name;\n    public static void main(String[] a) {\n        System.out.println(name.length());\n    }\n}\n' },
    b: { 'Main.java': 'import java.util.*;\npublic class Main {\n    static Map<String, List<String>> carts = new HashMap<>();\n    public static void main(String[] a) {\n        carts.get("u1").add("apple");\n    }\n}\n' },
    cmd: () => 'java Main.java',
    rootCause: 'A reference that was never initialised (a field left null, or Map.get for a missing key) is dereferenced.',
    fixApproach: 'Initialise the field, or handle absence at the source: `carts.computeIfAbsent("u1", k -> new ArrayList<>()).add(...)`, Optional, or an explicit null check with a clear error.',
  },
];
