// `engram replay` reads its trace as a stream (issue 19): a trace's length costs time, not memory. A line
// too long to hold is skipped unread, with a warning, and the lines after it are replayed; a trace of
// bad lines gives a report of bounded size.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildCli, repoRoot } from './buildCli';

describe('engram replay streams its trace', function () {
  this.timeout(120_000);
  let cli = '';
  let dir = '';
  const trace = fs.readFileSync(path.join(repoRoot(), 'test/fixtures/traces/awk-missing-brace.jsonl'), 'utf8').trim().split('\n');
  before(async () => { cli = await buildCli('engram-cli-replay-'); dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-cli-replay-run-')); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function replay(name: string, lines: string[]): { episodes: unknown[]; lessons: unknown[]; warnings: string[] } {
    const file = path.join(dir, `${name}.jsonl`);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const r = spawnSync(process.execPath, [cli, '--store', path.join(dir, `store-${name}`), 'replay', file, '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    assert.strictEqual(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { episodes: unknown[]; lessons: unknown[]; warnings: string[] };
  }

  it('skips a line over 8 MB unread and replays the rest as without it', () => {
    const plain = replay('plain', trace);
    assert.ok(plain.episodes.length > 0 && plain.lessons.length > 0, 'the fixture stores an episode and a lesson');
    const huge = JSON.stringify({ t: 0, type: 'open', file: 'big.txt', text: 'x'.repeat(9 * 1024 * 1024) });
    const withHuge = replay('huge', [huge, ...trace]);
    assert.deepStrictEqual(withHuge.warnings, [`line 1: larger than 8 MB (${Buffer.byteLength(huge)} bytes); skipped without reading it`]);
    assert.strictEqual(withHuge.episodes.length, plain.episodes.length);
    assert.strictEqual(withHuge.lessons.length, plain.lessons.length);
  });

  it('lists at most 1,000 warnings and counts the rest', () => {
    const r = replay('bad', [...Array.from({ length: 1500 }, () => 'not json'), ...trace]);
    assert.strictEqual(r.warnings.length, 1001);
    assert.strictEqual(r.warnings[0], 'line 1: not valid JSON; skipped');
    assert.strictEqual(r.warnings[1000], '500 more warning(s) not listed');
    assert.ok(r.episodes.length > 0, 'the good lines after the bad ones are replayed');
  });
});
