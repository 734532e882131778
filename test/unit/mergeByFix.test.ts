// Merge by the fix, wherever it is (issue 17): the same TS2322 fixed by the same change in
// src/config.ts and then in src/server/config.ts is one lesson whose scope covers both, at pattern after
// two episodes; a third does not make a second lesson beside it. Different edits stay different lessons.
import * as assert from 'assert';
import { rmSync } from 'fs';
import { buildEpisode, buildLesson, type EpisodeMaterial } from '../../src/core/episodeSummary';
import { EpisodeTracker, type TrackedEpisode } from '../../src/core/episodeTracker';
import { lineDiff } from '../../src/core/capture/diff';
import { narrowestGlobs } from '../../src/core/scope';
import { signatureOf } from '../../src/core/signature';
import type { Lesson } from '../../src/core/types';
import { runPatternPass } from '../../src/store/patternPass';
import { MemoryStore } from '../../src/store/memoryStore';
import { fixture, runFixture } from '../fixtures/tool-output';
import { CommandErrors } from '../../src/core/capture/commandErrors';
import { isDuplicateLesson } from '../../src/core/trust';
import { tmpDir } from './store-helpers';

const owner = { scope: 'workspace' as const, workspace: 'wsA' };
const ctx = { fileOpen: true, serverAlive: true };
// The error and the code of the recorded tsc 7 run (ts2-build-ts2322) and its fix.
const TS2322 = runFixture('ts2-build-ts2322').text.split('\n').find(l => l.includes('TS2322'))!.replace(/^src\/config\.ts/, 'FILE');
const BEFORE = "import { readFileSync } from 'node:fs';\n\nexport const port: number = process.env.PORT ?? '8080';\n";
const AFTER = BEFORE.replace("process.env.PORT ?? '8080'", 'Number(process.env.PORT ?? 8080)');

let n = 0;
function episode(file: string, at: number, after = AFTER): { tracked: TrackedEpisode; material: EpisodeMaterial } {
  const sig = signatureOf(TS2322.replace('FILE', file))!;
  const error = { key: sig.key, family: sig.family, message: "Type 'string' is not assignable to type 'number'.", code: sig.code, tool: sig.tool, line: 2 };
  const t = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => `ep${++n}` });
  t.diagnostics(file, [error], at, ctx);
  t.tick(at + 1000);
  t.edited(file, at + 2000);
  t.diagnostics(file, [], at + 3000, ctx);
  const ended = t.tick(at + 4000).find(e => e.type === 'ended');
  assert.ok(ended && ended.type === 'ended');
  const tracked = ended.episode;
  return { tracked, material: { tracked, diffs: [lineDiff(file, BEFORE, after)!], scope: narrowestGlobs(tracked.files), domain: 'typescript', owner, now: at + 5000 } };
}

async function record(store: MemoryStore, e: { tracked: TrackedEpisode; material: EpisodeMaterial }): Promise<string> {
  const ep = buildEpisode(e.material, e.tracked.id);
  await store.record(ep);
  const saved = await store.record(buildLesson(e.material, ep, `lesson-${e.tracked.id}`)!);
  return saved.id;
}

// A Python run failing with the recorded TypeError (py-str-int-concat.a), an edit, and the run passing.
const CONCAT = fixture('python', 'py-str-int-concat', 'a');
function pyEpisode(file: string, before: string, after: string, at: number, output = CONCAT): { tracked: TrackedEpisode; material: EpisodeMaterial } {
  const t = new EpisodeTracker({ newId: () => `py${++n}` });
  const line = `python3 ${file}`;
  t.commandEnded({ id: `c${at}`, line, exitCode: 1, error: new CommandErrors().fromOutput(output, 1, line), output }, at);
  t.edited(file, at + 1000);
  const ended = t.commandEnded({ id: `d${at}`, line, exitCode: 0 }, at + 2000).find(e => e.type === 'ended');
  assert.ok(ended && ended.type === 'ended');
  const tracked = ended.episode;
  return { tracked, material: { tracked, diffs: [lineDiff(file, before, after)!], scope: narrowestGlobs(tracked.files), domain: 'terminal', owner, now: at + 3000 } };
}

describe('merge by the fix, wherever it is', () => {
  let dir: string;
  let store: MemoryStore;
  beforeEach(async () => { dir = tmpDir('merge-by-fix'); store = await MemoryStore.open(dir, { workspaceId: 'wsA' }); });
  afterEach(async () => { await store.close(); rmSync(dir, { recursive: true, force: true }); });

  const lessons = () => store.list({ kinds: ['lesson'] }) as Lesson[];

  it('the same change in src/config.ts and in api/server/config.ts is one lesson covering both, at pattern', async () => {
    const a = await record(store, episode('src/config.ts', 0));
    const b = await record(store, episode('api/server/config.ts', 60_000));
    assert.strictEqual(b, a, 'the second is evidence on the first');
    const [lesson] = lessons();
    assert.strictEqual(lessons().length, 1);
    assert.deepStrictEqual(lesson.scope, ['api/server/**', 'src/**']);
    assert.strictEqual(lesson.evidence.length, 2);
    assert.strictEqual(lesson.maturity, 'pattern');
  });

  it('a third time: the pattern pass grows that lesson instead of standing a second one beside it', async () => {
    await record(store, episode('src/config.ts', 0));
    await record(store, episode('api/server/config.ts', 60_000));
    await record(store, episode('web/config.ts', 120_000));
    await runPatternPass(store, { owner });
    assert.strictEqual(lessons().length, 1, lessons().map(l => `${l.id} ${l.scope}`).join('; '));
    assert.strictEqual(lessons()[0].evidence.length, 3);
    assert.deepStrictEqual(lessons()[0].scope, ['api/server/**', 'src/**', 'web/**']);
  });

  it('the same change inside different code (`count` → `str(count)`) in two services is one lesson for all services, at pattern', async () => {
    const billing = "def summary(count):\n    return 'billing: items ' + count\n";
    const report = 'count = 3\nprint("processed " + count + " files")\n';
    const a = await record(store, pyEpisode('services/billing/report.py', billing, billing.replace('+ count', '+ str(count)'), 0));
    const b = await record(store, pyEpisode('services/shipping/main.py', report, report.replace('+ count +', '+ str(count) +'), 60_000));
    assert.strictEqual(b, a, 'the second is evidence on the first');
    assert.strictEqual(lessons().length, 1);
    // Two folders under one top-level folder meet at their parent, as an episode's files do: the next service is in scope.
    assert.deepStrictEqual(lessons()[0].scope, ['services/**']);
    assert.strictEqual(lessons()[0].maturity, 'pattern');
    assert.match(lessons()[0].fixApproach, /str\(count\)/);
  });

  it('the same change for the same error in another failing test is another problem: no merge', () => {
    // jest-two-failing: one assertion signature, two tests; the same edit recorded for each.
    const out = runFixture('jest-two-failing').text;
    const left = runFixture('jest-one-left').text;
    const src = 'module.exports = total => total > 50;\n';
    const one = pyEpisode('cart.js', src, src.replace('>', '>='), 0, out);
    const two = pyEpisode('cart.js', src, src.replace('>', '>='), 60_000, left);
    const l1 = buildLesson(one.material, buildEpisode(one.material, one.tracked.id), 'l1')!;
    const l2 = buildLesson(two.material, buildEpisode(two.material, two.tracked.id), 'l2')!;
    assert.strictEqual(l1.errorSignature, l2.errorSignature);
    assert.strictEqual(l1.fixKey, l2.fixKey);
    assert.strictEqual(isDuplicateLesson(l1, l2), false);
    assert.strictEqual(isDuplicateLesson(l1, { ...l2, errorText: l1.errorText }), true);
  });

  it('a different change for the same error is a different lesson', async () => {
    await record(store, episode('src/config.ts', 0));
    await record(store, episode('api/config.ts', 60_000, BEFORE.replace("process.env.PORT ?? '8080'", "parseInt(process.env.PORT ?? '8080', 10)")));
    assert.strictEqual(lessons().length, 2);
    assert.ok(lessons().every(l => l.maturity === 'observation'));
  });
});
