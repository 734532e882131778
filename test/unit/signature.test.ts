import * as assert from 'assert';
import { primaryError } from '../../src/core/extract';
import { normaliseSignature, signatureOf } from '../../src/core/signature';
import { fixture, readFixtures } from '../fixtures/tool-output';

function key(raw: string): string {
  const s = signatureOf(raw);
  assert.ok(s, `no signature for: ${raw.slice(0, 120)}`);
  return s.key;
}

// Root causes that share one error text on purpose (the scope-twin memories reuse a message that a
// main lesson also has): the same message must give the same key, whatever the cause.
const SAME_TEXT_GROUPS = [
  ['py-module-not-in-venv', 'twin-py-no-module-app'],
  ['ld-missing-object', 'twin-ld-curl-undefined'],
  ['node-eaddrinuse', 'twin-eaddrinuse-dev'],
];

describe('signature: the same root cause in two different programs', () => {
  const ids = [...new Set(readFixtures().map(f => `${f.tool}/${f.id}`))];

  it('has fixtures for every tool family', () => {
    const tools = new Set(ids.map(i => i.split('/')[0]));
    for (const t of ['tsc', 'node', 'python', 'rustc', 'gcc', 'ld', 'javac', 'npm', 'shell']) assert.ok(tools.has(t), t);
  });

  for (const id of ids) {
    const [tool, name] = id.split('/');
    it(`${id}: program A, program B and B inside a noisy transcript share one key`, () => {
      const a = key(fixture(tool, name, 'a'));
      assert.strictEqual(key(fixture(tool, name, 'b')), a);
      assert.strictEqual(key(fixture(tool, name, 'noisy')), a);
    });
  }

  it('different root causes give different keys', () => {
    const byKey = new Map<string, string[]>();
    for (const id of ids) {
      const [tool, name] = id.split('/');
      const k = key(fixture(tool, name, 'a'));
      byKey.set(k, [...(byKey.get(k) ?? []), name]);
    }
    const allowed = (names: string[]) => SAME_TEXT_GROUPS.some(g => names.every(n => g.includes(n)));
    const clashes = [...byKey.entries()].filter(([, names]) => names.length > 1 && !allowed(names));
    assert.deepStrictEqual(clashes, []);
  });
});

describe('signature: normalisation', () => {
  it('TS2322 with different types and identifiers', () => {
    const a = normaliseSignature("src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.");
    const b = normaliseSignature("lib/deep/b.tsx:10:2 - error TS2322: Type '{ id: number; name: string; }' is not assignable to type 'User[]'.");
    assert.strictEqual(a.key, b.key);
    assert.deepStrictEqual([a.tool, a.code, a.family], ['tsc', 'TS2322', 'tsc:type']);
    assert.strictEqual(a.key, 'tsc:TS2322:type <id> is not assignable to type <id>');
  });

  it('a diagnostic without prefix (editor) matches the same error from the terminal', () => {
    const editor = signatureOf("Argument of type 'string' is not assignable to parameter of type 'number'.", { source: 'ts', code: 2345 });
    const terminal = signatureOf("src/x.ts(1,5): error TS2345: Argument of type 'boolean' is not assignable to parameter of type 'Options'.");
    assert.strictEqual(editor?.key, terminal?.key);
  });

  it('Python ModuleNotFoundError for different modules; ImportError is another cause', () => {
    const foo = key("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nModuleNotFoundError: No module named 'foo'");
    const bar = key("Traceback (most recent call last):\n  File \"/srv/b.py\", line 9, in <module>\nModuleNotFoundError: No module named 'bar.baz'");
    assert.strictEqual(foo, bar);
    const imp = key("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nImportError: cannot import name 'x' from 'y' (/srv/y.py)");
    assert.notStrictEqual(foo, imp);
  });

  it('rustc E0382 with different variable names; E0499 is another cause', () => {
    const a = key('error[E0382]: borrow of moved value: `items`\n --> src/main.rs:5:32');
    const b = key('error[E0382]: borrow of moved value: `line`\n --> src/lib.rs:12:9');
    assert.strictEqual(a, b);
    assert.notStrictEqual(a, key('error[E0499]: cannot borrow `w` as mutable more than once at a time\n --> src/main.rs:5:14'));
  });

  it('gcc/ld undefined reference to different symbols of the same kind; the symbol kind separates causes', () => {
    const fn1 = key("main.c:(.text+0xf): undefined reference to `add'");
    const fn2 = key("/usr/bin/ld: app.c:(.text+0x1c): undefined reference to `kv_open'");
    assert.strictEqual(fn1, fn2);
    const libm = key("sim.c:(.text+0x2b): undefined reference to `sqrt'");
    const vtable = key("main.cpp:(.text+0xc): undefined reference to `vtable for Shape'");
    const tmpl = key("main.cpp:(.text+0x15): undefined reference to `Stack<int>::push(int)'");
    assert.strictEqual(new Set([fn1, libm, vtable, tmpl]).size, 4);
    assert.strictEqual(normaliseSignature("undefined reference to `sqrt'", 'ld').family, 'ld:undefined-symbol');
  });

  it('go vet printf: another argument is the same error; another verb or type is another', () => {
    // go vet ./... on the go-vet-printf-verb trace's project (go 1.19), and the same check on other lines.
    const vet = '# example.com/hello\n./main.go:7:2: fmt.Printf format %d has arg name of wrong type string\n';
    assert.strictEqual(key(vet), key('# example.com/hello/cmd\ncmd/label.go:7:2: fmt.Printf format %d has arg city of wrong type string'));
    assert.notStrictEqual(key(vet), key('# example.com/hello\n./main.go:7:2: fmt.Printf format %s has arg count of wrong type int'));
  });

  it('javac cannot find symbol for different symbols', () => {
    const a = key('Orders.java:2: error: cannot find symbol\n    List<String> ids;\n    ^\n  symbol:   class List\n  location: class Orders');
    const b = key('Report.java:9: error: cannot find symbol\n    Map<String, Integer> counts;\n    ^\n  symbol:   class Map\n  location: class Report');
    assert.strictEqual(a, b);
    assert.notStrictEqual(a, key('A.java:3: error: incompatible types: String cannot be converted to int'));
  });

  it('masks paths, line/column numbers, hex, temp names, ports and quoted identifiers', () => {
    const s = normaliseSignature("Error: EACCES: permission denied, open '/home/ana/proj/tmp-8f3a9c/cache.json' at 0x7ffd5e8c on 127.0.0.1:5432 build 4f9c2e1a", 'node');
    assert.ok(!/ana|proj|8f3a9c|7ffd|5432|127\.0|4f9c2e1a/.test(s.text), s.text);
    assert.strictEqual(s.code, 'EACCES');
    assert.strictEqual(s.family, 'node:fs');
    const t = normaliseSignature('error: linking with `cc` failed: exit status: 1\nnote: "cc" "-m64" "/tmp/rustcXYZ/symbols.o"', 'rustc');
    assert.ok(!t.text.includes('symbols.o'));
  });

  it('words keep meaning and the code, drop identifiers and noise', () => {
    const s = normaliseSignature("ModuleNotFoundError: No module named 'requests_oauthlib'", 'python');
    assert.ok(s.words.includes('modulenotfounderror'));
    assert.ok(s.words.includes('module'));
    assert.ok(!s.words.some(w => w.includes('oauthlib')));
    assert.ok(!s.words.includes('no'));
  });

  it('maps codes to coarse families', () => {
    const fam = (m: string, t?: string) => normaliseSignature(m, t).family;
    assert.strictEqual(fam("error TS2307: Cannot find module 'x' or its corresponding type declarations."), 'tsc:module');
    assert.strictEqual(fam("error TS18048: 'u' is possibly 'undefined'."), 'tsc:nullable');
    assert.strictEqual(fam("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x' imported from /a.mjs", 'node'), 'node:module-not-found');
    assert.strictEqual(fam('error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable'), 'rustc:borrow');
    assert.strictEqual(fam("IndentationError: unexpected indent", 'python'), 'python:syntax');
    assert.strictEqual(fam('bash: pnpm: command not found'), 'shell:command-not-found');
    assert.strictEqual(fam('ERESOLVE unable to resolve dependency tree', 'npm'), 'npm:dependency');
  });

  it('the key is independent of where the output came from (ANSI, CRLF, pretty vs plain)', () => {
    const plain = fixture('tsc', 'tsc-possibly-undefined', 'a');
    const pretty = plain.replace(/^(\S+)\((\d+),(\d+)\): error (TS\d+): /m, '\x1b[96m$1\x1b[0m:\x1b[93m$2\x1b[0m:\x1b[93m$3\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m $4: \x1b[0m').replace(/\n/g, '\r\n');
    assert.strictEqual(key(pretty), key(plain));
  });

  it('signatureOf uses the root error, not the npm wrapper', () => {
    const raw = fixture('node', 'node-json-trailing-comma', 'noisy');
    assert.strictEqual(signatureOf(raw)?.family, 'node:syntax');
    assert.strictEqual(primaryError(raw)?.tool, 'node');
  });
});
