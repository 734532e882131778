// The store facade wiring: compaction after forget and on log growth, fact supersession, promotion
// context, per-workspace confidence in recall, and masked feedback reasons — each through the store API.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { signatureKeyOf } from '../../src/core/recall';
import type { Episode, Fact, Lesson } from '../../src/core/types';
import { EventLog } from '../../src/store/eventLog';
import { COMPACT_PENDING_FILE, MemoryStore } from '../../src/store/memoryStore';
import { aLesson } from './memories';

const T0 = Date.UTC(2026, 2, 1);
const TS2322 = "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.";
const GHP = 'ghp_Zq8vN2kLm4Pr7Tx9Wb3Yc6Df1Gh5Jk0Ls2Q';

function tmp(): string { return fs.mkdtempSync(path.join(os.tmpdir(), 'engram-wiring-')); }

/** Every byte under `dir`, recursively. */
function allBytes(dir: string): string {
  let out = '';
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    out += e.isDirectory() ? allBytes(p) : fs.readFileSync(p, 'latin1');
  }
  return out;
}

/** Generation in events.jsonl's header line. */
function generation(dir: string): number {
  const head = fs.readFileSync(path.join(dir, 'events.jsonl'), 'utf8').split('\n')[0];
  return (JSON.parse(head) as { generation: number }).generation;
}

function lesson(over: Partial<Lesson> = {}): Lesson {
  const errorText = over.errorText ?? TS2322;
  return aLesson({
    id: '', owner: { scope: 'workspace', workspace: 'wsA' }, createdAt: T0, updatedAt: T0,
    errorSignature: signatureKeyOf(errorText) ?? '', errorText, errorCategory: 'type', stack: ['typescript'],
    rootCause: 'form values are strings', fixApproach: 'parse the value with Number() before assigning', ...over,
  });
}

function fact(content: string, over: Partial<Fact> = {}): Fact {
  return {
    id: '', kind: 'fact', owner: { scope: 'workspace', workspace: 'wsA' }, createdAt: T0, updatedAt: T0, accessCount: 0, importance: 0.5,
    source: 'manual', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation', content, type: 'fact', ...over,
  };
}

function episode(files: string[], over: Partial<Episode> = {}): Episode {
  return {
    id: '', kind: 'episode', owner: { scope: 'workspace', workspace: 'wsA' }, createdAt: T0, updatedAt: T0, accessCount: 0, importance: 0.5,
    source: 'captured', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    startedAt: T0, trigger: TS2322, steps: [], toolsUsed: ['tsc'], outcome: 'success', lessonsLearned: [], files, sourceIds: [],
    summary: 'fixed a string assigned to a number', ...over,
  };
}

describe('store facade wiring', () => {
  let dir: string;
  let now: number;
  beforeEach(() => { dir = tmp(); now = T0; });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe('feedback reason', () => {
    it('a token typed into a feedback reason never reaches disk, and the rest of the reason does', async () => {
      const s = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const m = await s.record(lesson());
      await s.feedback(m.id, 'still_failed', { reason: `retried with GITHUB_TOKEN=${GHP} exported` });
      const shown = s.history(m.id).map(h => h.detail).join('\n');
      await s.close();
      const disk = allBytes(dir);
      assert.ok(disk.includes('retried with'), 'the reason is on disk');
      assert.ok(!disk.includes(GHP), 'but not the token');
      assert.ok(!shown.includes(GHP), 'nor in the history view');
    });
  });

  describe('recall trust per workspace', () => {
    it('a lesson confirmed in one workspace and refuted in this one ranks below a modest one here, first there', async () => {
      const LODASH = "Error: Cannot find module 'lodash'";
      const b = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsB' });
      const disputed = await b.record(lesson({ errorText: LODASH, errorSignature: '', rootCause: 'stale install', fixApproach: 'pin dependency versions' }));
      const modest = await b.record(lesson({ errorText: LODASH, errorSignature: '', rootCause: 'stale install', fixApproach: 'reinstall packages cleanly' }));
      assert.notStrictEqual(disputed.id, modest.id);
      for (let i = 0; i < 6; i++) await b.feedback(disputed.id, 'prevented');
      await b.close();
      const a = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      await a.feedback(disputed.id, 'still_failed');
      await a.feedback(disputed.id, 'still_failed');
      await a.feedback(modest.id, 'prevented');
      // Plain mean: disputed 7/10 = 0.70 beats modest 2/3 = 0.67; wsA's own tally for it is 1/4.
      const here = (await a.recall({ text: LODASH })).map(r => r.memory.id);
      assert.deepStrictEqual(here, [modest.id, disputed.id]);
      await a.close();
      const b2 = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsB' });
      assert.deepStrictEqual((await b2.recall({ text: LODASH })).map(r => r.memory.id), [disputed.id, modest.id]);
      await b2.close();
    });
  });

  describe('facts', () => {
    it('a newer package manager supersedes the older, which stays as history; a repeat is not stored twice', async () => {
      const s = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const npm = await s.record(fact('The package manager is npm'));
      now += 1000;
      const pnpm = await s.record(fact('The package manager is pnpm'));
      now += 1000;
      const again = await s.record(fact('the package manager is pnpm.'));
      assert.strictEqual(again.id, pnpm.id, 'the repeat is the same memory');
      await s.close();

      const r = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const facts = r.list({ kinds: ['fact'] }) as Fact[];
      assert.strictEqual(facts.length, 2, 'two values, no copy of the repeat');
      const newer = r.get(pnpm.id) as Fact, older = r.get(npm.id) as Fact;
      assert.strictEqual(newer.supersedes, npm.id);
      assert.strictEqual(older.supersededBy, pnpm.id);
      assert.strictEqual(newer.key, 'packageManager');
      assert.ok(r.history(npm.id).some(h => h.detail.includes('superseded')), 'the older value says why it was replaced');
      const hits = (await r.recall({ text: 'which package manager' })).map(x => x.memory.id);
      assert.deepStrictEqual(hits, [pnpm.id], 'recall answers with the current value only');
      await r.close();
    });

    it('an unrelated fact is kept alongside, not superseded', async () => {
      const s = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const pm = await s.record(fact('The package manager is pnpm'));
      const other = await s.record(fact('Release notes live in docs/releases, one file per version'));
      assert.notStrictEqual(other.id, pm.id);
      assert.strictEqual((s.get(pm.id) as Fact).supersededBy, undefined);
      assert.strictEqual(s.list({ kinds: ['fact'] }).length, 2);
      await s.close();
    });
  });

  describe('promotion context', () => {
    /** A pattern lesson backed by two episodes in src/api, seen in `evidenceWs`. */
    async function patternIn(s: MemoryStore, evidenceWs: string): Promise<Lesson> {
      const e1 = await s.record(episode(['src/api/user.ts'], { owner: { scope: 'workspace', workspace: evidenceWs } }));
      const e2 = await s.record(episode(['src/api/order.ts'], { owner: { scope: 'workspace', workspace: evidenceWs } }));
      return await s.record(lesson({ maturity: 'pattern', evidence: [e1.id, e2.id] })) as Lesson;
    }

    it('re-validated in another scope with a prevented outcome, a pattern becomes a rule; in the same place it does not', async () => {
      const s = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const m = await patternIn(s, 'wsA');
      for (const file of ['src/api/a.ts', 'src/api/b.ts', 'src/api/c.ts']) {
        now += 60_000;
        await s.feedback(m.id, 'prevented', { file });
      }
      // Three clean outcomes clear the confidence gate, but all came from where the evidence was seen.
      assert.strictEqual(s.get(m.id)!.maturity, 'pattern', 'same folder, same workspace, same week: not another context');
      now += 60_000;
      await s.feedback(m.id, 'prevented', { file: 'web/src/form.tsx' });
      assert.strictEqual(s.get(m.id)!.maturity, 'rule');
      const why = s.history(m.id).find(h => h.type === 'promoted' && h.detail.includes('rule'))?.detail ?? '';
      assert.match(why, /another place \(web\/src\/form\.tsx\)/);
      await s.close();
    });

    it('feedback from the workspace where the evidence was seen is not "another workspace", even if the lesson was filed elsewhere', async () => {
      // Filed by wsA, but both episodes behind it happened in wsB.
      const a = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const m = await patternIn(a, 'wsB');
      await a.close();
      const b = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsB' });
      for (let i = 0; i < 4; i++) { now += 60_000; await b.feedback(m.id, 'prevented', { file: 'src/api/x.ts' }); }
      assert.strictEqual(b.get(m.id)!.maturity, 'pattern');
      await b.close();
      // The same outcome from a third workspace is a new context.
      const c = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsC' });
      await c.feedback(m.id, 'prevented', { file: 'src/api/x.ts' });
      assert.strictEqual(c.get(m.id)!.maturity, 'rule');
      assert.ok(c.history(m.id).some(h => h.type === 'promoted' && h.detail.includes('another workspace (wsC)')));
      await c.close();
    });

    it('a week after the evidence was seen, the same place counts as re-validated', async () => {
      const s = await MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA' });
      const m = await patternIn(s, 'wsA');
      for (let i = 0; i < 3; i++) { now += 60_000; await s.feedback(m.id, 'prevented', { file: 'src/api/a.ts' }); }
      assert.strictEqual(s.get(m.id)!.maturity, 'pattern');
      now = T0 + 8 * 86_400_000;
      await s.feedback(m.id, 'prevented', { file: 'src/api/a.ts' });
      assert.strictEqual(s.get(m.id)!.maturity, 'rule');
      await s.close();
    });
  });

  describe('compaction', () => {
    const UNIQUE = 'zebra-quokka-7f3e91 secret project codename';
    // A long quiet time: these tests decide when compactions run (flushCompaction / close), never a timer.
    const open = (o: Partial<Parameters<typeof MemoryStore.open>[1]> = {}) =>
      MemoryStore.open(dir, { now: () => now, workspaceId: 'wsA', compactDelayMs: 600_000, ...o });

    it('after forget, two compactions remove the text from every byte of the folder; other memories survive reopen', async () => {
      const s = await open();
      const gone = await s.record(fact(`Deploys go through ${UNIQUE}`));
      const kept = await s.record(lesson());
      assert.ok(allBytes(dir).includes(UNIQUE), 'before forget the text is on disk (the check can see it)');
      await s.forget(gone.id, 'wrong');
      assert.strictEqual(await s.flushCompaction(), true, 'forget asked for a compaction');
      assert.strictEqual(await s.flushCompaction(), true, 'and the one after it, which clears the .prev pair');
      assert.strictEqual(await s.flushCompaction(), false, 'then nothing is owed');
      assert.ok(!allBytes(dir).includes(UNIQUE), 'the forgotten text is in no file');
      assert.ok(!fs.existsSync(path.join(dir, COMPACT_PENDING_FILE)));
      await s.close();
      const r = await open();
      assert.strictEqual(r.get(gone.id), undefined);
      assert.deepStrictEqual(r.get(kept.id), s.get(kept.id));
      assert.strictEqual((await r.recall({ text: TS2322 }))[0]?.memory.id, kept.id);
      await r.close();
    });

    it('a forget right before close (a CLI run) pays both compactions at close', async () => {
      const s = await open();
      const gone = await s.record(fact(`Deploys go through ${UNIQUE}`));
      const kept = await s.record(fact('Release notes live in docs/releases'));
      await s.forget(gone.id);
      await s.close();
      assert.ok(!allBytes(dir).includes(UNIQUE), 'gone when close resolves, the .prev pair included');
      assert.ok(!fs.existsSync(path.join(dir, COMPACT_PENDING_FILE)), 'nothing is owed');
      const r = await open();
      assert.strictEqual((r.get(kept.id) as Fact).content, 'Release notes live in docs/releases');
      assert.strictEqual(r.list().length, 1);
      await r.close();
    });

    it('a debt an earlier session left (it died after one compaction) is paid when the next session closes', async () => {
      const s = await open();
      const gone = await s.record(fact(`Deploys go through ${UNIQUE}`));
      await s.forget(gone.id);
      assert.strictEqual(await s.flushCompaction(), true);
      assert.strictEqual(fs.readFileSync(path.join(dir, COMPACT_PENDING_FILE), 'utf8'), '1', 'the debt is on disk');
      assert.ok(allBytes(dir).includes(UNIQUE), 'one compaction keeps a step back in the .prev pair');
      // s is abandoned here, as a killed process would leave it.
      const again = await open();
      await again.close();
      assert.ok(!allBytes(dir).includes(UNIQUE), 'gone after the next session');
      assert.ok(!fs.existsSync(path.join(dir, COMPACT_PENDING_FILE)));
    });

    it('eraseRemoved pays both compactions at once', async () => {
      const s = await open();
      const gone = await s.record(fact(`Deploys go through ${UNIQUE}`));
      await s.forget(gone.id);
      assert.strictEqual(await s.eraseRemoved(), true);
      assert.ok(!allBytes(dir).includes(UNIQUE));
      assert.strictEqual(await s.eraseRemoved(), false, 'nothing left to pay');
      await s.close();
    });

    it('a burst of forgets compacts once', async () => {
      const s = await open();
      const ids: string[] = [];
      const notes = ['Release notes live in docs/releases', 'CI runs on self-hosted runners', 'The staging database resets nightly',
        'Icons come from the codicon font', 'Storybook stories sit next to components'];
      for (const n of notes) ids.push((await s.record(fact(n))).id);
      assert.strictEqual(s.list().length, 5);
      const g0 = generation(dir);
      for (const id of ids) await s.forget(id);
      assert.strictEqual(generation(dir), g0, 'nothing compacted per forget');
      assert.strictEqual(await s.flushCompaction(), true);
      assert.strictEqual(generation(dir), g0 + 1, 'one compaction for the whole burst');
      await s.close();
    });

    it('compacts once the log passes its event bound or its size bound', async () => {
      const s = await open({ compactLogEvents: 50 });
      const m = await s.record(fact('Release notes live in docs/releases'));
      for (let i = 0; i < 30; i++) await s.markAccessed([m.id]);
      assert.strictEqual(await s.flushCompaction(), false, '31 events: under the bound');
      for (let i = 0; i < 30; i++) await s.markAccessed([m.id]);
      assert.strictEqual(await s.flushCompaction(), true, '61 events: compacted');
      assert.strictEqual(fs.readFileSync(path.join(dir, 'events.jsonl'), 'utf8').trim().split('\n').length, 1, 'the new log holds only its header');
      await s.close();
      const r = await open();
      assert.strictEqual(r.get(m.id)?.accessCount, 60, 'nothing lost in the snapshot');
      await r.close();

      const big = await open({ compactLogBytes: 4096 });
      const g0 = generation(dir);
      await big.record(fact('A long note: ' + 'word '.repeat(1000)));
      await big.close(); // runs what is due
      assert.strictEqual(generation(dir), g0 + 1);
    });

    it('when another process compacted twice meanwhile, the compaction rebuilds from the log instead of keeping stale state', async () => {
      const a = await open();
      const x = await a.record(fact('Release notes live in docs/releases'));
      const y = await a.record(fact('CI runs on self-hosted runners'));
      // Another writer forgets x and compacts twice: a's view of the log cannot be followed, only replayed.
      const log = await EventLog.open(dir);
      const { MemoryState } = await import('../../src/core/reduce');
      const other = new MemoryState();
      other.applyAll((await log.readAll()).events);
      await log.append([{ type: 'deleted', id: x.id, at: now }]);
      other.apply({ type: 'deleted', id: x.id, at: now });
      await log.compact(other);
      await log.compact(other);
      const z = await a.record(fact('Docs are written in British English'));
      await a.forget(y.id);
      assert.strictEqual(await a.flushCompaction(), true);
      assert.strictEqual(a.get(x.id), undefined, 'the other writer\'s forget is applied');
      assert.deepStrictEqual(a.list().map(m => m.id), [z.id]);
      await a.close();
      const r = await open();
      assert.deepStrictEqual(r.list().map(m => m.id), [z.id]);
      await r.close();
    });
  });
});
