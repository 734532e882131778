// The failing tests a run names, read as test details of its error whatever runner printed them, so two
// runs failing different tests of one file are two problems (issue 17, class 5). The outputs are the real
// runs recorded in the train traces cargo-test-two-tests-two-fixes and maven-surefire-two-tests.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';
import { errorFromOutput } from '../../src/core/capture/commandErrors';
import { fixedPart, stillFailing } from '../../src/core/capture/sameProblem';
import { failingTests } from '../../src/core/extract/testRunner';

function runs(trace: string): { command: string; output: string; exitCode: number }[] {
  const file = join(process.cwd(), 'test/fixtures/traces', `${trace}.jsonl`);
  const events = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
  return events.filter(e => typeof e.output === 'string' && typeof e.exitCode === 'number');
}

describe('failing tests: named from any runner', () => {
  it("reads cargo's libtest lines (test x ... FAILED, ---- x stdout ----)", () => {
    const [first, second] = runs('cargo-test-two-tests-two-fixes');
    assert.deepStrictEqual(failingTests(first.output.split('\n')), ['tests::parses_hours', 'tests::parses_minutes']);
    assert.deepStrictEqual(failingTests(second.output.split('\n')), ['tests::parses_hours']);
  });

  it("reads surefire's heads and summary as Class.method, with or without the package", () => {
    const [first, second] = runs('maven-surefire-two-tests');
    assert.deepStrictEqual(failingTests(first.output.split('\n')), ['PriceTest.appliesDiscount', 'PriceTest.addsTwentyPercentTax']);
    assert.deepStrictEqual(failingTests(second.output.split('\n')), ['PriceTest.addsTwentyPercentTax']);
    assert.deepStrictEqual(failingTests(['[ERROR]   testTotal(shop.CartTest)  Time elapsed: 0.01 s  <<< FAILURE!']), ['CartTest.testTotal'], 'JUnit 4 style');
  });

  it('names nothing in a passing run', () => {
    for (const trace of ['cargo-test-two-tests-two-fixes', 'maven-surefire-two-tests']) {
      const pass = runs(trace).find(r => r.exitCode === 0);
      assert.ok(pass);
      assert.deepStrictEqual(failingTests(pass.output.split('\n')), []);
    }
  });
});

describe('failing tests: one fixed, another still failing', () => {
  for (const trace of ['cargo-test-two-tests-two-fixes', 'maven-surefire-two-tests']) {
    it(`${trace}: the run's summary error names its tests, and a test that passes since ended the problem`, () => {
      const [first, second] = runs(trace);
      const a = errorFromOutput(first.output, first.exitCode, first.command);
      const b = errorFromOutput(second.output, second.exitCode, second.command);
      assert.ok(a && b);
      assert.strictEqual(a.key, b.key, 'one signature: the summary line is the same');
      assert.match(a.message, /\ntest: /);
      assert.strictEqual(stillFailing(a, b, second.output, second.command), false);
      assert.strictEqual(stillFailing(b, b, second.output, second.command), true, 'the same failing test is still failing');
      assert.strictEqual(stillFailing(a, a, first.output, first.command), true);
      // The episode that ends is about the test that passes now; the one still failing is the next's.
      const fixed = fixedPart(a, b);
      const still = b.message.match(/\ntest: (.+)/)![1];
      assert.ok(!fixed.message.includes(`test: ${still}`), fixed.message);
      assert.match(fixed.message, /\ntest: /);
      assert.strictEqual(fixedPart(b, b), b, 'nothing passed: the error as it was');
    });
  }

  it("a message that names its own test (go) keeps it first; the run's other failing tests follow", () => {
    const out = '--- FAIL: TestSlug (0.00s)\n    strings_test.go:7: Slug = "a b", want "a-b"\n--- FAIL: TestTitle (0.00s)\nFAIL\n';
    const e = errorFromOutput(out, 1, 'go test ./...');
    assert.ok(e);
    assert.deepStrictEqual(e.message.split('\n').filter(l => l.startsWith('test: ')), ['test: TestSlug', 'test: TestTitle']);
    // TestTitle fixed while TestSlug still fails: the fix of TestTitle is seen, not hidden behind TestSlug.
    const next = errorFromOutput(out.replace('--- FAIL: TestTitle (0.00s)\n', ''), 1, 'go test ./...');
    assert.ok(next);
    assert.strictEqual(stillFailing(e, next, out, 'go test ./...'), false);
    assert.deepStrictEqual(fixedPart(e, next).message.split('\n'), ['Slug = "a b", want "a-b"', 'test: TestTitle']);
  });

  it("the fixed test's lesson keeps none of the still-failing test's detail (cargo's left/right)", () => {
    const [first, second] = runs('cargo-test-two-tests-two-fixes');
    const a = errorFromOutput(first.output, first.exitCode, first.command)!;
    const b = errorFromOutput(second.output, second.exitCode, second.command)!;
    assert.strictEqual(a.message.split('\n')[0], 'assertion `left == right` failed', 'the panic, not "error: test failed, to rerun pass `--lib`"');
    assert.deepStrictEqual(fixedPart(a, b).message.split('\n'), ['assertion `left == right` failed', 'test: tests::parses_minutes']);
  });
});
