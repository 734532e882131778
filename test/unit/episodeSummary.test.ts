import * as assert from 'assert';
import { buildEpisode, buildLesson, lessonTemplate, summaryTemplate, type EpisodeMaterial } from '../../src/core/episodeSummary';
import { EpisodeTracker, type TrackedEpisode } from '../../src/core/episodeTracker';
import { lineDiff, excerptAround, firstChangedLine } from '../../src/core/capture/diff';
import { Finalizer, type FinalizeJob, type FinalizerDeps } from '../../src/vscode/capture/finalize';
import { OutcomeLedger } from '../../src/core/capture/outcomeLedger';
import type { Memory } from '../../src/core/types';
import type { MemoryStore } from '../../src/store/index';

const owner = { scope: 'workspace' as const, workspace: 'fixture', agent: 'user' };

function diagEpisode(): TrackedEpisode {
  const t = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => 'ep1' });
  t.diagnostics('src/a.ts', [{ key: 'tsc:TS2322:type <id> is not assignable to type <id>', family: 'tsc:type', message: "Type 'number' is not assignable to type 'string'.", code: 'TS2322', tool: 'tsc', line: 4 }], 0, { fileOpen: true, serverAlive: true });
  t.tick(1000);
  t.edited('src/a.ts', 2000);
  t.diagnostics('src/a.ts', [], 62_000, { fileOpen: true, serverAlive: true });
  const ended = t.tick(62_500).find(e => e.type === 'ended');
  assert.ok(ended && ended.type === 'ended');
  return ended.episode;
}

const BEFORE = 'export function label(n: number): string {\n  const a = 1;\n  const b = 2;\n  const text: string = n;\n  return text;\n}\n';
const AFTER = BEFORE.replace('const text: string = n;', 'const text: string = String(n);');

function material(tracked: TrackedEpisode, diffs = [lineDiff('src/a.ts', BEFORE, AFTER)!]): EpisodeMaterial {
  return { tracked, diffs, codeBefore: excerptAround(BEFORE, 3), codeAfter: excerptAround(AFTER, 3), scope: ['src/**'], domain: 'typescript', owner, now: 100_000 };
}

describe('episodeSummary', () => {
  it('diffs only the changed line, with context, and names the first removed and added lines', () => {
    const d = lineDiff('src/a.ts', BEFORE, AFTER)!;
    assert.strictEqual(d.added, 1);
    assert.strictEqual(d.removed, 1);
    assert.strictEqual(d.firstRemoved, '  const text: string = n;');
    assert.strictEqual(d.firstAdded, '  const text: string = String(n);');
    assert.ok(d.diff.includes('-  const text: string = n;\n+  const text: string = String(n);'), d.diff);
    assert.ok(d.diff.includes('   const b = 2;'), 'context line missing');
    assert.ok(!d.diff.includes('export function'), 'more context than needed');
    assert.strictEqual(lineDiff('x', BEFORE, BEFORE), undefined);
    assert.strictEqual(firstChangedLine(BEFORE, AFTER), 3);
  });

  it('bounds a huge diff', () => {
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const d = lineDiff('big.txt', '', big, 2000)!;
    assert.ok(d.diff.length < 2300, `diff is ${d.diff.length} chars`);
    assert.strictEqual(d.added, 5000);
  });

  it('writes a success episode and a lesson from what changed', () => {
    const tracked = diagEpisode();
    const m = material(tracked);
    const ep = buildEpisode(m, tracked.id);
    assert.strictEqual(ep.outcome, 'success');
    assert.strictEqual(ep.errorSignature, 'tsc:TS2322:type <id> is not assignable to type <id>');
    assert.strictEqual(ep.startedAt, 0);
    assert.strictEqual(ep.duration, 62_500);
    assert.deepStrictEqual(ep.files, ['src/a.ts']);
    assert.match(ep.summary, /^Fixed TS2322 in src\/a\.ts:5: Type 'number' is not assignable to type 'string'\. in 1m 3s; changed src\/a\.ts \(\+1 −1\)\.$/);
    const edit = ep.steps.find(s => s.action === 'edit src/a.ts');
    assert.ok(edit?.detail?.includes('+  const text: string = String(n);'), 'the edit step carries the diff');
    const lesson = buildLesson(m, ep, 'l1')!;
    assert.strictEqual(lesson.errorSignature, ep.errorSignature);
    assert.strictEqual(lesson.errorCategory, 'tsc:type');
    assert.deepStrictEqual(lesson.evidence, [tracked.id]);
    assert.deepStrictEqual(lesson.scope, ['src/**']);
    assert.strictEqual(lesson.fixApproach, 'Changed `const text: string = n;` to `const text: string = String(n);` in src/a.ts (line 4).');
    assert.strictEqual(lesson.rootCause, `TS2322 "Type 'number' is not assignable to type 'string'." at src/a.ts:5; it cleared after Engram saw: changed \`const text: string = n;\` to \`const text: string = String(n);\` in src/a.ts (line 4).`);
    assert.strictEqual(lesson.author, 'template');
    assert.ok(lesson.change?.includes('+  const text: string = String(n);'), lesson.change);
    assert.strictEqual(lesson.unexplained, undefined);
  });

  it('an abandoned episode is stored without a lesson', () => {
    const t = new EpisodeTracker({ newId: () => 'ep2' });
    t.commandEnded({ id: 'r1', line: 'npm test', exitCode: 1, error: { key: 'k', family: 'f', message: 'boom', tool: 'node' } }, 0);
    const [fx] = t.topicChange(1000, 'workspace folders changed');
    assert.ok(fx.type === 'ended');
    const m = material(fx.episode, []);
    const ep = buildEpisode(m, 'ep2');
    assert.strictEqual(ep.outcome, 'abandoned');
    assert.deepStrictEqual(ep.lessonsLearned, []);
    assert.strictEqual(buildLesson(m, ep, 'l2'), undefined);
    assert.match(summaryTemplate(m), /^Left `npm test` failed \(exit 1\): boom after 1s \(workspace folders changed\)\.$/);
  });

  it('a terminal fix names the command and the files changed in between; a failure keeps the user note', () => {
    const t = new EpisodeTracker({ newId: () => 'ep3' });
    t.commandEnded({ id: 'r1', line: 'node scripts/check.js', exitCode: 1, error: { key: 'node:ENOENT:x', family: 'node:fs', message: "Error: ENOENT: no such file or directory, open 'config/settings.json'", tool: 'node', code: 'ENOENT' } }, 0);
    t.edited('config/settings.json', 10);
    const done = t.commandEnded({ id: 'r2', line: 'node scripts/check.js', exitCode: 0 }, 20).find(e => e.type === 'ended');
    assert.ok(done && done.type === 'ended');
    const diff = lineDiff('config/settings.json', undefined, '{\n  "port": 8080\n}\n')!;
    const { rootCause, fixApproach } = lessonTemplate(material(done.episode, [diff]));
    assert.strictEqual(rootCause, "`node scripts/check.js` failed with \"Error: ENOENT: no such file or directory, open 'config/settings.json'\"; it cleared after Engram saw: created config/settings.json with `{ \"port\": 8080 }`; then `node scripts/check.js` passed.");
    assert.strictEqual(fixApproach, 'Created config/settings.json with `{ "port": 8080 }`.');

    const d = new EpisodeTracker({ newId: () => 'ep5' });
    d.commandEnded({ id: 'r1', line: 'bash scripts/fail.sh', exitCode: 1, error: { key: 'tsc:TS2304:x', family: 'tsc:name', message: "Cannot find name 'missingThing'.", tool: 'tsc' } }, 0);
    d.deleted('.fail', 5);
    const fixed = d.commandEnded({ id: 'r2', line: 'bash scripts/fail.sh', exitCode: 0 }, 10).find(e => e.type === 'ended');
    assert.ok(fixed && fixed.type === 'ended');
    assert.strictEqual(lessonTemplate(material(fixed.episode, [lineDiff('.fail', 'stop\n', undefined)!])).fixApproach, 'Deleted .fail.');
    // Nothing observed: the lesson says so instead of naming a file that did not change.
    assert.strictEqual(lessonTemplate(material(fixed.episode, [])).fixApproach, 'Unexplained: no fix was observed.');

    const f = new EpisodeTracker({ newId: () => 'ep4' });
    f.commandEnded({ id: 'r1', line: 'npm test', exitCode: 1, error: { key: 'k', family: 'f', message: 'boom', tool: 'node' } }, 0);
    const [gave] = f.end('ep4', 'failure', 5000, 'the CI image lacks libssl');
    assert.ok(gave.type === 'ended');
    const m = material(gave.episode, []);
    const lesson = buildLesson(m, buildEpisode(m, 'ep4'), 'l4')!;
    assert.strictEqual(lesson.outcome, 'failure');
    assert.strictEqual(lesson.rootCause, 'Not resolved: the CI image lacks libssl');
    assert.match(summaryTemplate(m), /^Could not fix `npm test` failed \(exit 1\): boom \(5s\): the CI image lacks libssl\.$/);
  });
});

describe('finalisation (episode → store)', () => {
  const TOKEN = 'ghp_' + 'R8fZk2LqW9xT4mVb7NcY1pHs6DgJ3aUe0KiQ';

  function fakeStore(fail?: () => Error | undefined) {
    const recorded: Memory[] = [];
    const feedback: string[] = [];
    const store = {
      async record(m: Memory) { const e = fail?.(); if (e) throw e; recorded.push(m); return m; },
      async feedback(id: string, outcome: string) { const e = fail?.(); if (e) throw e; feedback.push(`${id}:${outcome}`); },
      // The memory shown during the episode: a lesson about its error, so the automatic outcome applies.
      get(id: string) { return id === 'shown1' ? { id, kind: 'lesson', errorSignature: 'node:Error:x' } as Memory : undefined; },
    };
    return { store: store as unknown as MemoryStore, recorded, feedback };
  }

  function deps(store: MemoryStore, over: Partial<FinalizerDeps> = {}): FinalizerDeps & { storageErrors: unknown[] } {
    const storageErrors: unknown[] = [];
    return {
      store: async () => store, owner: () => owner, mode: () => 'background', useLanguageModel: () => false,
      summarize: async () => undefined, explain: async () => undefined, readFile: async () => new Uint8Array(), onStorageError: e => storageErrors.push(e),
      outcomes: new OutcomeLedger(), logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} }, storageErrors, ...over,
    };
  }

  function job(secretInError = false): FinalizeJob {
    const t = new EpisodeTracker({ newId: () => 'ep9' });
    const message = secretInError ? `Error: bad credentials for ${TOKEN}` : 'Error: boom';
    t.commandEnded({ id: 'r1', line: 'node deploy.js', exitCode: 1, error: { key: 'node:Error:x', family: 'node:error', message, tool: 'node' } }, 0);
    t.edited('deploy.js', 5);
    const fx = t.commandEnded({ id: 'r2', line: 'node deploy.js', exitCode: 0 }, 10).find(e => e.type === 'ended');
    assert.ok(fx && fx.type === 'ended');
    return {
      tracked: fx.episode, domain: 'terminal:node', written: { feedback: 0 }, feedback: [{ id: 'shown1', outcome: 'prevented', reason: 'fixed', signature: 'node:Error:x', since: 0 }],
      before: new Map([['deploy.js', `const token = '${TOKEN}';\nconnect(token, 1);\n`]]),
      after: new Map([['deploy.js', `const token = process.env.TOKEN;\nconnect(token, 1);\n`]]),
    };
  }

  it('masks before writing: no byte of the secret reaches the store, from the error or the diff', async () => {
    const { store, recorded } = fakeStore();
    const f = new Finalizer(deps(store));
    f.enqueue(job(true));
    await f.flush();
    assert.deepStrictEqual(recorded.map(m => m.kind), ['episode', 'lesson']);
    const text = JSON.stringify(recorded);
    assert.ok(!text.includes(TOKEN), 'the token was written');
    assert.ok(text.includes('process.env.TOKEN'), 'the diff itself is kept');
  });

  it('masks once where text comes in: the model never sees the secret, and a secret in its answers is not written', async () => {
    const { store, recorded } = fakeStore();
    const sent: string[] = [];
    const f = new Finalizer(deps(store, {
      useLanguageModel: () => true,
      // A model that leaks: it repeats a secret it was never shown (from its own context, say).
      summarize: async text => { sent.push(text); return `The deploy failed until ${TOKEN} moved to the environment.`; },
      explain: async prompt => {
        sent.push(prompt);
        return JSON.stringify({ rootCause: `the token ${TOKEN} was hard-coded in deploy.js`, fixApproach: 'read TOKEN from process.env in deploy.js' });
      },
    }));
    f.enqueue(job(true));
    await f.flush();
    assert.strictEqual(sent.length, 2, 'the summary and the lesson were both asked for');
    for (const s of sent) assert.ok(!s.includes(TOKEN), `the model was sent the token: ${s.slice(0, 200)}`);
    assert.ok(sent[1].includes('process.env.TOKEN'), 'the prompt still holds the change');
    assert.deepStrictEqual(recorded.map(m => m.kind), ['episode', 'lesson']);
    const text = JSON.stringify(recorded);
    assert.ok(!text.includes(TOKEN), 'a secret from the model was written');
    assert.match(text, /moved to the environment/, 'the model summary is used');
    assert.strictEqual((recorded[1] as { author?: string }).author, 'model', 'the model lesson is used');
  });

  it('on ENOSPC it stops, reports once, keeps the job, and writes it (once) after unblock', async () => {
    let full = true;
    const { store, recorded, feedback } = fakeStore(() => (full ? Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }) : undefined));
    const d = deps(store);
    const f = new Finalizer(d);
    f.enqueue(job());
    await f.flush();
    assert.strictEqual(d.storageErrors.length, 1);
    assert.strictEqual(f.isBlocked, true);
    assert.strictEqual(f.pending, 1);
    assert.strictEqual(recorded.length, 0);
    full = false;
    f.unblock();
    await f.flush();
    assert.strictEqual(f.pending, 0);
    assert.deepStrictEqual(recorded.map(m => `${m.kind}:${m.id}`), ['episode:ep9', `lesson:${recorded[1].id}`]);
    assert.deepStrictEqual(feedback, ['shown1:prevented']);
  });

  it('hotPath starts writing at once; background waits for its debounce', async () => {
    for (const mode of ['hotPath', 'background'] as const) {
      const { store, recorded } = fakeStore();
      const f = new Finalizer(deps(store, { mode: () => mode }));
      f.enqueue(job());
      for (let i = 0; i < 5; i++) await new Promise(r => setImmediate(r));
      assert.strictEqual(recorded.length > 0, mode === 'hotPath', `${mode}: ${recorded.length} written before any timer`);
      await f.flush();
      assert.strictEqual(recorded.length, 2);
      f.dispose();
    }
  });
});
