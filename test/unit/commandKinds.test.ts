import * as assert from 'assert';
import { commandSegments, failingSegment, isReadOnlyCommand, relatedToAttempt, testRun, testsCover } from '../../src/core/capture/commandKinds';
import { errorFromOutput } from '../../src/core/capture/commandErrors';
import { commandOutput, outputExcerpt, withoutProgress } from '../../src/core/capture/commandOutput';

describe('commandKinds: what a shell line is', () => {
  it('splits a list at ; && || | & outside quotes and groups, not at redirections', () => {
    assert.deepStrictEqual(commandSegments('echo $PATH; which tsc').map(s => [s.op, s.text]), [['', 'echo $PATH'], [';', 'which tsc']]);
    assert.deepStrictEqual(commandSegments(`cd app && npm test 2>&1 | tee "a;b.log" || echo 'x && y'`).map(s => s.text), ['cd app', 'npm test 2>&1', 'tee "a;b.log"', "echo 'x && y'"]);
    assert.deepStrictEqual(commandSegments('make &> build.log').map(s => s.text), ['make &> build.log']);
    assert.deepStrictEqual(commandSegments('echo $(date; pwd)').map(s => s.text), ['echo $(date; pwd)']);
  });

  it('the command a list failed on is its last part', () => {
    assert.strictEqual(failingSegment('echo $PATH; which tsc'), 'which tsc');
    assert.strictEqual(failingSegment('cd app && npm test'), 'npm test');
    assert.strictEqual(failingSegment('npm run build'), 'npm run build');
  });

  it('read-only commands: looking, never changing', () => {
    for (const line of ['echo $PATH; which tsc', 'ls -la dist', 'cat package.json', 'pwd', 'env', 'printenv PATH', 'type tsc', 'command -v tsc', 'git status', 'git log --oneline -3', 'git diff HEAD~1', 'git branch', 'head -5 a.txt | grep x', 'npm ls typescript', 'node --version', 'find . -name "*.ts"', "sed -n '1,5p' a.txt", 'cd src']) {
      assert.ok(isReadOnlyCommand(line), line);
    }
    for (const line of ['npm run build', 'echo x > out.txt', 'echo x >> out.txt', 'cat a | tee b', 'git commit -m x', 'git branch -D old', 'git checkout main', 'find . -name "*.o" -delete', "sed -i 's/a/b/' f", 'rm -rf dist', 'which tsc && tsc -p .', 'npm install']) {
      assert.ok(!isReadOnlyCommand(line), line);
    }
    assert.ok(isReadOnlyCommand('ls > /dev/null 2>&1'), 'a redirection to /dev/null writes nothing');
  });

  it('test runs: the suite and what it is limited to', () => {
    const cases: [string, string | undefined, string[]][] = [
      ['npm test', 'js', []], ['npm t', 'js', []], ['npm run test', 'js', []], ['npm test -- cart', 'js', ['cart']],
      ['yarn test src/cart.test.js', 'js', ['src/cart.test.js']], ['npx jest src/cart.test.js', 'js', ['src/cart.test.js']],
      ['npx jest -t "adds tax"', 'js', ['adds tax']], ['vitest run src/a.test.ts', 'js', ['src/a.test.ts']], ['npx vitest', 'js', []],
      ['node_modules/.bin/jest --ci', 'js', []], ['node --test test/', 'js', ['test/']], ['pytest', 'python', []],
      ['python -m pytest tests/test_cart.py -q', 'python', ['tests/test_cart.py']], ['pytest -k total', 'python', ['total']],
      ['uv run pytest tests', 'python', ['tests']], ['cargo test parse', 'cargo', ['parse']], ['go test ./...', 'go', []],
      ['cd app && npm test', 'js', []], ['npm run build', undefined, []], ['node app.js', undefined, []], ['npm run test:e2e', undefined, []],
    ];
    for (const [line, suite, filters] of cases) {
      const run = testRun(line);
      assert.strictEqual(run?.suite, suite, line);
      if (run) assert.deepStrictEqual(run.filters, filters, line);
    }
  });

  it('a limited run covers a failure when one of its paths or names is in it', () => {
    const failure = 'FAIL src/cart.test.js\n  ● cart › adds tax\n tests/test_cart.py::test_total FAILED';
    assert.ok(testsCover({ suite: 'js', filters: [] }, failure));
    assert.ok(testsCover({ suite: 'js', filters: ['src/cart.test.js'] }, failure));
    assert.ok(testsCover({ suite: 'js', filters: ['cart'] }, failure));
    assert.ok(testsCover({ suite: 'python', filters: ['tests/test_cart.py::test_total'] }, failure));
    assert.ok(!testsCover({ suite: 'js', filters: ['src/other.test.js'] }, failure));
  });

  it('a later command belongs to a terminal attempt when it installs, redoes the work, runs its tests or names its files', () => {
    const attempt = { source: 'terminal' as const, command: { line: 'npm run build', output: "src/config.ts(11,3): error TS2322: Type 'string' is not assignable to type 'number'." }, error: { message: "Type 'string' is not assignable to type 'number'.", family: 'tsc:type' }, files: ['src/config.ts'] };
    for (const line of ['npm install --save-dev typescript', 'npm i -D typescript', 'npm run build -- --pretty', 'cat src/config.ts', "echo '{}' > tsconfig.json"]) {
      assert.ok(relatedToAttempt(attempt, line), line);
    }
    for (const line of ['git commit -m wip', 'docker ps', 'ls', 'echo hello', 'curl -s localhost:8080/health']) {
      assert.ok(!relatedToAttempt(attempt, line), line);
    }
    const tests = { source: 'terminal' as const, command: { line: 'npm test' }, files: [] };
    assert.ok(relatedToAttempt(tests, 'npx jest src/cart.test.js'), 'the same suite');
  });
});

describe('command output: what capture keeps of it', () => {
  it('drops spinner frames and progress redraws, keeps the error', () => {
    // npm's spinner as the terminal delivers it once each \r redraw is its own line (core/text.ts sanitizeText).
    const raw = ['⠙', '⠹', '⠸', '> demo@1.0.0 build', '> tsc -p .', '', '⠼ idealTree: timing', '⠼ idealTree: timing', "src/config.ts(11,3): error TS2322: Type 'string' is not assignable to type 'number'.", '⠴'].join('\n');
    assert.strictEqual(withoutProgress(raw), ['> demo@1.0.0 build', '> tsc -p .', '', 'idealTree: timing', "src/config.ts(11,3): error TS2322: Type 'string' is not assignable to type 'number'."].join('\n'));
    const bar = ['Downloading  10% [##        ]', 'Downloading  55% [#####     ]', 'Downloading 100% [##########]', 'Done in 3.2s'].join('\n');
    assert.strictEqual(withoutProgress(bar), 'Downloading 100% [##########]\nDone in 3.2s');
    const plain = 'line 1\nline 2\n  - item\n| a | b |';
    assert.strictEqual(withoutProgress(plain), plain, 'ordinary output is left alone');
  });

  it('the excerpt keeps the head and the tail of a long output (live and replay alike)', () => {
    const long = ['> demo@1.0.0 test', ...Array.from({ length: 400 }, (_, i) => `  ok ${i}`), 'Error: the real failure at the end'].join('\n');
    const excerpt = outputExcerpt(commandOutput(long));
    assert.ok(excerpt.startsWith('> demo@1.0.0 test'), 'head kept');
    assert.ok(excerpt.endsWith('Error: the real failure at the end'), 'tail kept');
    assert.ok(Buffer.byteLength(excerpt) <= 1500);
  });

  it("a failed list's fallback error names the command that failed", () => {
    assert.match(errorFromOutput('', 1, 'echo $PATH; which tsc')!.message, /^which exited with code 1/);
    assert.match(errorFromOutput('', 2, 'FOO=1 make all')!.message, /^make exited with code 2/);
  });
});
