// The store's persisted view (view.bin): opened instead of replaying the log, answering exactly as the
// log would; never trusted when damaged or stale (rebuilt from the log, with a warning); free of forgotten
// text; never lost or half-written under SIGKILL.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { signatureKeyOf } from '../../src/core/recall';
import type { Lesson } from '../../src/core/types';
import { MemoryStore } from '../../src/store/memoryStore';
import { openInBackground } from '../../src/store/storeOpening';
import { VIEW_FILE } from '../../src/store/viewFormat';
import { aLesson } from './memories';
import { allBytes, bundle, tmpDir } from './store-helpers';

const T0 = Date.UTC(2026, 2, 1);
const ERRORS = [
  "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  "src/b.ts(9,1): error TS2307: Cannot find module './config' or its corresponding type declarations.",
  "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    import requests\nModuleNotFoundError: No module named 'requests'",
  'error[E0382]: borrow of moved value: `v`\n --> src/main.rs:5:20',
  "TypeError: Cannot read properties of undefined (reading 'map')\n    at render (src/list.tsx:12:18)",
];

function lesson(i: number, over: Partial<Lesson> = {}): Lesson {
  const errorText = ERRORS[i % ERRORS.length].replace(/'(\w+)'/, (_, w) => `'${w}${i % 3 ? i : ''}'`);
  return aLesson({
    id: `l${i}`, createdAt: T0 + i, updatedAt: T0 + i, source: 'captured',
    errorSignature: signatureKeyOf(errorText) ?? '', errorText, errorCategory: 'type', stack: ['typescript'],
    rootCause: `cause number ${i} of the ${['parser', 'loader', 'router'][i % 3]}`, fixApproach: `fix ${i}: change the ${['import', 'type', 'call'][i % 3]}`,
    // Its own fix (a fixKey), so no two merge as "the same lesson" and each stays a memory.
    scope: i % 4 ? [`packages/p${i % 5}/**`] : [], fixKey: `fix-${i}`, ...over,
  });
}

const queries = ERRORS.map((text, i) => ({ text, file: `packages/p${i}/src/x.ts` }));
const answers = async (s: MemoryStore) => {
  const out: string[] = [];
  for (const q of queries) out.push((await s.recall(q)).map(r => `${r.memory.id}:${r.score}:${r.reasons.map(x => x.kind).join('+')}`).join(' '));
  return out;
};

/** What a store answers when it rebuilds everything from the log (its view moved aside for the open). */
async function fromLog(dir: string): Promise<string[]> {
  const view = path.join(dir, VIEW_FILE);
  const aside = `${view}.aside`;
  const had = fs.existsSync(view);
  if (had) fs.renameSync(view, aside);
  try {
    const s = await MemoryStore.open(dir, { readOnly: true });
    try { return await answers(s); } finally { await s.close(); }
  } finally {
    if (had) fs.renameSync(aside, view);
  }
}

describe('store view (view.bin)', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => { dir = tmpDir('view'); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function seed(n: number): Promise<void> {
    const s = await MemoryStore.open(dir);
    for (let i = 0; i < n; i++) await s.record(lesson(i));
    await s.feedback('l1', 'prevented');
    await s.close();
  }

  it('a writer leaves a view at close; a reader opens it and answers exactly as the whole log does, history included', async () => {
    await seed(40);
    assert.ok(fs.existsSync(path.join(dir, VIEW_FILE)), 'view written at close');
    const s = await MemoryStore.open(dir, { readOnly: true });
    assert.deepStrictEqual(s.warnings, []);
    const viaView = await answers(s);
    assert.ok(viaView.every(a => a.length), 'every query finds something');
    assert.ok(s.history('l1').some(h => h.type === 'feedback'), 'history comes with the view');
    assert.strictEqual(s.list().length, 40);
    await s.close();
    assert.deepStrictEqual(viaView, await fromLog(dir));
  });

  it('changes after the view (a tail in the log) are folded on open: new, changed, forgotten', async () => {
    await seed(30);
    const w = await MemoryStore.open(dir);
    await w.record(lesson(100, { rootCause: 'a tail memory about zebrafish' }));
    await w.update('l2', { fixApproach: 'a changed fix that mentions quokkas' });
    await w.forget('l3');
    // No compaction and no view: the tail stays in the log for the reader to fold.
    w['compactor'].cancel();
    (w as unknown as { views: { cancel(): void; due(): undefined } }).views.due = () => undefined;
    await w.close();
    const s = await MemoryStore.open(dir, { readOnly: true });
    assert.deepStrictEqual(s.warnings, []);
    assert.ok(s.get('l100'), 'new memory from the tail');
    assert.ok(!s.get('l3') && s.isForgotten('l3'), 'forgotten in the tail');
    assert.strictEqual((await s.recall({ text: 'quokkas' }))[0]?.memory.id, 'l2');
    assert.strictEqual((await s.recall({ text: 'zebrafish' }))[0]?.memory.id, 'l100');
    assert.deepStrictEqual(await answers(s), await fromLog(dir));
    await s.close();
  });

  it('a damaged view is never trusted: rebuilt from the log with a warning, the next writer replaces it', async () => {
    await seed(25);
    const file = path.join(dir, VIEW_FILE);
    const expected = await fromLog(dir);
    // Damage a table read at open (the ids) and, separately, a memory read on demand.
    const bytes = fs.readFileSync(file);
    const header = JSON.parse(bytes.toString('utf8', 20, 20 + bytes.readUInt32LE(12))) as { sections: Record<string, { at: number; len: number }> };
    const ids = header.sections.idBlob;
    bytes[ids.at + Math.floor(ids.len / 2)] ^= 0x01;
    fs.writeFileSync(file, bytes);
    let s = await MemoryStore.open(dir, { readOnly: true });
    assert.ok(s.warnings.some(w => w.includes(VIEW_FILE) && /damaged|rebuilt/.test(w)), s.warnings.join('; '));
    assert.deepStrictEqual(await answers(s), expected);
    await s.close();
    s = await MemoryStore.open(dir);
    await s.close();
    s = await MemoryStore.open(dir, { readOnly: true });
    assert.deepStrictEqual(s.warnings, [], 'the writer replaced the damaged view');
    await s.close();

    const good = fs.readFileSync(file);
    const at = good.indexOf(Buffer.from('cause number 7 of'));
    assert.ok(at > 0, 'memory text is in the view');
    good[at + 3] ^= 0x20;
    fs.writeFileSync(file, good);
    s = await MemoryStore.open(dir, { readOnly: true });
    assert.deepStrictEqual(await answers(s), expected, 'a memory failing its check is read from the log instead');
    assert.ok(s.warnings.some(w => w.includes('fails its check')), s.warnings.join('; '));
    const l7 = s.get('l7');
    assert.ok(l7?.kind === 'lesson' && l7.rootCause.startsWith('cause number 7'), 'and never served damaged');
    await s.close();
  });

  it('a view of an older log generation is stale: not used, rebuilt from the log', async () => {
    await seed(20);
    const file = path.join(dir, VIEW_FILE);
    const old = fs.readFileSync(file);
    const w = await MemoryStore.open(dir);
    await w.record(lesson(50, { rootCause: 'recorded after the old view, about axolotls' }));
    await w.forget('l4');
    await w.compact();
    await w.close();
    fs.writeFileSync(file, old); // the older generation's view put back
    const s = await MemoryStore.open(dir, { readOnly: true });
    assert.ok(s.warnings.some(x => x.includes('covers another state of the log')), s.warnings.join('; '));
    assert.ok(s.get('l50') && !s.get('l4'), 'the state is the log, not the stale view');
    assert.strictEqual((await s.recall({ text: 'axolotls' }))[0]?.memory.id, 'l50');
    await s.close();
  });

  it('forgotten text is in no file of the folder, the view included, once forget has returned', async () => {
    await seed(15);
    const secret = 'narwhal-7f3a-unique-word';
    let s = await MemoryStore.open(dir);
    const m = await s.record(lesson(60, { rootCause: `the ${secret} broke the build`, errorText: `error: ${secret} is not defined`, errorSignature: signatureKeyOf(`error: ${secret} is not defined`) ?? '' }));
    await s.saveView();
    await s.close();
    assert.ok(allBytes(dir).includes(secret), 'precondition: on disk, in the view too');
    assert.ok(fs.readFileSync(path.join(dir, VIEW_FILE), 'latin1').includes(secret));
    s = await MemoryStore.open(dir);
    await s.forget(m.id);
    await s.close();
    assert.ok(!allBytes(dir).includes(secret), 'forgotten text still on disk');
    assert.ok(!allBytes(dir).includes('narwhal'), 'not even its word in the dictionary');
  });

  it('another process compacting while a writer holds an older view: the writer follows, its stale view is never published', async () => {
    await seed(20);
    const a = await MemoryStore.open(dir);
    const b = await MemoryStore.open(dir);
    await b.record(lesson(70, { rootCause: 'from the other writer, about pangolins' }));
    await b.forget('l5');
    await b.compact();
    await b.compact();
    await b.close();
    await a.record(lesson(71, { rootCause: 'from the first writer, about tapirs' }));
    await a.saveView();
    await a.close();
    const s = await MemoryStore.open(dir, { readOnly: true });
    assert.deepStrictEqual(s.warnings, []);
    assert.ok(s.get('l70') && s.get('l71') && !s.get('l5'));
    assert.deepStrictEqual(await answers(s), await fromLog(dir));
    await s.close();
  });
});

describe('store view under SIGKILL (child processes)', function () {
  this.timeout(240_000);
  let child: string;
  before(async () => { child = await bundle('test/unit/store-view-child.ts', 'store-view-child'); });

  it('a writer killed at random points, views being written included, loses no acknowledged write and leaves no view that is trusted half-written', async () => {
    const dir = tmpDir('view-kill');
    const acknowledged: string[] = [];
    try {
      for (let round = 0; round < 12; round++) {
        const p = spawn(process.execPath, [child, dir, `k${round}`], { stdio: ['ignore', 'pipe', 'pipe'] });
        const ids: string[] = [];
        let buf = '', err = '';
        p.stdout.on('data', (d: Buffer) => { buf += d; const l = buf.split('\n'); buf = l.pop()!; ids.push(...l.filter(Boolean)); });
        p.stderr.on('data', (d: Buffer) => { err += d; });
        const done = new Promise(r => p.on('close', r));
        const target = 4 + (round * 7) % 23;
        const deadline = Date.now() + 90_000; // liveness only: a loaded machine starts node slowly
        while (ids.length < target && Date.now() < deadline) await new Promise(r => setTimeout(r, 2));
        await new Promise(r => setTimeout(r, (round * 13) % 40));
        p.kill('SIGKILL');
        await done;
        assert.ok(ids.length > 0, `round ${round}: no progress: ${err}`);
        acknowledged.push(...ids);
        const s = await MemoryStore.open(dir, { readOnly: true });
        try {
          assert.ok(!s.warnings.some(w => /damaged|fails its check|does not parse/.test(w)), `round ${round}: ${s.warnings.join('; ')}`);
          for (const id of acknowledged) {
            const m = s.get(id);
            assert.ok(m, `round ${round}: acknowledged ${id} is missing`);
            assert.strictEqual(m.confidence.alpha, 2, `round ${round}: ${id} folded twice or not at all`);
          }
          assert.ok((await s.recall({ text: `marker ${acknowledged[acknowledged.length - 1]}` })).length > 0);
        } finally {
          await s.close();
        }
      }
      // A compaction removes views that were being written when their writer died.
      const w = await MemoryStore.open(dir);
      await w.compact();
      await w.close();
      assert.deepStrictEqual(fs.readdirSync(dir).filter(f => f.startsWith(`.${VIEW_FILE}`)), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('openInBackground (a server answering before its store is open)', () => {
  it('hands out the store through ready, closes it whether or not the open has finished, and reports a failed open only through ready', async () => {
    const dir = tmpDir('opening');
    try {
      const s = await MemoryStore.open(dir);
      await s.record(lesson(1));
      await s.close();
      const opening = openInBackground(dir, { readOnly: true });
      assert.strictEqual(opening.current(), undefined, 'not open synchronously');
      const store = await opening.ready;
      assert.strictEqual(opening.current(), store);
      assert.strictEqual((await store.recall({ text: ERRORS[1] }))[0]?.memory.id, 'l1');
      await opening.close();
      await assert.rejects(store.recall({ text: 'x' }), /closed/);

      const early = openInBackground(dir, { readOnly: true });
      await early.close(); // before the open finished: waits for it, then closes
      await assert.rejects((await early.ready).recall({ text: 'x' }), /closed/);

      const file = path.join(dir, 'not-a-folder');
      fs.writeFileSync(file, 'x');
      const failed = openInBackground(file);
      await assert.rejects(failed.ready);
      await failed.close();
      assert.strictEqual(failed.current(), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
