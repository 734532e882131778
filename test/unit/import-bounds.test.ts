// Issue 10, "quadratic imports and merges": every input is bounded (line size before buffering, the error
// list, the team file) and finding a repeated lesson does not compare it with every earlier one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { Readable } from 'stream';

import { FUZZY_WINDOW, LessonDedup } from '../../src/core/lessonDedup';
import { MAX_TEAM_FILE_BYTES, mergeTeamLines, mergeTeamLinesAsync, TEAM_LINES_PER_TURN } from '../../src/core/team';
import type { Lesson } from '../../src/core/types';
import { boundedLines, OversizedLine } from '../../src/store/lineReader';
import { MAX_REPORTED_ERRORS, MemoryStore } from '../../src/store/memoryStore';
import { buildCli } from './buildCli';

const SIG = "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.";
const lessonLine = (o: Record<string, unknown>) => JSON.stringify({ kind: 'lesson', errorSignature: SIG, rootCause: 'form values are strings', ...o });

/** A stream of `mb` MiB of "x" in 1 MiB chunks, never one big string. */
function* bigLine(mb: number): Generator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  for (let i = 0; i < mb; i++) yield chunk;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('import bounds: lines are bounded before they are buffered', () => {
  it('splits on newlines across chunks, keeps UTF-8 intact, and reports an over-long line by size', async () => {
    const text = 'first\r\n한국어 줄\n\n' + 'y'.repeat(50) + '\nlast';
    const chunks = [Buffer.from(text).subarray(0, 9), Buffer.from(text).subarray(9, 30), Buffer.from(text).subarray(30)];
    assert.deepStrictEqual(await collect(boundedLines(Readable.from(chunks))), ['first\r', '한국어 줄', '', 'y'.repeat(50), 'last']);
    const small = await collect(boundedLines(Readable.from([Buffer.from(`ok\n${'z'.repeat(40)}\nnext\n`)]), 10));
    assert.strictEqual(small[0], 'ok');
    assert.ok(small[1] instanceof OversizedLine && small[1].bytes === 40);
    assert.strictEqual(small[2], 'next');
  });

  it('a 64 MB line is skipped with an error while it streams past, and the good line after it is imported', async function () {
    this.timeout(60_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-bounds-'));
    const store = await MemoryStore.open(dir, { vectors: false });
    try {
      const input = Readable.from((function* () {
        yield Buffer.from(`${lessonLine({ id: 'before', fixApproach: 'parse it' })}\n`);
        yield* bigLine(64);
        yield Buffer.from(`\n${lessonLine({ id: 'after', fixApproach: 'parse it first' })}\n`);
      })());
      const before = process.memoryUsage().rss;
      const report = await store.importLines(boundedLines(input));
      const grew = process.memoryUsage().rss - before;
      assert.strictEqual(report.imported, 2);
      assert.ok(store.get('before') && store.get('after'), 'the lines on both sides of the big one are imported');
      assert.strictEqual(report.errors.length, 1);
      assert.strictEqual(report.errors[0].line, 2);
      assert.match(report.errors[0].error, /larger than 1 MB \(67108864 bytes\); skipped/);
      // Never buffered whole: the reader holds at most MAX_LINE_BYTES of it (plus a chunk).
      assert.ok(grew < 48 * 1024 * 1024, `rss grew by ${Math.round(grew / 1e6)} MB`);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI skips a 64 MB line (from a file and from stdin) and imports the line after it', async function () {
    this.timeout(120_000);
    const cli = await buildCli('engram-bounds-cli-');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-bounds-cli-'));
    const file = path.join(dir, 'big.jsonl');
    const fd = fs.openSync(file, 'w');
    try {
      fs.writeSync(fd, `${lessonLine({ id: 'before', fixApproach: 'parse it' })}\n`);
      for (const chunk of bigLine(64)) fs.writeSync(fd, chunk);
      fs.writeSync(fd, `\n${lessonLine({ id: 'after', fixApproach: 'parse it first' })}\n`);
    } finally { fs.closeSync(fd); }
    try {
      for (const [args, input] of [[['import', file]], [['import', '-'], fs.readFileSync(file)]] as [string[], Buffer?][]) {
        const store = fs.mkdtempSync(path.join(dir, 'store-'));
        // A 48 MB heap: the CLI that buffered the line whole (readline) ran out of memory in it and lost the
        // line after it; 600 MB lines went past V8's longest string at any heap size.
        const r = spawnSync(process.execPath, ['--max-old-space-size=48', cli, '--store', store, ...args], { input, encoding: 'utf8', env: { ...process.env, ENGRAM_STORE_DIR: '' } });
        assert.strictEqual(r.status, 0, r.stderr);
        const out = JSON.parse(r.stdout);
        assert.strictEqual(out.imported, 2, r.stdout);
        assert.strictEqual(out.errors.length, 1);
        assert.match(out.errors[0].error, /larger than 1 MB \(67108864 bytes\)/);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(path.dirname(cli), { recursive: true, force: true });
    }
  });
});

describe('import bounds: reports and dedup', function () {
  this.timeout(60_000);
  let dir = '';
  let store: MemoryStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-bounds-'));
    store = await MemoryStore.open(dir, { vectors: false });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the first 1000 errors and counts the rest', async () => {
    const lines = (function* () {
      for (let i = 0; i < 5000; i++) yield `{"bad": ${i}`;
      yield lessonLine({ fixApproach: 'parse it' });
    })();
    const report = await store.importLines(lines);
    assert.strictEqual(MAX_REPORTED_ERRORS, 1000);
    assert.strictEqual(report.errors.length, 1000);
    assert.strictEqual(report.errorsOmitted, 4000);
    assert.strictEqual(report.skipped, 5000);
    assert.strictEqual(report.imported, 1);
    assert.strictEqual(report.errors[999].line, 1000);
  });

  it('8,000 id-less lessons sharing a signature: repeats merge, distinct fixes stay', async () => {
    const n = 8000;
    const lines = (function* () {
      for (let i = 0; i < n; i++) {
        // Half are word-for-word repeats of 100 fixes, half are fixes of their own.
        const fix = i % 2 ? `set option${i % 200} in config${i % 200}` : `unique remedy ${i} step${i} apply${i}`;
        yield lessonLine({ fixApproach: fix });
      }
    })();
    const report = await store.importLines(lines, { batchSize: 500 });
    assert.strictEqual(report.imported, n / 2 + 100);
    assert.strictEqual(report.merged, n / 2 - 100);
    assert.strictEqual(store.list({ kinds: ['lesson'] }).length, n / 2 + 100);
  });

  it('finding a repeat costs at most FUZZY_WINDOW + 1 comparisons per lesson, however many share its signature', () => {
    // The cost that was quadratic is the number of lesson-to-lesson comparisons: counted, not timed.
    const index = new LessonDedup();
    const n = 8000;
    let merged = 0;
    for (let i = 0; i < n; i++) {
      const l = {
        id: `l${i}`, kind: 'lesson', errorSignature: 'tsc:ts2322', scope: [], owner: { scope: 'workspace' }, evidence: [],
        fixApproach: i % 2 ? `set option${i % 200} in config${i % 200}` : `unique remedy ${i} step${i} apply${i}`,
      } as unknown as Lesson;
      const before = index.comparisons;
      if (index.find(l)) merged++; else index.add(l);
      assert.ok(index.comparisons - before <= FUZZY_WINDOW + 1, `lesson ${i}: ${index.comparisons - before} comparisons`);
    }
    assert.strictEqual(merged, n / 2 - 100);
    assert.ok(index.comparisons <= n * (FUZZY_WINDOW + 1));
    // Near-copies (not word for word) are still found among the recent lessons of the signature.
    const near = { id: 'x', kind: 'lesson', errorSignature: 'tsc:ts2322', scope: [], owner: { scope: 'workspace' }, evidence: [], fixApproach: 'unique remedy 7998 step7998 apply7998 again' } as unknown as Lesson;
    assert.strictEqual(index.find(near)?.id, 'l7998');
  });

  it('a team file over the size limit is refused with a clear message', () => {
    const r = mergeTeamLines('x'.repeat(MAX_TEAM_FILE_BYTES + 1));
    assert.strictEqual(r.memories.length, 0);
    assert.match(r.errors[0].error, /over the 8 MB limit, so Engram does not read it/);
  });

  it('a team file of 8,000 lessons sharing a signature merges by key, not pair by pair', () => {
    const lines: string[] = [];
    for (let i = 0; i < 8000; i++) {
      const fix = i % 2 ? `set option${i % 200} in config${i % 200}` : `unique remedy ${i} step${i} apply${i}`;
      lines.push(lessonLine({ id: `t${String(i).padStart(5, '0')}`, fixApproach: fix, evidence: [`e${i}`], maturity: 'rule' }));
    }
    const r = mergeTeamLines(lines.join('\n'));
    assert.strictEqual(r.errors.length, 0);
    assert.strictEqual(r.memories.length, 4000 + 100);
    assert.strictEqual(r.merged, 4000 - 100);
    const first = r.memories.find(m => m.id === 't00001') as Lesson;
    assert.strictEqual(first.fixApproach, 'set option1 in config1');
    assert.ok(first.evidence.includes('t00201') && first.evidence.includes('e201'), 'a repeat is evidence on the first by id');
    assert.strictEqual(first.maturity, 'pattern', 'a claimed rule is capped at pattern');
  });

  it('the host merges a team file in turns, handing the thread back, with the same result', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 8000; i++) lines.push(lessonLine({ id: `t${String(i).padStart(5, '0')}`, fixApproach: `set option${i % 200} in config${i % 200}` }));
    const text = lines.join('\n');
    const now = Date.UTC(2026, 5, 1);
    let ticks = 0;
    let stop = false;
    const tick = () => { if (!stop) { ticks++; setImmediate(tick); } };
    setImmediate(tick);
    const r = await mergeTeamLinesAsync(text, now);
    stop = true;
    assert.ok(r.turns >= 8000 / TEAM_LINES_PER_TURN - 1, `${r.turns} turns`);
    assert.ok(ticks >= r.turns / 2, `other work ran ${ticks} times during ${r.turns} turns`);
    const sync = mergeTeamLines(text, now);
    assert.deepStrictEqual({ memories: r.memories, errors: r.errors, merged: r.merged }, sync);
  });
});

