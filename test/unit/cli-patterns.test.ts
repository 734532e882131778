// The CLI runs the pattern pass the window runs in the background: episodes that keep ending the same
// way, written by `engram import` or `engram replay`, become one pattern lesson, proposed once.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildCli, repoRoot } from './buildCli';

const ROOT = repoRoot();
const TRACE = path.join(ROOT, 'test/fixtures/traces/node-cjs-cannot-find-module.jsonl');
let CLI = '';

function run(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

function episodeLine(id: string, at: number): string {
  return JSON.stringify({
    kind: 'episode', id, trigger: "src/a.ts(1,20): error TS2307: Cannot find module '@app/util'", summary: 'alias missing',
    errorSignature: "error TS2307: Cannot find module '@app/util' or its corresponding type declarations.",
    domain: 'typescript', outcome: 'success', startedAt: at, createdAt: at, files: ['src/a.ts'],
    lessonsLearned: ['the @app alias was missing from tsconfig paths'],
    fixAction: 'Add "@app/*" to compilerOptions.paths in tsconfig.json', fixKey: 'edit:tsconfig.json:paths',
  });
}

describe('cli: the pattern pass', function () {
  this.timeout(60_000);
  let dir: string;
  let store: string;

  before(async () => { CLI = await buildCli('engram-cli-patterns-'); });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-cli-patterns-')); store = path.join(dir, 'store'); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function importLines(lines: string[]): { imported: number; patterns?: string[] } {
    const file = path.join(dir, `in-${Math.random().toString(36).slice(2)}.jsonl`);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const r = run(['--store', store, 'import', file]);
    assert.strictEqual(r.code, 0, r.err);
    return JSON.parse(r.out);
  }

  function show(id: string): Lesson {
    const r = run(['--store', store, 'show', id, '--json']);
    assert.strictEqual(r.code, 0, r.err);
    return JSON.parse(r.out);
  }

  interface Lesson { kind: string; maturity: string; evidence: string[]; tags: string[] }

  it('import: three episodes fixed the same way become one pattern lesson, proposed once, and a forgotten one stays gone', () => {
    const t = Date.UTC(2026, 3, 1);
    const first = importLines([episodeLine('e1', t), episodeLine('e2', t + 1000)]);
    assert.strictEqual(first.patterns, undefined, 'two episodes are not a pattern yet');
    const second = importLines([episodeLine('e3', t + 2000)]);
    assert.strictEqual(second.patterns?.length, 1, JSON.stringify(second));
    const id = second.patterns[0];
    const p = show(id);
    assert.strictEqual(p.kind, 'lesson');
    assert.strictEqual(p.maturity, 'pattern', 'lifted by the ladder on its three episodes');
    assert.deepStrictEqual(p.evidence, ['e1', 'e2', 'e3']);
    assert.ok(p.tags.includes('pattern'));

    assert.strictEqual(importLines([episodeLine('e4', t + 3000)]).patterns, undefined, 'the same pattern is not proposed twice');
    assert.strictEqual(run(['--store', store, 'forget', id]).code, 0);
    assert.strictEqual(importLines([episodeLine('e5', t + 4000)]).patterns, undefined, 'a forgotten pattern is not proposed again');
  });

  it('replay: the same fix replayed three times is one lesson at pattern, with no pattern lesson beside it', () => {
    const reports = [1, 2, 3].map(() => {
      const r = run(['--store', store, 'replay', TRACE, '--json']);
      assert.strictEqual(r.code, 0, r.err);
      return JSON.parse(r.out) as { episodes: { id: string }[]; lessons: { id: string }[]; patterns: string[] };
    });
    // The pattern pass's candidate carries the fix's identity and merges into the lesson the episodes made
    // (issue 17: the same error fixed the same way must not give two lessons side by side).
    assert.deepStrictEqual(reports.map(r => r.patterns.length), [0, 0, 0]);
    const ids = new Set(reports.flatMap(r => r.lessons.map(l => l.id)));
    assert.strictEqual(ids.size, 1, [...ids].join(', '));
    const p = show([...ids][0]);
    assert.strictEqual(p.maturity, 'pattern');
    assert.deepStrictEqual([...p.evidence].sort(), reports.flatMap(r => r.episodes.map(e => e.id)).sort());
  });
});
