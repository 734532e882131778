// `engram forget` over the real CLI bundle: when the command returns, no byte of the forgotten text is in
// any file of the store folder (the .prev pair included), and a debt an earlier process left behind is
// paid by the next command that opens the store, a reading one included.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { buildCli, repoRoot } from './buildCli';
import { COMPACT_PENDING_FILE, MemoryStore } from '../../src/store/memoryStore';

const ROOT = repoRoot();
let CLI = '';

function run(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Every file under `dir` (recursively) whose bytes contain `needle`, as paths relative to `dir`. */
function filesHolding(dir: string, needle: string): string[] {
  const want = Buffer.from(needle, 'utf8');
  const hits: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (fs.readFileSync(p).includes(want)) hits.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return hits;
}

// Distinctive words in every field the import writes, and their lower-case form (the signature key is
// kept lower case), so a hit cannot come from anything but this memory.
const CAUSE = 'Quokkabridge relay drops frames when Zebrafin mode is on';
const FIX = 'turn off Zebrafin in relay.toml before the Quokkabridge deploy';
const ERROR = "src/relay/quokkabridge.ts(12,7): error TS2322: Type 'ZebrafinMode' is not assignable to type 'number'.";
const NEEDLES = ['Quokkabridge', 'quokkabridge', 'Zebrafin', 'zebrafin'];

describe('forget erases the text before the command returns (CLI)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: string;

  before(async () => { CLI = await buildCli('engram-forget-'); });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-forget-')); store = path.join(dir, 'store'); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function importGoneAndKept(): Promise<void> {
    const file = path.join(dir, 'in.jsonl');
    fs.writeFileSync(file, [
      JSON.stringify({ kind: 'lesson', id: 'gone-1', errorSignature: ERROR, rootCause: CAUSE, fixApproach: FIX, scope: ['src/relay/**'], tags: ['zebrafin'] }),
      JSON.stringify({ kind: 'fact', id: 'kept-1', content: 'Release notes live in docs/releases' }),
    ].join('\n') + '\n');
    const r = run(['--store', store, 'import', file]);
    assert.strictEqual(r.code, 0, r.err);
    // A compaction first, so the snapshot and the .prev pair hold the text too before the forget.
    const s = await MemoryStore.open(store);
    await s.compact();
    await s.close();
    assert.strictEqual(run(['--store', store, 'feedback', 'gone-1', 'prevented']).code, 0);
    for (const f of ['snapshot.json', 'events.prev.jsonl']) assert.ok(filesHolding(store, 'Quokkabridge').includes(f), `${f} holds the text before the forget`);
  }

  it('import, then forget: no file of the store folder holds any byte of the text, .prev pair included', async () => {
    await importGoneAndKept();
    for (const n of NEEDLES) assert.ok(filesHolding(store, n).length > 0, `before forget "${n}" is on disk (the check can see it)`);
    const r = run(['--store', store, 'forget', 'gone-1']);
    assert.strictEqual(r.code, 0, r.err);
    for (const n of NEEDLES) assert.deepStrictEqual(filesHolding(store, n), [], `"${n}" is left in these files`);
    assert.ok(!fs.existsSync(path.join(store, COMPACT_PENDING_FILE)), 'nothing is owed');
    assert.ok(fs.existsSync(path.join(store, 'events.prev.jsonl')) && fs.existsSync(path.join(store, 'snapshot.prev.json')), 'the recovery pair is still kept');
    const shown = run(['--store', store, 'export']);
    assert.strictEqual(shown.code, 0, shown.err);
    assert.match(shown.out, /Release notes live in docs\/releases/, 'the other memory survives');
    assert.doesNotMatch(shown.out, /gone-1/);
  });

  it('a debt left by a process that died is paid by the next command, a reading one included', async () => {
    await importGoneAndKept();
    // A writer that forgets and compacts once, then dies before its follow-up (never closed).
    const s = await MemoryStore.open(store, { compactDelayMs: 600_000 });
    await s.forget('gone-1');
    assert.strictEqual(await s.flushCompaction(), true);
    assert.strictEqual(fs.readFileSync(path.join(store, COMPACT_PENDING_FILE), 'utf8'), '1', 'one compaction still owed');
    assert.ok(filesHolding(store, 'Quokkabridge').length > 0, 'the .prev pair still holds the text');
    const r = run(['--store', store, 'stats']);
    assert.strictEqual(r.code, 0, r.err);
    for (const n of NEEDLES) assert.deepStrictEqual(filesHolding(store, n), [], `"${n}" is left in these files`);
    assert.ok(!fs.existsSync(path.join(store, COMPACT_PENDING_FILE)), 'the debt is paid');
  });

  it('a reading command with nothing owed still opens read-only (writes nothing)', async () => {
    await importGoneAndKept();
    const before = fs.readdirSync(store).map(n => [n, fs.statSync(path.join(store, n)).mtimeMs] as const);
    assert.strictEqual(run(['--store', store, 'stats']).code, 0);
    const after = fs.readdirSync(store).map(n => [n, fs.statSync(path.join(store, n)).mtimeMs] as const);
    assert.deepStrictEqual(after, before);
  });
});
