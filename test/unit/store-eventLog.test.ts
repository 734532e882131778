// The canonical log: recovery from every kind of damage, compaction, privacy, write errors.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MemoryState } from '../../src/core/reduce';
import type { MemoryEvent } from '../../src/core/types';
import {
  EventLog, EVENTS_FILE, EVENTS_PREV_FILE, SNAPSHOT_FILE, SNAPSHOT_NEXT_FILE, SNAPSHOT_PREV_FILE, StoreWriteError,
} from '../../src/store/eventLog';
import { withLock } from '../../src/store/lock';
import { allBytes, bundleStandalone, testMemory, tmpDir } from './store-helpers';

const rec = (id: string, text = `text of ${id}`): MemoryEvent => ({ type: 'recorded', id, at: 1, memory: testMemory(id, text) });
const fb = (id: string): MemoryEvent => ({ type: 'feedback', id, at: 2, outcome: 'prevented' });

async function load(dir: string): Promise<{ log: EventLog; state: MemoryState; warnings: string[] }> {
  const log = await EventLog.open(dir);
  const { events, warnings } = await log.readAll();
  const state = new MemoryState();
  state.applyAll(events);
  return { log, state, warnings };
}

/** A store with history: ids a0..a9 compacted twice (so snapshot.prev exists), then b0..b4 in the live log. */
async function seeded(): Promise<string> {
  const dir = tmpDir('log');
  const { log, state } = await load(dir);
  const add = async (evs: MemoryEvent[]) => { await log.append(evs); state.applyAll(evs); };
  for (let i = 0; i < 5; i++) await add([rec(`a${i}`), fb(`a${i}`)]);
  await log.compact(state);
  for (let i = 5; i < 10; i++) await add([rec(`a${i}`), fb(`a${i}`)]);
  await log.compact(state);
  for (let i = 0; i < 5; i++) await add([rec(`b${i}`), fb(`b${i}`)]);
  return dir;
}

function assertAll(state: MemoryState, ids: string[]): void {
  for (const id of ids) {
    const m = state.get(id);
    assert.ok(m, `${id} lost`);
    assert.strictEqual(m.confidence.alpha, 2, `${id} replayed twice or lost its feedback`);
  }
}
const A = Array.from({ length: 10 }, (_, i) => `a${i}`);
const B = Array.from({ length: 5 }, (_, i) => `b${i}`);

describe('EventLog', () => {
  it('round-trips appends and starts each file with a generation header', async () => {
    const dir = await seeded();
    const { state, warnings, log } = await load(dir);
    assert.deepStrictEqual(warnings, []);
    assertAll(state, [...A, ...B]);
    assert.strictEqual(state.size, 15);
    const first = JSON.parse(fs.readFileSync(path.join(dir, EVENTS_FILE), 'utf8').split('\n')[0]);
    assert.strictEqual(first.engram, 'events');
    assert.strictEqual(first.generation, 3);
    assert.strictEqual(log.generation, 3);
  });

  it('skips a torn last line with a warning and keeps every other record; the next append repairs it', async () => {
    const dir = await seeded();
    const file = path.join(dir, EVENTS_FILE);
    const size = fs.statSync(file).size;
    fs.truncateSync(file, size - 20); // cut into the last line (b4's feedback)
    const { state, warnings, log } = await load(dir);
    assert.ok(warnings.some(w => /incomplete last line/.test(w)), warnings.join('; '));
    assertAll(state, [...A, 'b0', 'b1', 'b2', 'b3']);
    assert.ok(state.get('b4'), 'b4 was recorded before the torn feedback line');
    await log.append([rec('c0')]);
    const again = await load(dir);
    assert.deepStrictEqual(again.warnings, []);
    assert.ok(again.state.get('c0'));
    assert.strictEqual(again.state.size, 16);
  });

  it('skips a garbled line in the middle, reporting its line number, without losing others', async () => {
    const dir = await seeded();
    const file = path.join(dir, EVENTS_FILE);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.splice(4, 0, '{"type":"recorded","id":"x",\u0000garbage');
    fs.writeFileSync(file, lines.join('\n'));
    const { state, warnings } = await load(dir);
    assert.ok(warnings.some(w => w.includes('line 5')), warnings.join('; '));
    assertAll(state, [...A, ...B]);
  });

  it('falls back to snapshot.prev + events.prev when the snapshot is garbled or emptied', async () => {
    for (const damage of ['garble', 'empty', 'flip'] as const) {
      const dir = await seeded();
      const snap = path.join(dir, SNAPSHOT_FILE);
      if (damage === 'empty') fs.writeFileSync(snap, '');
      else if (damage === 'garble') fs.writeFileSync(snap, '{"engram":"snapshot", this is not json');
      else {
        // A silent bit flip inside a memory's text still parses as JSON: the checksum must catch it.
        const t = fs.readFileSync(snap, 'utf8');
        fs.writeFileSync(snap, t.replace('text of a3', 'text of a8'));
      }
      const { state, warnings, log } = await load(dir);
      assert.ok(warnings.some(w => w.includes('snapshot.json') && w.includes('snapshot.prev.json')), `${damage}: ${warnings.join('; ')}`);
      assertAll(state, [...A, ...B]);
      const a3 = state.get('a3');
      assert.strictEqual(a3?.kind === 'fact' ? a3.content : undefined, 'text of a3');
      // The next compaction must not let the damaged file replace the good prev, and must lose nothing.
      await log.compact(state);
      const after = await load(dir);
      assert.deepStrictEqual(after.warnings, []);
      assertAll(after.state, [...A, ...B]);
    }
  });

  it('never starts empty over existing data: both snapshots damaged -> salvage what parses, keep the file', async () => {
    const dir = await seeded();
    fs.writeFileSync(path.join(dir, SNAPSHOT_PREV_FILE), 'junk');
    const snap = path.join(dir, SNAPSHOT_FILE);
    fs.writeFileSync(snap, fs.readFileSync(snap, 'utf8').replace('text of a3', 'text of a8'));
    const { state, warnings, log } = await load(dir);
    assert.ok(warnings.some(w => /salvaged 10 memories/.test(w)), warnings.join('; '));
    assertAll(state, [...A, ...B]);
    await log.compact(state);
    assert.ok(fs.readdirSync(dir).some(n => n.startsWith('snapshot.damaged-')), 'the damaged snapshot is kept aside');
  });

  it('after the log is emptied, the compacted memories are all still there (with a warning)', async () => {
    const dir = await seeded();
    const { log, state } = await load(dir);
    await log.compact(state);
    fs.writeFileSync(path.join(dir, EVENTS_FILE), '');
    const r = await load(dir);
    assert.ok(r.warnings.some(w => w.includes('events.jsonl is empty')), r.warnings.join('; '));
    assertAll(r.state, [...A, ...B]);
    await r.log.append([rec('c1')]);
    const again = await load(dir);
    assert.deepStrictEqual(again.warnings, []);
    assert.ok(again.state.get('c1'));
  });

  it('compaction is idempotent: repeated compactions and reopenings never double-apply', async () => {
    const dir = await seeded();
    let { log, state } = await load(dir);
    for (let i = 0; i < 3; i++) {
      await log.compact(state);
      ({ log, state } = await load(dir));
      assertAll(state, [...A, ...B]);
      assert.strictEqual(state.size, 15);
    }
  });

  it('a compaction that crashed after writing snapshot.next is completed on open, and later appends survive', async () => {
    const dir = await seeded();
    // Produce the exact snapshot.next a crash would leave, by compacting a copy of the folder.
    const copy = tmpDir('copy');
    for (const n of fs.readdirSync(dir)) if (!n.startsWith('.')) fs.copyFileSync(path.join(dir, n), path.join(copy, n));
    const c = await load(copy);
    await c.log.compact(c.state);
    fs.copyFileSync(path.join(copy, SNAPSHOT_FILE), path.join(dir, SNAPSHOT_NEXT_FILE));

    const { log, state, warnings } = await load(dir);
    assert.deepStrictEqual(warnings, []);
    assertAll(state, [...A, ...B]);
    assert.ok(!fs.existsSync(path.join(dir, SNAPSHOT_NEXT_FILE)));
    await log.append([rec('after-crash'), fb('after-crash')]);
    const again = await load(dir);
    assertAll(again.state, [...A, ...B, 'after-crash']);
  });

  it('forgotten text is gone from every file after two compactions', async () => {
    const dir = await seeded();
    const secret = 'hunter2-SECRET-deploy-key-9f8e';
    const { log, state } = await load(dir);
    const evs: MemoryEvent[] = [rec('s', `the password is ${secret}`), { type: 'deleted', id: 's', at: 3, reason: 'forget' }];
    await log.append([evs[0]]);
    state.apply(evs[0]);
    await log.compact(state); // the secret is now in the snapshot too
    await log.append([evs[1]]);
    state.apply(evs[1]);
    assert.ok(allBytes(dir).includes(secret), 'precondition: on disk before compaction');
    await log.compact(state);
    await log.compact(state);
    assert.ok(!allBytes(dir).includes(secret), 'secret still on disk after two compactions');
    const again = await load(dir);
    assert.ok(!again.state.get('s'));
    assert.ok(again.state.isTombstoned('s'), 'a late duplicate of the forgotten memory stays forgotten');
    again.state.apply(rec('s', secret));
    assert.ok(!again.state.get('s'));
    assertAll(again.state, [...A, ...B]);
  });

  it('drops expired memories at compaction and reports them', async () => {
    const dir = tmpDir('expire');
    const { log, state } = await load(dir);
    const m = { ...testMemory('old', 'expiring text'), expiresAt: 1000 };
    const evs: MemoryEvent[] = [{ type: 'recorded', id: 'old', at: 1, memory: m }, rec('keep')];
    await log.append(evs);
    state.applyAll(evs);
    const r = await log.compact(state, { now: 2000 });
    assert.deepStrictEqual(r.expired, ['old']);
    const again = await load(dir);
    assert.ok(!again.state.get('old'));
    assert.ok(again.state.get('keep'));
  });

  it('readNew picks up what another writer appended, also across its compaction', async () => {
    const dir = tmpDir('follow');
    const w = await load(dir);
    const r = await load(dir);
    await w.log.append([rec('x1')]);
    w.state.apply(rec('x1'));
    let n = await r.log.readNew();
    assert.deepStrictEqual(n.events.map(e => e.id), ['x1']);
    await w.log.append([rec('x2')]);
    w.state.apply(rec('x2'));
    await w.log.compact(w.state);
    await w.log.append([rec('x3')]);
    n = await r.log.readNew();
    assert.strictEqual(n.reset, false);
    assert.deepStrictEqual(n.events.map(e => e.id), ['x2', 'x3']);
    // Our own appends are not handed back to us.
    await r.log.append([rec('y1')]);
    assert.deepStrictEqual((await r.log.readNew()).events, []);
    // Two compactions elsewhere: the follower must rebuild, and is told so.
    await w.log.readNew();
    w.state.applyAll([rec('x3'), rec('y1')]);
    await w.log.compact(w.state);
    await w.log.compact(w.state);
    n = await r.log.readNew();
    assert.strictEqual(n.reset, true);
    const s = new MemoryState();
    s.applyAll(n.events);
    assert.deepStrictEqual(s.all().map(m => m.id).sort(), ['x1', 'x2', 'x3', 'y1']);
  });

  it('a new log that got the inode number of the one the follower was reading is not mistaken for it', async () => {
    // File systems reuse inode numbers at once: after two compactions the current log can carry the number
    // of the follower's deleted file. The follower must see a different generation and rebuild, not read
    // the new file from its old offset (which silently skipped everything before that offset).
    const dir = tmpDir('inode');
    const w = await load(dir);
    const r = await load(dir);
    for (let i = 0; i < 20; i++) { await w.log.append([rec(`p${i}`)]); w.state.apply(rec(`p${i}`)); }
    assert.strictEqual((await r.log.readNew()).events.length, 20);
    await w.log.compact(w.state);
    await w.log.compact(w.state);
    for (let i = 0; i < 30; i++) { await w.log.append([rec(`q${i}`)]); w.state.apply(rec(`q${i}`)); }
    // What the file system may do: the new events.jsonl has the number the follower remembers.
    (r.log as unknown as { ino: number }).ino = fs.statSync(path.join(dir, EVENTS_FILE)).ino;
    const n = await r.log.readNew();
    assert.strictEqual(n.reset, true, 'the follower did not notice it was reading another file');
    const s = new MemoryState();
    s.applyAll(n.events);
    assert.strictEqual(s.size, 50);
  });

  it('two processes that both opened an empty folder see each other without a reset', async () => {
    const dir = tmpDir('empty2');
    const a = await load(dir);
    const b = await load(dir);
    await a.log.append([rec('x1')]);
    await b.log.append([rec('y1')]);
    const nb = await b.log.readNew();
    assert.strictEqual(nb.reset, false);
    assert.deepStrictEqual(nb.events.map(e => e.id), ['x1']);
    const na = await a.log.readNew();
    assert.deepStrictEqual(na.events.map(e => e.id), ['y1']);
    assert.strictEqual((await load(dir)).state.size, 2);
  });

  it('a full disk fails the append with ENOSPC, leaves no partial line, and keeps what was stored', async () => {
    const dir = await seeded();
    const { log } = await load(dir);
    const before = fs.readFileSync(path.join(dir, EVENTS_FILE));
    // Patch the shared CommonJS module object (the store reads fs.writeSync through it at call time).
    const nodeFs = require('fs') as { writeSync: typeof fs.writeSync };
    const orig = nodeFs.writeSync;
    let calls = 0;
    // The first write goes half through, then the disk is full.
    nodeFs.writeSync = ((fd: number, buf: Uint8Array, off?: number, len?: number, pos?: number) => {
      calls++;
      if (calls === 1) return orig(fd, buf, off ?? 0, Math.floor((len ?? buf.length) / 2), pos);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as typeof fs.writeSync;
    try {
      await assert.rejects(log.append([rec('big', 'y'.repeat(10_000))]), (e: unknown) => e instanceof StoreWriteError && e.code === 'ENOSPC' && /disk is full/.test(e.message));
    } finally {
      nodeFs.writeSync = orig;
    }
    assert.ok(calls >= 2);
    assert.deepStrictEqual(fs.readFileSync(path.join(dir, EVENTS_FILE)), before, 'no partial line left behind');
    const { state, warnings } = await load(dir);
    assert.deepStrictEqual(warnings, []);
    assertAll(state, [...A, ...B]);
  });

  it('a read-only folder fails the append with a clear error (EACCES/EROFS) and loses nothing', async function () {
    const dir = await seeded();
    const snapshotBefore = fs.readFileSync(path.join(dir, SNAPSHOT_FILE));
    if (process.getuid?.() === 0) {
      // root ignores permissions: run the writer as an unprivileged user instead.
      const script = await bundleStandalone('test/unit/store-child.ts', 'store-child');
      // Readable by the other user, not writable (the store creates its files 0600: memories are private).
      fs.chmodSync(dir, 0o755);
      for (const n of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, n), 0o644);
      const r = spawnSync(process.execPath, [script, dir, 'ro', '1', '0'], { uid: 65534, gid: 65534, encoding: 'utf8' });
      assert.notStrictEqual(r.status, 0, 'append must fail');
      assert.match(r.stderr, /(No permission to write|read-only)[^\n]*(EACCES|EROFS|EPERM)/, r.stderr);
      assert.match(r.stderr, /at .*append/, 'it is the append that fails, after reading worked');
      assert.strictEqual(r.stdout, '', 'nothing acknowledged');
    } else {
      fs.chmodSync(dir, 0o555);
      for (const n of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, n), 0o444);
      try {
        const { log } = await load(dir);
        await assert.rejects(log.append([rec('ro-0')]), (e: unknown) => e instanceof StoreWriteError && ['EACCES', 'EROFS', 'EPERM'].includes(e.code));
      } finally {
        fs.chmodSync(dir, 0o755);
        for (const n of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, n), 0o644);
      }
    }
    assert.deepStrictEqual(fs.readFileSync(path.join(dir, SNAPSHOT_FILE)), snapshotBefore);
    const { state } = await load(dir);
    assertAll(state, [...A, ...B]);
    assert.ok(!state.get('ro-0'));
    assert.ok(fs.existsSync(path.join(dir, EVENTS_PREV_FILE)));
  });

  it('a stale lock left by a dead process is taken over; a live holder makes others wait', async () => {
    const dir = tmpDir('lock');
    fs.writeFileSync(path.join(dir, '.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), nonce: 'dead', at: 0 }));
    let reason = '';
    const v = await withLock(dir, () => 42, { onStale: r => { reason = r; }, timeoutMs: 2000 });
    assert.strictEqual(v, 42);
    assert.match(reason, /not running/);
    assert.ok(!fs.existsSync(path.join(dir, '.lock')), 'released');
    // A fresh lock held by a live process (us, via another acquisition) blocks until released.
    const order: string[] = [];
    const first = withLock(dir, async () => { order.push('first-start'); await new Promise(r => setTimeout(r, 100)); order.push('first-end'); });
    const second = withLock(dir, () => { order.push('second'); });
    await Promise.all([first, second]);
    assert.deepStrictEqual(order, ['first-start', 'first-end', 'second']);
  });
});
