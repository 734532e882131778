// The JVM: Maven (offline, from the machine's ~/.m2: its long [INFO] logs, "BUILD FAILURE" and
// "Failed to execute goal" summaries around javac's and Surefire's real errors; two failing tests fixed
// by two edits), javac on its own, and a NullPointerException at run time.
import { story } from './story.mjs';

const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>shop</groupId>
  <artifactId>shop</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
    </plugins>
  </build>
</project>
`;
const MAIN = 'src/main/java/shop';
const TEST = 'src/test/java/shop';
const price = (discount, tax) => `package shop;\n\npublic class Price {\n  public static long discounted(long cents, int percent) {\n    return ${discount};\n  }\n\n  public static long withTax(long cents) {\n    return ${tax};\n  }\n}\n`;
const priceTest = 'package shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass PriceTest {\n  @Test\n  void appliesDiscount() {\n    assertEquals(9000, Price.discounted(10000, 10));\n  }\n\n  @Test\n  void addsTwentyPercentTax() {\n    assertEquals(1200, Price.withTax(1000));\n  }\n}\n';
const q = files => ({ 'pom.xml': pom, ...files });

export const episodes = [
  story({
    name: 'maven-lossy-conversion', family: 'maven',
    files: {
      'pom.xml': pom,
      [`${MAIN}/Stock.java`]: 'package shop;\n\npublic class Stock {\n  public static int reorderAt(int weeklySales) {\n    int level = weeklySales * 1.5;\n    return level;\n  }\n}\n',
    },
    steps: [
      ['open', `${MAIN}/Stock.java`],
      ['run', 'mvn -o -B compile', 'fail'],
      ['replace', `${MAIN}/Stock.java`, 'int level = weeklySales * 1.5;', 'int level = (int) Math.round(weeklySales * 1.5);'],
      ['run', 'mvn -o -B compile', 0],
    ],
    label: {
      description: 'mvn compile: javac "incompatible types: possible lossy conversion from double to int" in Stock.java inside Maven\'s [INFO] log, then "BUILD FAILURE" and "Failed to execute goal … Compilation failure"; fixed with (int) Math.round(…). target/ is build output',
      mustContain: ['(int) Math.round(weeklySales * 1.5)'], mustNotClaim: ['pom.xml'],
      errors: ['incompatible types: possible lossy conversion from double to int'], mustNotSay: ['BUILD FAILURE', 'Failed to execute goal'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line', 'long-log'],
    },
    queries: [
      { kind: 'related', file: `${MAIN}/Shipping.java`, files: q({ [`${MAIN}/Shipping.java`]: 'package shop;\n\npublic class Shipping {\n  public static int boxes(int items) {\n    int n = items / 2.0;\n    return n;\n  }\n}\n' }), how: 'mvn -o -B -q compile' },
      { kind: 'near', file: `${MAIN}/Stock.java`, files: q({ [`${MAIN}/Stock.java`]: 'package shop;\n\npublic class Stock {\n  public static int reorderAt(String weeklySales) {\n    int level = weeklySales;\n    return level;\n  }\n}\n' }), how: 'mvn -o -B -q compile' },
    ],
  }),
  story({
    name: 'maven-surefire-two-tests', family: 'maven',
    files: { 'pom.xml': pom, [`${MAIN}/Price.java`]: price('cents * percent / 100', 'cents + cents / 10'), [`${TEST}/PriceTest.java`]: priceTest },
    steps: [
      ['open', `${TEST}/PriceTest.java`],
      ['run', 'mvn -o -B test', 'fail'],
      ['open', `${MAIN}/Price.java`],
      ['replace', `${MAIN}/Price.java`, 'return cents * percent / 100;', 'return cents - cents * percent / 100;'],
      ['run', 'mvn -o -B test', 'fail'],
      ['replace', `${MAIN}/Price.java`, 'return cents + cents / 10;', 'return cents + cents / 5;'],
      ['run', 'mvn -o -B test', 0],
    ],
    label: {
      description: 'mvn test (JUnit 5 via Surefire): PriceTest.appliesDiscount (expected: <9000> but was: <1000>) and PriceTest.addsTwentyPercentTax (expected: <1200> but was: <1100>) fail, "Tests run: 2, Failures: 2"; two edits in Price.java fix them one at a time: two lessons, each test with its own fix',
      mustContain: ['cents - cents * percent / 100', 'cents + cents / 5'], mustNotClaim: [`${TEST}/PriceTest.java`, 'pom.xml'],
      errors: ['expected: <9000> but was: <1000>', 'expected: <1200> but was: <1100>'], mustNotSay: ['BUILD FAILURE', 'There are test failures'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['two-tests', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: `${TEST}/CheckoutTest.java`, files: q({ [`${MAIN}/Price.java`]: price('cents * percent / 100', 'cents'), [`${TEST}/CheckoutTest.java`]: 'package shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass CheckoutTest {\n  @Test\n  void appliesDiscount() {\n    assertEquals(9000, Price.discounted(10000, 10));\n  }\n}\n' }), how: 'mvn -o -B -q test' },
      { kind: 'near', file: `${TEST}/PriceTest.java`, files: q({ [`${MAIN}/Price.java`]: price('cents', 'cents'), [`${TEST}/PriceTest.java`]: 'package shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass PriceTest {\n  @Test\n  void roundsToWholeCents() {\n    assertEquals(3, Price.withTax(2));\n  }\n}\n' }), how: 'mvn -o -B -q test' },
    ],
  }),
  story({
    name: 'javac-incompatible-string-int', family: 'javac',
    files: { 'src/Server.java': 'public class Server {\n  public static void main(String[] args) {\n    int port = System.getenv().getOrDefault("PORT", "8080");\n    System.out.println("listening on " + port);\n  }\n}\n' },
    steps: [
      ['open', 'src/Server.java'],
      ['run', 'javac -d out src/Server.java', 'fail'],
      ['replace', 'src/Server.java', 'int port = System.getenv().getOrDefault("PORT", "8080");', 'int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8080"));'],
      ['run', 'javac -d out src/Server.java && java -cp out Server', 0],
    ],
    label: {
      description: 'javac: "incompatible types: String cannot be converted to int" for the PORT read from the environment, then the summary "1 error"; fixed with Integer.parseInt. out/ holds class files',
      mustContain: ['Integer.parseInt('], mustNotClaim: [],
      errors: ['incompatible types: String cannot be converted to int'], mustNotSay: ['1 error'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'src/Worker.java', files: { 'src/Worker.java': 'public class Worker {\n  static int threads(String[] a) {\n    int n = a.length > 0 ? a[0] : "4";\n    return n;\n  }\n}\n' }, how: 'javac -d out src/Worker.java' },
      { kind: 'near', file: 'src/Server.java', files: { 'src/Server.java': 'public class Server {\n  static boolean debug() {\n    boolean on = System.getenv().getOrDefault("DEBUG", "0");\n    return on;\n  }\n}\n' }, how: 'javac -d out src/Server.java' },
    ],
  }),
  story({
    name: 'java-npe-helpful-message', family: 'java',
    files: { 'src/Greeter.java': 'import java.util.Map;\n\npublic class Greeter {\n  public static void main(String[] args) {\n    Map<String, String> names = Map.of("ada", "Ada Lovelace");\n    String full = names.get(args.length > 0 ? args[0] : "grace");\n    System.out.println("Hello " + full.toUpperCase());\n  }\n}\n' },
    steps: [
      ['open', 'src/Greeter.java'],
      ['run', 'javac -d out src/Greeter.java && java -cp out Greeter', 'fail'],
      ['replace', 'src/Greeter.java', 'String full = names.get(args.length > 0 ? args[0] : "grace");', 'String full = names.getOrDefault(args.length > 0 ? args[0] : "grace", "stranger");'],
      ['run', 'javac -d out src/Greeter.java && java -cp out Greeter', 0],
    ],
    label: {
      description: 'java: Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.toUpperCase()" because "<local2>" is null (Map.get returned null for a missing name); fixed with getOrDefault(…, "stranger")',
      mustContain: ['getOrDefault('], mustNotClaim: [],
      errors: ['Cannot invoke "String.toUpperCase()"'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'src/Badge.java', files: { 'src/Badge.java': 'import java.util.Map;\n\npublic class Badge {\n  public static void main(String[] a) {\n    String t = Map.of("x", "y").get("z");\n    System.out.println(t.toUpperCase());\n  }\n}\n' }, how: 'javac -d out src/Badge.java && java -cp out Badge' },
      { kind: 'near', file: 'src/Greeter.java', files: { 'src/Greeter.java': 'public class Greeter {\n  public static void main(String[] a) {\n    System.out.println(a[0].length());\n  }\n}\n' }, how: 'javac -d out src/Greeter.java && java -cp out Greeter' },
    ],
  }),
];
