// What a lesson says on sessions made of real tool runs (test/fixtures/tool-output/runs): the command
// lines, outputs and exit codes as recorded, fed through the tracker the way the terminal feeds it.
// One rule per failure class of issue 17, on tools the trace corpus did not teach:
//   3. an install through a path is an install; 4. every error one fix cleared is kept and found;
//   5. two failing tests are two problems; 6. a docs-only or comment-only change is never the fix;
//   and a fix is what changed the outcome (the error turned into another one).
import * as assert from 'assert';
import { buildEpisode, buildLesson, lessonTemplate, type EpisodeMaterial } from '../../src/core/episodeSummary';
import { EpisodeTracker, type TrackedEpisode } from '../../src/core/episodeTracker';
import { CommandErrors } from '../../src/core/capture/commandErrors';
import { lineDiff, type FileDiff } from '../../src/core/capture/diff';
import { sameProblem, stillFailing } from '../../src/core/capture/sameProblem';
import { extractErrors } from '../../src/core/extract';
import { normaliseSignature } from '../../src/core/signature';
import { memorySignatures } from '../../src/core/memoryText';
import { signatureOf } from '../../src/core/signature';
import { isDuplicateLesson } from '../../src/core/trust';
import { runFixture } from '../fixtures/tool-output';

const owner = { scope: 'workspace' as const, workspace: 'fixture', agent: 'user' };

type Step = { run: string; as?: string } | { edit: string };

/** The tracker's ended episodes for recorded runs typed in order (`as` types the run under another command line). */
function session(steps: Step[]): TrackedEpisode[] {
  let n = 0;
  const t = new EpisodeTracker({ newId: () => `ep${++n}` });
  const errors = new CommandErrors();
  const ended: TrackedEpisode[] = [];
  let now = 0;
  for (const s of steps) {
    now += 1000;
    const fx = 'edit' in s ? t.edited(s.edit, now) : (() => {
      const r = runFixture(s.run);
      const line = s.as ?? r.command;
      const error = errors.fromOutput(r.text, r.exitCode, line);
      return t.commandEnded({ id: `c${now}`, line, exitCode: r.exitCode, error, output: r.text }, now);
    })();
    for (const e of fx) if (e.type === 'ended') ended.push(e.episode);
  }
  return ended;
}

function material(t: TrackedEpisode, diffs: FileDiff[] = []): EpisodeMaterial {
  return { tracked: t, diffs, scope: ['**'], domain: 'terminal', owner, now: 100_000 };
}

function lessonOf(t: TrackedEpisode, diffs: FileDiff[] = []) {
  const m = material(t, diffs);
  return buildLesson(m, buildEpisode(m, t.id), `l-${t.id}`)!;
}

describe('lesson rules on real runs', () => {
  it('class 3: `.venv/bin/pip install` is the fix of a ModuleNotFoundError, not an unexplained lesson', () => {
    const [ep] = session([{ run: 'venv-module-not-found' }, { run: 'venv-pip-install-local' }, { run: 'venv-app-pass' }]);
    assert.strictEqual(ep.outcome, 'success');
    const lesson = lessonOf(ep);
    assert.strictEqual(lesson.unexplained, undefined);
    assert.deepStrictEqual(lesson.commands, ['.venv/bin/pip install --no-index --no-build-isolation ./localpkg']);
    assert.strictEqual(lesson.fixApproach, 'Ran `.venv/bin/pip install --no-index --no-build-isolation ./localpkg`.');
  });

  it('class 4: both errors @types/node cleared are in the lesson, and each is a signature it is found by', () => {
    const [ep] = session([{ run: 'ts3-build-node-types' }, { run: 'ts3-install-types-node' }, { run: 'ts3-build-pass' }]);
    const lesson = lessonOf(ep);
    assert.strictEqual(lesson.fixApproach, 'Ran `npm install --save-dev @types/node --no-audit --no-fund`.');
    assert.match(lesson.errorText, /^Cannot find module 'fs' or its corresponding type declarations\./);
    assert.match(lesson.errorText, /\nalso: Cannot find name 'process'\. Do you need to install type definitions for node\?/);
    const processKey = signatureOf("src/env.ts(3,28): error TS2580: Cannot find name 'process'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node`.")!.key;
    const fsKey = signatureOf("src/env.ts(1,30): error TS2307: Cannot find module 'fs' or its corresponding type declarations.")!.key;
    assert.deepStrictEqual(memorySignatures(lesson).sort(), [fsKey, processKey].sort());
  });

  it('class 5: two failing jest tests are two problems; their lessons, fixed by two edits, stay apart', () => {
    const first = runFixture('jest-two-failing');
    const left = runFixture('jest-one-left');
    const errors = new CommandErrors();
    const a = errors.fromOutput(first.text, 1, first.command)!;
    const b = errors.fromOutput(left.text, 1, 'npx jest --ci')!;
    assert.strictEqual(a.key, b.key, 'one assertion signature');
    assert.ok(!sameProblem(a, b), 'but another test: another problem');
    assert.ok(sameProblem(a, errors.fromOutput(first.text, 1, first.command)!));
    // How the tracker ends them when the first turns into the second (changedTo), each with its own edit.
    const test0 = "const { subtotal, shipping } = require('./cart');\ntest('subtotal multiplies price by quantity', () => {\n  expect(subtotal([{ price: 2, qty: 3 }])).toBe(7);\n});\ntest('shipping is free from 50', () => {\n  expect(shipping(50)).toBe(0);\n});\n";
    const test1 = test0.replace('toBe(7)', 'toBe(6)');
    const cart0 = 'function shipping(total) { return total > 50 ? 0 : 5; }\n';
    const cart1 = cart0.replace('total > 50', 'total >= 50');
    const base = { source: 'terminal' as const, command: { id: 'c1', line: 'npx jest --ci', exitCode: 1, output: first.text, normalised: 'npx jest --ci' }, startedAt: 0, lastActivity: 0, endedAt: 1, recurrences: 0, sourceIds: [], outcome: 'success' as const };
    const ep1: TrackedEpisode = { ...base, id: 'ep1', key: 't|npx jest --ci', error: a, changedTo: b, nextEpisodeId: 'ep2', files: ['cart.test.js'], steps: [{ action: 'run npx jest --ci', result: 'exit 1' }, { action: 'edit cart.test.js', result: '1 change' }] };
    const ep2: TrackedEpisode = { ...base, id: 'ep2', key: 't|npx jest --ci', error: b, files: ['cart.js'], steps: [{ action: 'edit cart.js', result: '1 change' }, { action: 'run npx jest --ci', result: 'passed' }] };
    const l1 = lessonOf(ep1, [lineDiff('cart.test.js', test0, test1)!]);
    const l2 = lessonOf(ep2, [lineDiff('cart.js', cart0, cart1)!]);
    assert.strictEqual(l1.errorSignature, l2.errorSignature);
    assert.notStrictEqual(l1.fixKey, l2.fixKey);
    assert.strictEqual(isDuplicateLesson(l1, l2), false);
    assert.match(l1.fixApproach, /^Changed `expect\(subtotal\(\[\{ price: 2, qty: 3 \}\]\)\)\.toBe\(7\);` to `.*toBe\(6\);` in cart\.test\.js/);
    assert.match(l2.fixApproach, /^Changed `function shipping\(total\) \{ return total > 50 \? 0 : 5; \}` to .* in cart\.js/);
  });

  it('class 5, in the tracker: a run where the first failing test passed and the other still fails ends the first episode', () => {
    // jest-one-left: "subtotal …" passes now, "shipping is free from 50" still fails (same signature).
    const t = new EpisodeTracker({ newId: (() => { let n = 0; return () => `ep${++n}`; })() });
    const errors = new CommandErrors();
    const run = (name: string, now: number) => {
      const r = runFixture(name);
      return t.commandEnded({ id: name, line: 'npx jest --ci', exitCode: r.exitCode, error: errors.fromOutput(r.text, r.exitCode, 'npx jest --ci'), output: r.text }, now);
    };
    run('jest-two-failing', 1000);
    t.edited('cart.test.js', 2000);
    const fx = run('jest-one-left', 3000);
    assert.deepStrictEqual(fx.map(e => e.type), ['ended', 'opened']);
    const [first] = fx.filter(e => e.type === 'ended').map(e => (e as { episode: TrackedEpisode }).episode);
    const [second] = t.open();
    assert.strictEqual(first.outcome, 'success');
    assert.strictEqual(first.nextEpisodeId, second.id);
    assert.match(first.error!.message, /test: subtotal multiplies price by quantity/);
    assert.match(second.error!.message, /test: shipping is free from 50/);
    // Failing again with both tests (the first is still there, wherever the root error moved) is a recurrence.
    const again = run('jest-two-failing', 4000);
    assert.deepStrictEqual(again.map(e => e.type), ['recurred']);
  });

  it('class 5, in the tracker: the same failures printed again are one problem still failing, not a change', () => {
    const errors = new CommandErrors();
    const r = runFixture('go-test-two-fail');
    const a = errors.fromOutput(r.text, r.exitCode, r.command)!;
    // The second failure of the same output, as if it were the root error of a later run.
    const b = extractErrors(r.text, { command: r.command }).map(e => ({ key: normaliseSignature(e.message, e.tool, e.code).key, message: e.message })).find(e => !sameProblem(a, e))!;
    assert.ok(b, 'go test printed two different failures');
    assert.ok(stillFailing(a, b, r.text, r.command), 'TestTotal is still in the output');
    assert.ok(!stillFailing(a, b, r.text.replace(/--- FAIL: TestTotal[\s\S]*?(?=--- FAIL)/, ''), r.command), 'without it, the error changed');
  });

  it('class 6: a flaky test passing after a README edit is unexplained; the README is never the fix', () => {
    const [ep] = session([{ run: 'jest-timeout' }, { edit: 'README.md' }, { run: 'ts2-build-pass', as: 'npx jest --ci slow' }]);
    assert.strictEqual(ep.outcome, 'success');
    const readme = lineDiff('README.md', '# cart\n', '# cart\n\nRun `npm test`.\n')!;
    const lesson = lessonOf(ep, [readme]);
    assert.strictEqual(lesson.unexplained, true);
    assert.strictEqual(lesson.fixApproach, 'Unexplained: no fix was observed.');
    assert.ok(!lesson.change, 'no change is kept as the fix');
    assert.match(lesson.rootCause, /with only README\.md changed \(documentation or comments, which cannot fix it\)/);
  });

  it('class 6: a comment-only edit is never the fix; a directive in a comment is', () => {
    const src0 = "test('fetches the price list', async () => {\n  await load();\n});\n";
    const comment = lineDiff('slow.test.js', src0, src0.replace('  await load();', '  // flaky on CI, see #12\n  await load();'))!;
    const [ep] = session([{ run: 'jest-timeout' }, { edit: 'slow.test.js' }, { run: 'ts2-build-pass', as: 'npx jest --ci slow' }]);
    assert.strictEqual(lessonOf(ep, [comment]).unexplained, true);
    const ts0 = "import { readFileSync } from 'fs';\n";
    const directive = lineDiff('src/env.ts', ts0, '/// <reference types="node" />\n' + ts0)!;
    const [tsc] = session([{ run: 'ts3-build-node-types' }, { edit: 'src/env.ts' }, { run: 'ts3-build-pass' }]);
    const fixed = lessonOf(tsc, [directive]);
    assert.strictEqual(fixed.unexplained, undefined);
    assert.match(fixed.fixApproach, /^Added `\/\/\/ <reference types="node" \/>` in src\/env\.ts/);
  });

  it('a fix is what changed the outcome: `npm install --save-dev typescript` resolved "tsc: not found", the build then failed with another error', () => {
    const ended = session([{ run: 'ts2-build-tsc-not-found' }, { run: 'ts2-install-typescript' }, { run: 'ts2-build-node-types' }]);
    const first = ended[0];
    const next = runFixture('ts2-build-node-types');
    const changedTo = new CommandErrors().fromOutput(next.text, next.exitCode, next.command)!;
    // As the tracker ends it (issue 17: the error changed, so the step before it resolved the first).
    const ep: TrackedEpisode = { ...first, outcome: 'success', changedTo, nextEpisodeId: 'ep2', resolution: 'the error changed' };
    const text = lessonTemplate(material(ep));
    assert.strictEqual(text.fixApproach, "Ran `npm install --save-dev typescript@7.0.2 --no-audit --no-fund`; `npm run build` then failed with TS2591 \"Cannot find name 'node:fs'. Do you need to install type definitions for node? Try `npm i --save-dev @types/node` and then add 'node' to the types field in your…\" instead.");
    assert.ok(!/did not fix/.test(text.fixApproach + text.rootCause));
    assert.match(text.rootCause, /^`npm run build` failed with command-not-found "tsc: not found"; it cleared after Engram saw: ran `npm install/);
    const m = material(ep);
    const episode = buildEpisode(m, ep.id, undefined, text);
    assert.strictEqual(episode.nextEpisodeId, 'ep2');
    assert.strictEqual(episode.fixAction, text.fixApproach);
  });
});
