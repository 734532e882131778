// Compiled languages: rustc through cargo (and rust-analyzer-style diagnostics from cargo's JSON),
// gcc through make, javac.
import { Session } from './session.mjs';
import { label } from './label.mjs';

const cargoToml = name => `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n`;

export const episodes = [
  {
    // One error seen twice, by the language server (code E0502) and by `cargo build`: one episode.
    name: 'rust-e0502-diag-and-build', family: 'rustc',
    run(out) {
      const s = new Session(this.name, {
        'Cargo.toml': cargoToml('scores'),
        'src/main.rs': "fn main() {\n    let mut scores = vec![10, 20, 30];\n    let first = &scores[0];\n    scores.push(40);\n    println!(\"first = {}\", first);\n}\n",
      });
      s.open('src/main.rs');
      s.useRustc();
      s.command('cargo build', { expect: 'fail' });
      s.edit('src/main.rs', "fn main() {\n    let mut scores = vec![10, 20, 30];\n    let first = scores[0];\n    scores.push(40);\n    println!(\"first = {}\", first);\n}\n");
      s.command('cargo build', { expect: 0 });
      s.finish(out, label({
        family: 'rustc', description: 'rustc E0502 cannot borrow `scores` as mutable because it is also borrowed as immutable, reported by the language server and by cargo build (one episode); fixed by copying the value instead of borrowing',
        mustContain: ['E0502', 'let first = scores[0]'], mustNotClaim: ['Cargo.toml'],
      }));
    },
  },
  {
    name: 'rust-e0308-cargo-build', family: 'rustc',
    run(out) {
      const s = new Session(this.name, {
        'Cargo.toml': cargoToml('port'),
        'src/main.rs': "fn port() -> u16 {\n    let raw = std::env::var(\"PORT\").unwrap_or_else(|_| \"8080\".to_string());\n    raw\n}\n\nfn main() {\n    println!(\"listening on {}\", port());\n}\n",
      });
      s.open('src/main.rs');
      s.command('cargo build', { expect: 'fail' });
      s.edit('src/main.rs', "fn port() -> u16 {\n    let raw = std::env::var(\"PORT\").unwrap_or_else(|_| \"8080\".to_string());\n    raw.parse().expect(\"PORT must be a number\")\n}\n\nfn main() {\n    println!(\"listening on {}\", port());\n}\n");
      s.command('cargo build', { expect: 0 });
      s.finish(out, label({
        family: 'rustc', description: 'rustc E0308 mismatched types (expected `u16`, found `String`) from cargo build, fixed by parsing the string',
        mustContain: ['E0308', 'raw.parse()'], mustNotClaim: ['Cargo.toml'],
      }));
    },
  },
  {
    name: 'rust-e0382-use-after-move', family: 'rustc',
    run(out) {
      const s = new Session(this.name, {
        'Cargo.toml': cargoToml('names'),
        'src/main.rs': "fn shout(s: String) -> String {\n    s.to_uppercase()\n}\n\nfn main() {\n    let name = String::from(\"ada\");\n    let loud = shout(name);\n    println!(\"{} -> {}\", name, loud);\n}\n",
      });
      s.open('src/main.rs');
      s.command('cargo run', { expect: 'fail' });
      s.edit('src/main.rs', "fn shout(s: String) -> String {\n    s.to_uppercase()\n}\n\nfn main() {\n    let name = String::from(\"ada\");\n    let loud = shout(name.clone());\n    println!(\"{} -> {}\", name, loud);\n}\n");
      s.command('cargo run', { expect: 0 });
      s.finish(out, label({
        family: 'rustc', description: 'rustc E0382 borrow of moved value `name` from cargo run, fixed by passing a clone',
        mustContain: ['E0382', 'name.clone()'], mustNotClaim: ['Cargo.toml'],
      }));
    },
  },
  {
    name: 'gcc-undefined-reference-makefile', family: 'gcc',
    run(out) {
      const s = new Session(this.name, {
        'Makefile': 'CFLAGS = -Wall -O2\n\napp: main.o\n\t$(CC) $(CFLAGS) -o app main.o\n\nclean:\n\trm -f app *.o\n',
        'util.h': '#ifndef UTIL_H\n#define UTIL_H\nint sum_all(const int *xs, int n);\n#endif\n',
        'util.c': '#include "util.h"\n\nint sum_all(const int *xs, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += xs[i];\n  return s;\n}\n',
        'main.c': '#include <stdio.h>\n#include "util.h"\n\nint main(void) {\n  int xs[] = {1, 2, 3};\n  printf("%d\\n", sum_all(xs, 3));\n  return 0;\n}\n',
      });
      s.open('main.c');
      s.command('make', { expect: 'fail' });
      s.open('Makefile');
      s.edit('Makefile', 'CFLAGS = -Wall -O2\n\napp: main.o util.o\n\t$(CC) $(CFLAGS) -o app main.o util.o\n\nclean:\n\trm -f app *.o\n');
      s.command('make', { expect: 0 });
      s.finish(out, label({
        family: 'gcc', description: "gcc/ld undefined reference to `sum_all' because the Makefile did not link util.o; fixed by adding util.o to the Makefile",
        mustContain: ['util.o', 'Makefile'], mustNotClaim: ['main.c', 'util.c', 'util.h'],
      }));
    },
  },
  {
    name: 'gcc-implicit-declaration', family: 'gcc',
    run(out) {
      const s = new Session(this.name, {
        'Makefile': 'CFLAGS = -Wall -Werror=implicit-function-declaration\n\nwc: wc.c\n\t$(CC) $(CFLAGS) -o wc wc.c\n',
        'wc.c': '#include <stdio.h>\n\nint main(int argc, char **argv) {\n  for (int i = 1; i < argc; i++) printf("%s: %zu\\n", argv[i], strlen(argv[i]));\n  return 0;\n}\n',
      });
      s.open('wc.c');
      s.command('make', { expect: 'fail' });
      s.edit('wc.c', '#include <stdio.h>\n#include <string.h>\n\nint main(int argc, char **argv) {\n  for (int i = 1; i < argc; i++) printf("%s: %zu\\n", argv[i], strlen(argv[i]));\n  return 0;\n}\n');
      s.command('make', { expect: 0 });
      s.finish(out, label({
        family: 'gcc', description: "gcc error: implicit declaration of function 'strlen' (with -Werror=implicit-function-declaration), fixed by including <string.h>",
        mustContain: ['#include <string.h>'], mustNotClaim: ['Makefile'],
      }));
    },
  },
  {
    name: 'javac-cannot-find-symbol-import', family: 'javac',
    run(out) {
      const s = new Session(this.name, {
        'src/Main.java': 'public class Main {\n  public static void main(String[] args) {\n    List<String> names = new ArrayList<>();\n    names.add("ada");\n    System.out.println(names);\n  }\n}\n',
      });
      s.open('src/Main.java');
      s.command('javac -d out src/Main.java', { expect: 'fail' });
      s.edit('src/Main.java', 'import java.util.ArrayList;\nimport java.util.List;\n\npublic class Main {\n  public static void main(String[] args) {\n    List<String> names = new ArrayList<>();\n    names.add("ada");\n    System.out.println(names);\n  }\n}\n');
      s.command('javac -d out src/Main.java', { expect: 0 });
      s.finish(out, label({
        family: 'javac', description: 'javac cannot find symbol: class List / class ArrayList, fixed by importing java.util.List and java.util.ArrayList',
        mustContain: ['import java.util.List', 'import java.util.ArrayList'], mustNotClaim: [],
      }));
    },
  },
  {
    name: 'javac-cannot-find-symbol-method', family: 'javac',
    run(out) {
      const s = new Session(this.name, {
        'src/MathUtil.java': 'public class MathUtil {\n  public static int sum(int[] xs) {\n    int s = 0;\n    for (int x : xs) s += x;\n    return s;\n  }\n}\n',
        'src/App.java': 'public class App {\n  public static void main(String[] args) {\n    System.out.println(MathUtil.sumAll(new int[] {1, 2, 3}));\n  }\n}\n',
      });
      s.open('src/App.java');
      s.command('javac -d out src/*.java', { expect: 'fail' });
      s.edit('src/App.java', 'public class App {\n  public static void main(String[] args) {\n    System.out.println(MathUtil.sum(new int[] {1, 2, 3}));\n  }\n}\n');
      s.command('javac -d out src/*.java', { expect: 0 });
      s.finish(out, label({
        family: 'javac', description: 'javac cannot find symbol: method sumAll(int[]) in class MathUtil, fixed by calling the existing MathUtil.sum',
        mustContain: ['MathUtil.sum('], mustNotClaim: ['src/MathUtil.java'],
      }));
    },
  },
];
