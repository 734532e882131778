// Which line of a failing run is the error, and which tool it is filed under, on real runs of tools the
// recall corpus has no matcher fixtures for (test/fixtures/tool-output/runs: the command line, the
// tool's version and the exit code of each). The rules are general, the runs are the proof:
//   - error/fatal lines over note, warning, help and indented context lines (issue 17, class 1);
//   - summary lines ("Found N errors", "2 errors, 0 warnings", "Tests: 2 failed") are never the error,
//     and a count is never filed under a tool it did not come from (class 2);
//   - the tool is the program the command ran, and a rule code is kept wherever the tool prints it.
import * as assert from 'assert';
import { errorFromOutput } from '../../../src/core/capture/commandErrors';
import { extractErrors, primaryError } from '../../../src/core/extract';
import { invocation, programTool } from '../../../src/core/extract/program';
import { failingTests } from '../../../src/core/extract/testRunner';
import { normaliseSignature } from '../../../src/core/signature';
import { runFixture } from '../../fixtures/tool-output';

function fromRun(name: string) {
  const r = runFixture(name);
  const e = errorFromOutput(r.text, r.exitCode, r.command);
  assert.ok(e, `${name}: no error from \`${r.command}\``);
  return e;
}

describe('extract: which line of a real run is the error', () => {
  it('go build: "X redeclared in this block", not the indented "other declaration of X" below it', () => {
    const e = fromRun('go-redeclared');
    assert.deepStrictEqual([e.tool, e.message, e.key], ['go', 'total redeclared in this block', 'go:-:<id> redeclared in this block']);
    const found = primaryError(runFixture('go-redeclared').text, { command: 'go build ./...' })!;
    assert.deepStrictEqual([found.file, found.line, found.column], ['main.go', 13, 6]);
    assert.strictEqual(extractErrors(runFixture('go-redeclared').text).filter(x => /other declaration/.test(x.message)).length, 0);
  });

  it('go vet prints the same error after its "vet: " prefix: the same signature as go build', () => {
    assert.strictEqual(fromRun('go-vet-redeclared').key, fromRun('go-redeclared').key);
  });

  it('go build with three errors: each is found, the first is the root', () => {
    const r = runFixture('go-undefined-unused');
    const all = extractErrors(r.text, { command: r.command }).map(x => x.message);
    assert.deepStrictEqual(all, ['imported and not used: "os"', 'count declared but not used', 'undefined: undefinedTax']);
  });

  it('go test: the failing test and what it reported, not the FAIL summary lines', () => {
    const e = fromRun('go-test-two-fail');
    // The first failing test and what it reported; the run's other failing test is named after it, so a fix
    // of that one while TestTotal still fails is seen (failingTests.test.ts).
    assert.strictEqual(e.message, 'Total() = 6, want 7\ntest: TestTotal\ntest: TestDiscount');
    assert.strictEqual(e.code, 'FAIL');
    assert.strictEqual(e.family, 'go:test');
    const all = extractErrors(runFixture('go-test-two-fail').text);
    assert.deepStrictEqual(all.map(x => x.message.split('\n')[1]), ['test: TestTotal', 'test: TestDiscount']);
  });

  it('go run: a panic is the runtime error, located at its goroutine\'s first frame, not "exit status 2"', () => {
    const e = fromRun('go-nil-map-panic');
    assert.deepStrictEqual([e.tool, e.code, e.message, e.family], ['go', 'panic', 'assignment to entry in nil map', 'go:runtime']);
    const found = primaryError(runFixture('go-nil-map-panic').text, { command: 'go run .' })!;
    assert.deepStrictEqual([found.file, found.line], ['main.go', 7]);
  });

  it('gcc under make in a 1,156-line build log: the one error among 230 warnings and their notes', () => {
    const r = runFixture('make-long-build-log');
    assert.ok(r.text.split('\n').length > 1000);
    const e = fromRun('make-long-build-log');
    assert.deepStrictEqual([e.tool, e.message], ['gcc', '‘undeclared_total’ undeclared (first use in this function)']);
    assert.ok(!extractErrors(r.text).some(x => !x.wrapper && /warning|note|each undeclared/.test(x.message)), 'a warning or note taken for an error');
  });

  it("make's own error keeps its location and is filed under make", () => {
    const e = fromRun('make-missing-separator');
    assert.deepStrictEqual([e.tool, e.message], ['make', 'missing separator (did you mean TAB instead of 8 spaces?)']);
  });

  it('pip: the subprocess\'s "invalid command" over pip\'s subprocess-exited-with-error and metadata-generation-failed', () => {
    const e = fromRun('pip-metadata-failed');
    assert.deepStrictEqual([e.tool, e.message], ['pip', "error: invalid command 'bdist_wheel'"]);
  });

  it('git merge: the CONFLICT line, not "Automatic merge failed"', () => {
    const e = fromRun('git-merge-conflict');
    assert.deepStrictEqual([e.tool, e.code, e.message], ['git', 'CONFLICT', 'Merge conflict in settings.env (content)']);
  });

  it('jest with two failing tests: the first test, not "Tests: 2 failed"', () => {
    const e = fromRun('jest-two-failing');
    assert.match(e.message, /^expect\(received\)\.toBe\(expected\)/);
    assert.match(e.message, /test: subtotal multiplies price by quantity/);
    assert.ok(!extractErrors(runFixture('jest-two-failing').text).some(x => /^Tests?:|Test Suites:|\d+ failed/.test(x.message)));
  });
});

describe('extract: the tool is what printed the output, and its rule code stays', () => {
  it("Biome's \"Found 1 error.\" is a count, never a tsc signature; its rule is the code", () => {
    const e = fromRun('biome-double-equals');
    assert.deepStrictEqual([e.tool, e.code], ['biome', 'lint/suspicious/noDoubleEquals']);
    assert.strictEqual(e.message, 'Using == may be unsafe if you are relying on type coercion.');
    // Without the command, the count alone is still nobody's tsc error.
    const counts = extractErrors('Checked 1 file in 45ms. No fixes applied.\nFound 1 error.\n');
    assert.deepStrictEqual(counts.map(x => [x.tool, !!x.wrapper]), [['generic', true]]);
  });

  it('mypy: filed under python with its [assignment] code, not under gcc for the "file:line: error:" shape', () => {
    const e = fromRun('mypy-incompatible');
    assert.deepStrictEqual([e.tool, e.code], ['python', 'assignment']);
    assert.strictEqual(e.message, 'Incompatible types in assignment (expression has type "Optional[int]", variable has type "int")');
    assert.notStrictEqual(primaryError(runFixture('mypy-incompatible').text)!.tool, 'gcc');
  });

  it('flake8: F401 is the code; pyright: the (reportX) rule of its continuation lines, not the "2 errors" count', () => {
    assert.deepStrictEqual([fromRun('flake8-unused-import').tool, fromRun('flake8-unused-import').code], ['flake8', 'F401']);
    const p = fromRun('pyright-inventory');
    assert.deepStrictEqual([p.tool, p.code, p.message], ['python', 'reportAssignmentType', 'Type "int | None" is not assignable to declared type "int"']);
  });

  it('the editor and the terminal name a tool alike: mypy in the editor and in a shell give one signature', () => {
    const term = fromRun('mypy-incompatible');
    const hinted = primaryError('Incompatible types in assignment (expression has type "Optional[int]", variable has type "int")', { source: 'mypy', code: 'assignment' })!;
    assert.deepStrictEqual([hinted.tool, hinted.code], [term.tool, term.code]);
  });

  it('reads the program through paths, versions, env, sudo, `python -m` and launchers', () => {
    const cases: [string, string | undefined][] = [
      ['.venv/bin/pip install pyyaml', 'pip'], ['python3.11 -m pip install requests', 'pip'], ['sudo -E apt-get install libpq-dev', 'apt-get'],
      ['CI=1 npx --yes eslint .', 'eslint'], ['uv run mypy src', 'mypy'], ['poetry run pytest -q', 'pytest'], ['pnpm dlx prisma generate', 'prisma'],
      ['/usr/local/bin/flake8 app.py', 'flake8'], ['bundle exec rspec', 'rspec'], ['node_modules/.bin/tsc -p .', 'tsc'],
    ];
    for (const [line, program] of cases) assert.strictEqual(invocation(line)?.program, program, line);
    // The printer is the program, unless the line only runs a script (its output is the script's).
    assert.strictEqual(programTool('.venv/bin/mypy app.py'), 'python');
    assert.strictEqual(programTool('npm run lint'), undefined);
    assert.strictEqual(programTool('make'), undefined);
    assert.strictEqual(programTool('cd api && go vet ./...'), 'go');
  });
});

// Real runs recorded on this machine (runs/README.md): the rules below are general (a panic's message
// under its head, a logger's level marker, a message that ends with where it happened, a head whose
// message is the indented paragraph below it, lines that only say a stage failed, help lines).
describe('extract: the error under a runner, a logger or a stage summary (real runs)', () => {
  const all = (name: string) => { const r = runFixture(name); return extractErrors(r.text, { command: r.command }); };

  it('cargo test: each failing test\'s panic, named for its test, not "error: test failed, to rerun pass `--lib`"', () => {
    const e = fromRun('cargo-test-two-fail');
    assert.deepStrictEqual(e.message.split('\n'), ['assertion `left == right` failed', 'test: tests::parses_hours', 'left: Some(120)', 'right: Some(7200)', 'test: tests::parses_minutes']);
    assert.strictEqual(e.tool, 'rustc', 'the program printed it, not cargo');
    assert.strictEqual(e.key, normaliseSignature(primaryError(runFixture('cargo-test-two-fail').text)!.message, 'rustc', 'panic').key, 'a pasted panic: the same signature');
    const found = all('cargo-test-two-fail');
    assert.deepStrictEqual(found.filter(x => !x.wrapper).map(x => [x.message.split('\n')[1], x.file, x.line]), [['test: tests::parses_hours', 'src/lib.rs', 23], ['test: tests::parses_minutes', 'src/lib.rs', 18]]);
    assert.ok(found.find(x => /to rerun pass/.test(x.message))?.wrapper, 'the closing line is a summary');
  });

  it('cargo run: a panic\'s message is the line below "thread \'main\' (id) panicked at file:line:col:"', () => {
    const r = runFixture('cargo-run-index-panic');
    const e = primaryError(r.text, { command: r.command })!;
    assert.deepStrictEqual([e.tool, e.code, e.message, e.file, e.line, e.column], ['rustc', 'panic', 'index out of bounds: the len is 3 but the index is 3', 'src/main.rs', 4, 21]);
    // The older one-line form names the same error.
    const old = primaryError("thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 3', src/main.rs:4:21\n", { command: 'cargo run' })!;
    assert.deepStrictEqual([old.message, old.file, old.line], [e.message, 'src/main.rs', 4]);
  });

  it('perl: "message at FILE line N." is a located error; "BEGIN failed--compilation aborted" only summarises it', () => {
    const e = fromRun('perl-cant-locate');
    assert.strictEqual(e.tool, 'perl');
    assert.match(e.message, /^Can't locate Text\/Slug\.pm in @INC/);
    const r = runFixture('perl-cant-locate');
    const found = primaryError(r.text, { command: r.command })!;
    assert.deepStrictEqual([found.file, found.line], ['bin/slugify.pl', 3]);
    assert.ok(all('perl-cant-locate').find(x => /BEGIN failed/.test(x.message))?.wrapper);
    const m = fromRun('perl-no-method');
    assert.deepStrictEqual([m.tool, m.message, m.line], ['perl', 'Can\'t locate object method "sum" via package "Cart"', 6]);
  });

  it('cmake: "CMake Error at CMakeLists.txt:4 (add_executable):" takes its message from the paragraph below; "Generate step failed" is a summary', () => {
    const e = fromRun('cmake-missing-source');
    assert.deepStrictEqual([e.tool, e.message, e.line], ['cmake', 'Cannot find source file: src/util.cpp', 4]);
    const found = all('cmake-missing-source');
    assert.deepStrictEqual(found.filter(x => !x.wrapper).map(x => x.message), ['Cannot find source file: src/util.cpp', 'No SOURCES given to target: app']);
    assert.ok(found.find(x => /Generate step failed/.test(x.message))?.wrapper);
  });

  it("mvn compile: the compiler's error under Maven's [ERROR] marker, not the heading, the goal that failed or the help lines", () => {
    const r = runFixture('mvn-compile-error');
    const e = primaryError(r.text, { command: r.command })!;
    assert.deepStrictEqual([e.tool, e.message, e.file, e.line, e.column], ['mvn', 'incompatible types: java.lang.String cannot be converted to int', '/workspace/src/main/java/greet/Greeter.java', 5, 13]);
    const found = all('mvn-compile-error');
    assert.ok(found.filter(x => /COMPILATION ERROR|Failed to execute goal/.test(x.message)).every(x => x.wrapper), 'summaries');
    assert.deepStrictEqual(found.filter(x => /Help 1|Re-run Maven|full stack trace|For more information/.test(x.message)), [], 'help is never an error');
  });

  it('mvn test: the assertion Surefire reports, with its test and the test\'s own frame, not "There are test failures"', () => {
    const r = runFixture('mvn-surefire-one-fail');
    const e = primaryError(r.text, { command: r.command })!;
    assert.deepStrictEqual([e.tool, e.code, e.file, e.line], ['java', 'AssertionFailedError', 'GreeterTest.java', 10]);
    assert.deepStrictEqual(e.message.split('\n'), ['org.opentest4j.AssertionFailedError: expected: <Hello, Ada> but was: <Hello Ada>', 'test: GreeterTest.greetsWithComma']);
    assert.ok(all('mvn-surefire-one-fail').filter(x => /Tests run: 1|There are test failures/.test(x.message)).every(x => x.wrapper));
  });

  it('a logged [INFO] line is never an error, a logged [ERROR] line is one only when nothing better is', () => {
    assert.strictEqual(primaryError('[INFO] BUILD FAILURE\n[INFO] Total time: 1 s\n'), undefined);
    const e = primaryError('[INFO] Scanning\n[ERROR] Could not resolve dependencies for project greet: artifact x:y:1 not found\n[ERROR] -> [Help 1]\n', { command: 'mvn -o test' })!;
    assert.deepStrictEqual([e.tool, e.message], ['mvn', 'Could not resolve dependencies for project greet: artifact x:y:1 not found']);
  });

  it('yarn: "error Command "build" not found." (a severity word without a colon), not the "info Visit …" line after it', () => {
    // As yarn 1.22 printed it in the train trace yarn-missing-script.
    const e = errorFromOutput('yarn run v1.22.22\nerror Command "build" not found.\ninfo Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.\n', 1, 'yarn build')!;
    assert.strictEqual(e.message, 'error Command "build" not found.');
  });
});

describe('extract: a lint named only in the notes below its error (real run)', () => {
  it('cargo clippy -- -D warnings: each error keeps the lint its notes name, for the lesson, not for the signature', () => {
    const r = runFixture('clippy-len-zero');
    const found = extractErrors(r.text, { command: r.command }).filter(x => !x.wrapper);
    assert.deepStrictEqual(found.map(x => [x.message, x.rule, x.code]), [
      ['unused variable: `unused`', 'unused_variables', undefined],
      ['length comparison to zero', 'clippy::len_zero', undefined],
    ]);
    const e = fromRun('clippy-len-zero');
    assert.strictEqual(e.code, 'unused_variables', 'the lesson says which lint');
    // The line a user pastes ("error: unused variable: `unused`") carries no lint: the same signature.
    assert.strictEqual(e.key, errorFromOutput('error: unused variable: `unused`\n --> src/main.rs:2:9\n', 1, r.command)!.key);
  });

  it("a terminal error's file is given under the command's folder, never outside it", () => {
    const e = errorFromOutput('src/quota.c:2:10: error: ‘LIMIT’ undeclared (first use in this function)\n', 2, 'make', '/workspace')!;
    assert.strictEqual(e.file, 'src/quota.c');
    assert.strictEqual(errorFromOutput('/workspace/src/A.java:3: error: x\n', 1, 'javac src/A.java', '/workspace')!.file, 'src/A.java');
    assert.strictEqual(errorFromOutput('/usr/include/stdio.h:3:1: error: x\n', 1, 'gcc a.c', '/workspace')!.file, undefined);
  });
});

describe('extract: unittest (real run)', () => {
  it('names its failing tests as Class.method; "FAILED (failures=1, errors=1)" is a tally, never an error', () => {
    const r = runFixture('unittest-fail-error');
    const e = fromRun('unittest-fail-error');
    assert.deepStrictEqual(e.message.split('\n'), ["AttributeError: 'NoneType' object has no attribute 'replace'", 'test: SlugTest.test_raises', 'test: SlugTest.test_dashes']);
    const tally = extractErrors(r.text, { command: r.command }).find(x => /^FAILED \(/.test(x.message));
    assert.ok(tally?.wrapper, 'the tally is a summary');
    // Before Python 3.11 the parenthesis ends with the class: the same name.
    assert.deepStrictEqual(failingTests(['FAIL: test_dashes (test_text.SlugTest)']), ['SlugTest.test_dashes']);
  });
});
