import * as assert from 'assert';
import { extractErrors, primaryError } from '../../src/core/extract';
import { fixture, readFixtures } from '../fixtures/tool-output';

interface Expect { tool: string; code?: string; message: RegExp; file?: string; line?: number; column?: number; frames?: boolean }

// Real outputs recorded by bench/data/build-corpus.mjs; what a user would read off each one.
const REAL: Record<string, Expect> = {
  'tsc/tsc-map-get-undefined.a': { tool: 'tsc', code: 'TS2322', message: /^Type 'string \| undefined' is not assignable to type 'string'\./, file: 'src/services/userService.ts', line: 3, column: 9 },
  'tsc/tsc-possibly-undefined.b': { tool: 'tsc', code: 'TS18048', message: /'inv\.customer' is possibly 'undefined'/, file: 'src/services/userService.ts', line: 3 },
  'tsc/tsc-esm-extension.a': { tool: 'tsc', code: 'TS2835', message: /Relative import paths need explicit file extensions/, file: 'src/index.ts', line: 1 },
  'tsc/tsc-implicit-any-param.a': { tool: 'tsc', code: 'TS7006', message: /Parameter 'items' implicitly has an 'any' type/, file: 'src/total.ts', line: 1 },
  'node/node-esm-missing-extension.a': { tool: 'node', code: 'ERR_MODULE_NOT_FOUND', message: /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '.*mailer' imported from/, frames: true },
  'node/node-cjs-relative-path.a': { tool: 'node', code: 'MODULE_NOT_FOUND', message: /^Error: Cannot find module '\.\/lib\/helpers'$/, file: '/home/dev/shop-api/src/app.js', line: 1, frames: true },
  'node/node-eaddrinuse.a': { tool: 'node', code: 'EADDRINUSE', message: /listen EADDRINUSE: address already in use :::38471/, file: '/home/dev/shop-api/src/server.js', line: 5, frames: true },
  'node/node-enoent-cwd.a': { tool: 'node', code: 'ENOENT', message: /ENOENT: no such file or directory, open 'templates\/report.html'/, file: '/home/dev/reporting/scripts/report.js', line: 2 },
  'node/node-cjs-named-vs-default.a': { tool: 'node', code: 'TypeError', message: /^TypeError: fetchJson is not a function$/, file: '/home/dev/crawler/index.js', line: 2 },
  'node/node-invalid-arg-undefined-env.a': { tool: 'node', code: 'ERR_INVALID_ARG_TYPE', message: /The "path" argument must be of type string/, file: '/home/dev/shop-api/src/server.js', line: 2 },
  'node/node-import-in-cjs.a': { tool: 'node', code: 'SyntaxError', message: /Cannot use import statement outside a module/, file: '/home/dev/legacy-api/index.js', line: 1 },
  'mocha/mocha-strict-equal-objects.a': { tool: 'mocha', code: 'ERR_ASSERTION', message: /AssertionError \[ERR_ASSERTION\]: Values have same structure but are not reference-equal/ },
  'python/py-module-not-in-venv.a': { tool: 'python', code: 'ModuleNotFoundError', message: /^ModuleNotFoundError: No module named 'boto4_s3_helpers'$/, file: '/home/dev/etl/etl.py', line: 2, frames: true },
  'python/py-unbound-local.b': { tool: 'python', code: 'UnboundLocalError', message: /cannot access local variable 'total'/, file: '/home/dev/game/app/main.py', frames: true },
  'python/py-tabs-spaces.a': { tool: 'python', code: 'TabError', message: /inconsistent use of tabs and spaces/, file: '/home/dev/scraper/scrape.py', line: 3 },
  'python/py-json-empty-response.a': { tool: 'python', code: 'JSONDecodeError', message: /^json\.decoder\.JSONDecodeError: Expecting value/, frames: true },
  'pytest/pytest-fixture-not-found.a': { tool: 'pytest', code: 'fixture-not-found', message: /^fixture 'db_session' not found$/, file: '/home/dev/api-tests/tests/unit/test_users.py', line: 1 },
  'rustc/rust-use-after-move.a': { tool: 'rustc', code: 'E0382', message: /^borrow of moved value: `items`$/, file: 'src/main.rs', line: 5 },
  'rustc/rust-missing-lifetime.a': { tool: 'rustc', code: 'E0106', message: /missing lifetime specifier/, file: 'src/main.rs', line: 1 },
  'gcc/gcc-missing-include-path.a': { tool: 'gcc', message: /^codec\.h: No such file or directory$/, file: 'src/main.c', line: 1 },
  'gcc/gcc-undeclared-identifier.b': { tool: 'gcc', message: /‘status’ undeclared/, file: 'src/shell.c', line: 5 },
  'gcc/gxx-cout-not-declared.a': { tool: 'gcc', message: /‘cout’ was not declared in this scope/, file: 'src/main.cpp', line: 2 },
  'ld/ld-missing-libm.a': { tool: 'ld', message: /^undefined reference to `sqrt'$/, file: 'sim.c' },
  'ld/ld-multiple-definition.a': { tool: 'ld', message: /^multiple definition of `score'$/ },
  'javac/javac-missing-import.a': { tool: 'javac', message: /^cannot find symbol\nsymbol: class List$/, file: 'Orders.java', line: 2 },
  'javac/javac-unreported-exception.b': { tool: 'javac', message: /unreported exception InterruptedException/, file: 'Wait.java', line: 3 },
  'java/java-npe-null-field.a': { tool: 'java', code: 'NullPointerException', message: /^java\.lang\.NullPointerException: Cannot invoke "String\.length\(\)"/, file: 'Main.java', line: 4, frames: true },
  'npm/npm-missing-script.a': { tool: 'npm', message: /^Missing script: "dev"$/ },
  'npm/npm-no-package-json.a': { tool: 'npm', code: 'ENOENT', message: /Could not read package\.json/ },
  'npm/npm-ebadengine.b': { tool: 'npm', code: 'EBADENGINE', message: /Unsupported engine/ },
  'npm/npm-workspace-protocol.a': { tool: 'npm', code: 'EUNSUPPORTEDPROTOCOL', message: /Unsupported URL Type "workspace:"/ },
  'shell/sh-tool-not-installed.a': { tool: 'shell', code: 'command-not-found', message: /^pnpm: command not found$/, file: 'scripts/build.sh', line: 3 },
  'shell/sh-unbound-variable.a': { tool: 'shell', message: /^DEPLOY_ENV: unbound variable$/, file: 'deploy.sh', line: 3 },
  'shell/sh-script-not-executable.a': { tool: 'shell', code: 'EACCES', message: /\.\/deploy\.sh: Permission denied/ },
  'shell/sh-bad-substitution.a': { tool: 'shell', message: /Bad substitution/, file: 'rename.sh', line: 2 },
};

function load(name: string): string {
  const [tool, rest] = name.split('/');
  const m = /^(.+)\.(a|b|noisy)$/.exec(rest)!;
  return fixture(tool, m[1], m[2] as 'a' | 'b' | 'noisy');
}

describe('extract: real tool output', () => {
  for (const [name, exp] of Object.entries(REAL)) {
    it(`${name}: ${exp.tool}${exp.code ? ' ' + exp.code : ''}`, () => {
      const e = primaryError(load(name));
      assert.ok(e, 'an error is found');
      assert.strictEqual(e.tool, exp.tool);
      if (exp.code) assert.strictEqual(e.code, exp.code);
      assert.match(e.message, exp.message);
      if (exp.file) assert.strictEqual(e.file, exp.file);
      if (exp.line !== undefined) assert.strictEqual(e.line, exp.line);
      if (exp.column !== undefined) assert.strictEqual(e.column, exp.column);
      if (exp.frames) assert.ok(e.stack.length > 0 && e.stack.length <= 20, `frames: ${e.stack.length}`);
      assert.ok(!e.wrapper);
      assert.ok(e.excerpt.includes(e.message.split('\n')[0].slice(0, 30)), 'excerpt shows the error');
    });
  }

  it('finds an error in every recorded output, and it is never only the wrapper', () => {
    const all = readFixtures();
    assert.ok(all.length >= 300, `fixtures: ${all.length}`);
    for (const f of all) {
      const e = primaryError(f.text);
      assert.ok(e, `${f.name}: nothing found`);
      assert.ok(!e.wrapper, `${f.name}: picked wrapper "${e.message}"`);
      assert.notStrictEqual(e.tool, 'generic', `${f.name}: fell back to generic for "${e.message}"`);
    }
  });

  it('in a noisy transcript (npm run / make / cargo + progress + ELIFECYCLE) the root error is the one from the plain run', () => {
    for (const f of readFixtures().filter(x => x.variant === 'noisy')) {
      const plain = primaryError(fixture(f.tool, f.id, 'b'));
      const noisy = primaryError(f.text);
      assert.ok(plain && noisy, f.name);
      assert.strictEqual(noisy.message, plain.message, f.name);
      assert.strictEqual(noisy.code, plain.code, f.name);
    }
  });

  it('reports the linker wrapper and the rustc/cargo summary as wrappers, after the real errors', () => {
    const errs = extractErrors(fixture('ld', 'ld-missing-libm', 'b'));
    assert.deepStrictEqual(errs.map(e => [e.message, !!e.wrapper]), [
      ["undefined reference to `pow'", false],
      ["undefined reference to `floor'", false],
      ['collect2: error: ld returned 1 exit status', true],
    ]);
  });

  it('keeps Python frames in order and points at the innermost frame', () => {
    const e = primaryError(fixture('python', 'py-property-recursion', 'b'))!;
    assert.strictEqual(e.code, 'RecursionError');
    assert.ok(e.stack.every(f => f.startsWith('File "')), e.stack.join('\n'));
    assert.strictEqual(e.file, '/home/dev/settings/cfg.py');
  });
});

describe('extract: formats without recorded fixtures', () => {
  it('npm 6 ELIFECYCLE alone is a wrapper; with a tsc error above it, tsc wins', () => {
    const npm6 = 'npm ERR! code ELIFECYCLE\nnpm ERR! errno 2\nnpm ERR! web@1.0.0 build: `tsc -p .`\nnpm ERR! Exit status 2\nnpm ERR!\nnpm ERR! Failed at the web@1.0.0 build script.';
    const only = primaryError(npm6)!;
    assert.strictEqual(only.tool, 'npm');
    assert.strictEqual(only.code, 'ELIFECYCLE');
    assert.strictEqual(only.wrapper, true);
    const both = primaryError(`> web@1.0.0 build\n> tsc -p .\n\nsrc/a.ts(4,7): error TS2339: Property 'x' does not exist on type 'Y'.\n${npm6}`)!;
    assert.strictEqual(both.code, 'TS2339');
  });

  it('npm ERESOLVE (registry peer conflict) is the root error, with its code', () => {
    const raw = [
      'npm error code ERESOLVE',
      'npm error ERESOLVE unable to resolve dependency tree',
      'npm error',
      'npm error While resolving: web@1.0.0',
      'npm error Found: react@18.3.1',
      'npm error node_modules/react',
      'npm error   react@"^18.3.1" from the root project',
      'npm error',
      'npm error Could not resolve dependency:',
      'npm error peer react@"^17.0.0" from react-beautiful-dnd@13.1.1',
      'npm error Fix the upstream dependency conflict, or retry',
      'npm error this command with --force or --legacy-peer-deps',
    ].join('\n');
    const e = primaryError(raw)!;
    assert.strictEqual(e.tool, 'npm');
    assert.strictEqual(e.code, 'ERESOLVE');
    assert.strictEqual(e.message, 'ERESOLVE unable to resolve dependency tree');
    assert.ok(!e.wrapper);
  });

  it('npm 404 in the old "npm ERR!" format', () => {
    const e = primaryError('npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found\nnpm ERR! 404\nnpm ERR! 404  \'left-padd@*\' is not in this registry.')!;
    assert.strictEqual(e.code, 'E404');
    assert.match(e.message, /^404 Not Found - GET/);
  });

  it('jest failure blocks', () => {
    const raw = ' FAIL  src/cart.test.ts\n  ● cart › adds items\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 3\n    Received: 2\n';
    const e = primaryError(raw)!;
    assert.strictEqual(e.tool, 'jest');
    // The test's name and Expected/Received travel with the message: they tell one failing test from another.
    assert.strictEqual(e.message, 'expect(received).toBe(expected) // Object.is equality\ntest: cart › adds items\nExpected: 3\nReceived: 2');
  });

  it('editor diagnostics without a prefix use the source/code hint', () => {
    const e = primaryError("Type 'number' is not assignable to type 'string'.", { source: 'ts', code: 2322 })!;
    assert.deepStrictEqual([e.tool, e.code, e.message], ['tsc', 'TS2322', "Type 'number' is not assignable to type 'string'."]);
    const guessed = primaryError("Cannot find module 'zod' or its corresponding type declarations.")!;
    assert.deepStrictEqual([guessed.tool, guessed.code], ['tsc', 'TS2307']);
  });

  it('a bare exception line is Python when the file at hand is a .py file, Node otherwise', () => {
    const line = 'TypeError: can only concatenate str (not "int") to str';
    assert.strictEqual(primaryError(line, { file: 'app/main.py' })?.tool, 'python');
    assert.strictEqual(primaryError(line)?.tool, 'node');
  });

  it('Node REPL "Uncaught" errors, zsh and dash messages, generic fallback', () => {
    assert.strictEqual(primaryError('> foo()\nUncaught ReferenceError: foo is not defined')?.code, 'ReferenceError');
    assert.strictEqual(primaryError('zsh: command not found: pnpm')?.code, 'command-not-found');
    assert.strictEqual(primaryError('sh: 1: yarn: not found')?.code, 'command-not-found');
    const g = primaryError('[12:00:01] starting\nFATAL: database "app" does not exist\n')!;
    assert.deepStrictEqual([g.tool, g.message], ['generic', 'FATAL: database "app" does not exist']);
  });

  it('Python chained exceptions: the first (root) exception is primary, both are listed', () => {
    const raw = 'Traceback (most recent call last):\n  File "/app/a.py", line 2, in <module>\n    d["k"]\nKeyError: \'k\'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "/app/a.py", line 4, in <module>\n    raise RuntimeError("config incomplete")\nRuntimeError: config incomplete';
    assert.deepStrictEqual(extractErrors(raw).map(e => e.code), ['KeyError', 'RuntimeError']);
    assert.strictEqual(primaryError(raw)?.code, 'KeyError');
  });
});
