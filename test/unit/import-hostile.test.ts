// Hostile import files, through the real CLI (exit code + JSON report) and the store API: every bad line is
// reported with its line number and a reason, every good line is kept, nothing reaches Object.prototype,
// and a big file imports within a small, fixed heap. importFormat.test.ts covers single-line parsing; this
// covers whole files as a person (or an attacker) would hand them over.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import type { ImportReport } from '../../src/store/memoryStore';
import { MemoryStore } from '../../src/store/memoryStore';
import { buildCli, repoRoot } from './buildCli';

const ROOT = repoRoot();

type Expect = 'ok' | 'blank' | RegExp;
interface HostileLine { bytes: Buffer; expect: Expect; what: string }

const line = (text: string, expect: Expect, what: string): HostileLine => ({ bytes: Buffer.from(text, 'utf8'), expect, what });
const json = (o: unknown, expect: Expect, what: string) => line(JSON.stringify(o), expect, what);

/** Deterministic bytes 0x00..0xff without line breaks (a break would renumber the lines after it). */
function garbage(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    let v = x >>> 24;
    if (v === 0x0a || v === 0x0d) v = 0x7f;
    b[i] = v;
  }
  return b;
}

function hostileLines(): HostileLine[] {
  const deepArray = '['.repeat(200_000) + ']'.repeat(200_000);
  let deepObject = '"bottom"';
  for (let i = 0; i < 5_000; i++) deepObject = `{"a":${deepObject}}`;
  return [
    json({ kind: 'fact', id: 'good-1', content: 'This repo uses pnpm workspaces' }, 'ok', 'a good fact'),
    line('', 'blank', 'an empty line'),
    line('   \t ', 'blank', 'a whitespace line'),
    json({ kind: 'fact', content: 42 }, /content/, 'wrong type (number for content)'),
    json({ kind: 'lesson', errorSignature: 'TypeError: x is undefined', rootCause: ['not', 'a', 'string'] }, /rootCause/, 'wrong type (array for rootCause)'),
    json({ kind: 'lesson', errorSignature: 'e', rootCause: 'r', scope: { glob: 'src/**' } }, /scope/, 'wrong type (object for scope)'),
    json({ kind: 'fact' }, /content/, 'missing field (fact without content)'),
    json({ kind: 'lesson', rootCause: 'cause without error' }, /errorSignature/, 'missing field (lesson without errorSignature)'),
    json({ kind: 'wizard', content: 'x' }, /kind/, 'unknown kind'),
    json({ kind: 'fact', content: 'ok', createdAt: 'last tuesday' }, /createdAt/, 'bad timestamp'),
    json({ kind: 'fact', content: 'ok', id: '../../etc/passwd' }, /id/, 'path-like id'),
    line(JSON.stringify({ kind: 'fact', content: 'x'.repeat(1024 * 1024 + 100) }), /larger than 1 MB/, 'a line over 1 MB'),
    json({ kind: 'fact', id: 'good-2', content: 'Run the e2e suite with --workers=1 on CI' }, 'ok', 'a good fact after the huge line'),
    json({ kind: 'fact', id: 'good-1', content: 'same id again' }, /duplicate id "good-1"/, 'duplicate id within the file'),
    json({ kind: 'fact', id: 'pre-1', content: 'collides with the store' }, /duplicate id "pre-1".*already in the store/, 'duplicate id already in the store'),
    line('{"__proto__":{"polluted":"top"},"kind":"fact","content":"a"}', /__proto__/, '__proto__ at top level'),
    line('{"kind":"fact","content":"a","owner":{"__proto__":{"polluted":"nested"}}}', /__proto__/, '__proto__ nested in owner'),
    line('{"kind":"episode","trigger":"t","summary":"s","outcome":"success","steps":[{"action":"a","result":"r","__proto__":{"polluted":"step"}}]}', /__proto__/, '__proto__ inside an array element'),
    line('{"constructor":{"prototype":{"polluted":"ctor"}},"kind":"fact","content":"a"}', /constructor/, 'constructor.prototype at top level'),
    line('{"kind":"fact","content":"a","tags":["x"],"extra":{"constructor":{"prototype":{"polluted":"deep"}}}}', /constructor/, 'constructor nested in an unknown field'),
    line('{"prototype":{"polluted":"proto"},"kind":"fact","content":"a"}', /prototype/, 'prototype at top level'),
    { bytes: garbage(4096, 7), expect: /not valid JSON/, what: 'binary garbage' },
    { bytes: Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('{"kind":"fact","content":"x"}')]), expect: /not valid JSON/, what: 'invalid UTF-8 before the JSON' },
    { bytes: Buffer.concat([Buffer.from('{"kind":"fact","id":"good-3","content":"caf'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1]), Buffer.from(' latte"}')]), expect: 'ok', what: 'invalid UTF-8 inside a string (decoded as U+FFFD, kept)' },
    line('\u0000\u0000\u0000', /not valid JSON/, 'NUL bytes'),
    line('[1,2,3]', /object/, 'an array'),
    line('null', /object/, 'null'),
    line('"just a string"', /object/, 'a bare string'),
    line('{"kind":"fact","content":"unterminated', /not valid JSON/, 'truncated JSON'),
    line(deepArray, /object/, '200k-deep nested array'),
    line(`{"kind":"fact","id":"good-4","content":"deep extra field ignored","extra":${deepObject}}`, 'ok', '5k-deep object in an unknown field'),
    json({ kind: 'rule', id: 'good-5', instruction: 'Never run migrations from a laptop' }, 'ok', 'a good rule at the end'),
  ];
}

function fileBytes(lines: HostileLine[], eol = '\n'): Buffer {
  const parts: Buffer[] = [];
  for (const l of lines) parts.push(l.bytes, Buffer.from(eol));
  return Buffer.concat(parts);
}

/** What the report must say: every bad line by number with a matching reason, nothing else. */
function checkReport(report: ImportReport, lines: HostileLine[], label: string): void {
  const bad = lines.map((l, i) => ({ ...l, lineNo: i + 1 })).filter(l => l.expect instanceof RegExp);
  const good = lines.filter(l => l.expect === 'ok');
  assert.deepStrictEqual(report.errors.map(e => e.line), bad.map(b => b.lineNo), `${label}: exactly the bad lines are reported, by number`);
  for (const [i, b] of bad.entries()) {
    assert.match(report.errors[i].error, b.expect as RegExp, `${label}: line ${b.lineNo} (${b.what}) says why`);
    assert.ok(report.errors[i].error.length < 500, `${label}: line ${b.lineNo}: the reason is a sentence, not the line echoed back`);
  }
  assert.strictEqual(report.imported, good.length, `${label}: every good line is kept`);
  assert.strictEqual(report.skipped, bad.length, `${label}: skipped = bad lines (blank lines are neither)`);
}

function assertPrototypeClean(): void {
  const probe = {} as Record<string, unknown>;
  assert.strictEqual(probe.polluted, undefined, 'Object.prototype.polluted');
  assert.strictEqual(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  assert.strictEqual(typeof ({}).constructor, 'function');
  assert.strictEqual(({}).toString(), '[object Object]');
}

describe('import: hostile files (CLI and store API)', function () {
  this.timeout(300_000);
  let CLI = '';
  let dir = '';

  before(async () => {
    CLI = await buildCli('engram-hostile-cli-');
  });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-hostile-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the CLI in a child whose heap is capped, so "bounded memory" is a pass/fail fact, not a timing. */
  function cli(args: string[], heapMb = 0): { code: number; out: string; err: string } {
    const node = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
    const r = spawnSync(process.execPath, [...node, CLI, ...args], { encoding: 'utf8', cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
  }

  function seedStore(store: string): void {
    const seed = path.join(dir, 'seed.jsonl');
    fs.writeFileSync(seed, JSON.stringify({ kind: 'fact', id: 'pre-1', content: 'already here' }) + '\n');
    const r = cli(['--store', store, 'import', seed]);
    assert.strictEqual(r.code, 0, r.err);
  }

  it('CLI: each bad line reported by number and reason, good lines kept, exit 0', () => {
    const store = path.join(dir, 'store');
    seedStore(store);
    const lines = hostileLines();
    const file = path.join(dir, 'hostile.jsonl');
    fs.writeFileSync(file, fileBytes(lines));
    const r = cli(['--store', store, 'import', file]);
    assert.strictEqual(r.code, 0, `exit 0 when some lines were usable; stderr: ${r.err}`);
    checkReport(JSON.parse(r.out) as ImportReport, lines, 'CLI');

    const exported = cli(['--store', store, 'export']);
    assert.strictEqual(exported.code, 0, exported.err);
    const ids = exported.out.trim().split('\n').map(l => (JSON.parse(l) as { id: string }).id).sort();
    assert.deepStrictEqual(ids, ['good-1', 'good-2', 'good-3', 'good-4', 'good-5', 'pre-1']);
    const good1 = exported.out.split('\n').find(l => l.includes('"good-1"'))!;
    assert.match(good1, /pnpm workspaces/, 'the first of two lines with the same id wins');
    const good3 = exported.out.split('\n').find(l => l.includes('"good-3"'))!;
    assert.match(good3, /caf\uFFFD\(\uFFFD\uFFFD latte/, 'invalid UTF-8 is replaced, the rest of the text kept');
    const good4 = exported.out.split('\n').find(l => l.includes('"good-4"'))!;
    assert.doesNotMatch(good4, /"extra"|bottom/, 'unknown fields are dropped, not stored');
    for (const l of exported.out.trim().split('\n')) assert.doesNotMatch(l, /polluted/);
  });

  it('CLI: a file of nothing but garbage exits 1 with every line reported', () => {
    const store = path.join(dir, 'store');
    const lines = [garbage(300, 1), garbage(300, 2), Buffer.from('{"kind":'), garbage(10, 3)];
    fs.writeFileSync(path.join(dir, 'junk.bin'), Buffer.concat(lines.flatMap(b => [b, Buffer.from('\r\n')])));
    const r = cli(['--store', store, 'import', path.join(dir, 'junk.bin')]);
    assert.strictEqual(r.code, 1);
    const report = JSON.parse(r.out) as ImportReport;
    assert.deepStrictEqual(report.errors.map(e => e.line), [1, 2, 3, 4]);
    assert.strictEqual(report.imported, 0);
  });

  it('store API: the same report (CRLF and a BOM too), and Object.prototype untouched', async () => {
    const storeDir = path.join(dir, 'store');
    const store = await MemoryStore.open(storeDir, { vectors: false });
    try {
      await store.importLines([JSON.stringify({ kind: 'fact', id: 'pre-1', content: 'already here' })]);
      const lines = hostileLines();
      const text = '\uFEFF' + fileBytes(lines, '\r\n').toString('utf8');
      const report = await store.importLines(text.split('\n'));
      checkReport(report, lines, 'store API');
      assertPrototypeClean();
      for (const m of store.list()) {
        assert.strictEqual(Object.getPrototypeOf(m), Object.prototype, `${m.id} is a plain object`);
        assert.ok(!Object.prototype.hasOwnProperty.call(m, '__proto__') && !Object.prototype.hasOwnProperty.call(m, 'constructor'), `${m.id} carries no hostile key`);
      }
      assert.deepStrictEqual(store.list().map(m => m.id).sort(), ['good-1', 'good-2', 'good-3', 'good-4', 'good-5', 'pre-1']);
    } finally {
      await store.close();
    }
    // Reopening replays the log: what the log holds must be just as clean.
    const again = await MemoryStore.open(storeDir, { vectors: false, readOnly: true });
    try {
      assert.strictEqual(again.list().length, 6);
      assertPrototypeClean();
    } finally {
      await again.close();
    }
  });

  it('CLI: a 50 000-line file (bad lines sprinkled in) imports within a 224 MB heap, with exact line numbers', () => {
    const store = path.join(dir, 'store');
    const file = path.join(dir, 'big.jsonl');
    const badAt = new Set([1, 777, 25_000, 39_999, 50_000]);
    const fd = fs.openSync(file, 'w');
    let chunk: string[] = [];
    for (let n = 1; n <= 50_000; n++) {
      if (badAt.has(n)) chunk.push(n % 2 ? '{"kind":"fact","content":' : '{"__proto__":{"polluted":1},"kind":"fact","content":"x"}');
      else chunk.push(JSON.stringify({
        kind: n % 3 ? 'fact' : 'lesson', id: `big-${n}`,
        ...(n % 3 ? { content: `Fact number ${n}: the service ${n % 97} listens on port ${3000 + (n % 1000)} in staging` }
          : { errorSignature: `Error: ECONNREFUSED 127.0.0.1:${3000 + (n % 1000)} (service ${n % 97})`, rootCause: `service ${n % 97} was not started before test ${n}`, fixApproach: `start service ${n % 97} in the pretest hook (${n})` }),
      }));
      if (chunk.length === 5000) { fs.writeSync(fd, chunk.join('\n') + '\n'); chunk = []; }
    }
    if (chunk.length) fs.writeSync(fd, chunk.join('\n') + '\n');
    fs.closeSync(fd);
    assert.ok(fs.statSync(file).size > 5 * 1024 * 1024, 'the file is several MB');

    // The store keeps every live memory in memory (state, word index, signatures): 50k memories peak at
    // 130-165 MB of heap measured with --trace-gc, so 160 MB failed by chance. 224 MB still fails an
    // import that holds the file, its parsed lines or per-line garbage on top of that.
    const r = cli(['--store', store, 'import', file], 224);
    assert.strictEqual(r.code, 0, `imports under a 224 MB heap (an out-of-memory crash fails here): ${r.err.slice(0, 500)}`);
    const report = JSON.parse(r.out) as ImportReport;
    assert.deepStrictEqual(report.errors.map(e => e.line), [...badAt]);
    assert.strictEqual(report.imported + (report.merged ?? 0), 50_000 - badAt.size);
    const stats = cli(['--store', store, 'stats', '--json']);
    assert.strictEqual((JSON.parse(stats.out) as { memories: number }).memories, report.imported);
  });
});
