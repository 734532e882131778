// End-to-end over the real CLI bundle: the command-line contract other tools rely on.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { buildCli, repoRoot } from './buildCli';

/** The repo root: tests run from out/test/unit or from a temp bundle, so look for src/cli.ts. */
const ROOT = repoRoot();
let CLI = '';

function run(args: string[], input?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', cwd: ROOT, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const TS2322 = "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.";

describe('cli (dist/cli.js)', function () {
  this.timeout(60_000);
  let dir: string;
  let store: string;

  before(async () => {
    CLI = await buildCli('engram-cli-');
  });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-cli-store-')); store = path.join(dir, 'store'); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function importFile(lines: string[]): { code: number; report: { imported: number; skipped: number; errors: { line: number; error: string }[] } } {
    const file = path.join(dir, 'in.jsonl');
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const r = run(['--store', store, 'import', file]);
    return { code: r.code, report: JSON.parse(r.out) };
  }

  const seed = [
    JSON.stringify({ kind: 'lesson', id: 'web-1', errorSignature: TS2322, rootCause: 'form values are strings', fixApproach: 'Number() at the boundary', scope: ['packages/web/**'], stack: ['typescript'], confidence: 0.4 }),
    JSON.stringify({ kind: 'lesson', id: 'api-1', errorSignature: TS2322, rootCause: 'env vars are strings', fixApproach: 'coerce with zod', scope: ['packages/api/**'] }),
    JSON.stringify({ kind: 'lesson', id: 'mod-1', errorSignature: "Error: Cannot find module 'lodash'", rootCause: 'not a dependency of this package', fixApproach: 'add it to the package that imports it' }),
    JSON.stringify({ kind: 'fact', id: 'fact-1', content: 'This repo uses pnpm; never npm install at the root' }),
  ];

  it('imports, reporting bad lines and keeping the rest (exit 0)', () => {
    const { code, report } = importFile([...seed, '{"kind":"lesson","errorSignature":"x","rootCause":7}', 'garbage', seed[0]]);
    assert.strictEqual(code, 0);
    assert.strictEqual(report.imported, 4);
    assert.strictEqual(report.skipped, 3);
    assert.deepStrictEqual(report.errors.map(e => e.line), [5, 6, 7]);
    assert.match(report.errors[2].error, /duplicate id/);
  });

  it('a secret inside a scope glob skips that line, by number, and imports the rest (exit 0)', () => {
    const token = 'ghp_' + 'Zq8Wx2Vb'.repeat(4) + 'Kk11';
    const { code, report } = importFile([seed[0], JSON.stringify({ kind: 'lesson', id: 'deploy-1', errorSignature: TS2322, rootCause: 'r', fixApproach: 'f', scope: [`deploy/${token}/**`] }), seed[3]]);
    assert.strictEqual(code, 0);
    assert.strictEqual(report.imported, 2);
    assert.deepStrictEqual(report.errors.map(e => e.line), [2]);
    assert.match(report.errors[0].error, /"scope" entry 1 holds a secret/);
    assert.ok(!JSON.stringify(report).includes(token.slice(4)), 'the token is not echoed');
  });

  it('exits non-zero when nothing could be read', () => {
    const r = run(['--store', store, 'import', path.join(dir, 'missing.jsonl')]);
    assert.notStrictEqual(r.code, 0);
    assert.match(r.err, /cannot read/);
  });

  it('recall --json: scoped, with the imported ids, why and the fix', () => {
    importFile(seed);
    const r = run(['--store', store, 'recall', TS2322, '--file', 'packages/web/src/form.ts', '--json']);
    assert.strictEqual(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.strictEqual(out.query, TS2322);
    assert.strictEqual(out.results[0].id, 'web-1');
    assert.ok(!out.results.some((x: { id: string }) => x.id === 'api-1'));
    assert.strictEqual(out.results[0].kind, 'lesson');
    assert.strictEqual(out.results[0].fixApproach, 'Number() at the boundary');
    assert.deepStrictEqual(out.results[0].scope, ['packages/web/**']);
    assert.ok(out.results[0].why.includes('same signature TS2322'));
    assert.ok(out.results[0].score > 0 && out.results[0].score <= 1);
  });

  it('recall --stdin and --queries (many queries, one process)', () => {
    importFile(seed);
    const s = run(['--store', store, 'recall', '--stdin', '--json'], `npm run build\n${TS2322}\n`);
    const top = JSON.parse(s.out).results[0];
    assert.ok(['web-1', 'api-1'].includes(top.id), `a TS2322 lesson comes first, got ${top.id}`);
    assert.ok(top.why.includes('same signature TS2322'));
    const qf = path.join(dir, 'q.jsonl');
    fs.writeFileSync(qf, [
      JSON.stringify({ query: TS2322, file: 'packages/api/src/env.ts' }),
      JSON.stringify({ query: '모듈을 찾을 수 없다는 에러' }),
      JSON.stringify({ query: 'which package manager do we use? npm or pnpm' }),
    ].join('\n'));
    const r = run(['--store', store, 'recall', '--queries', qf, '--json']);
    const lines = r.out.trim().split('\n').map(l => JSON.parse(l));
    assert.deepStrictEqual(lines.map(l => l.results[0]?.id), ['api-1', 'mod-1', 'fact-1']);
  });

  it('readable text without --json', () => {
    importFile(seed);
    const r = run(['--store', store, 'recall', "Cannot find module 'lodash'"]);
    assert.match(r.out, /fix: +add it to the package that imports it/i);
    assert.match(r.out, /why:/);
  });

  it('export round-trips through import into an empty store', () => {
    importFile(seed);
    const out = path.join(dir, 'export.jsonl');
    assert.strictEqual(run(['--store', store, 'export', '--out', out]).code, 0);
    const store2 = path.join(dir, 'store2');
    const r = run(['--store', store2, 'import', out, '--trusted']);
    assert.strictEqual(JSON.parse(r.out).imported, 4);
    const a = run(['--store', store, 'export']).out;
    const b = run(['--store', store2, 'export']).out;
    assert.strictEqual(b, a);
  });

  it('stats, show, feedback and forget', () => {
    importFile(seed);
    const stats = JSON.parse(run(['--store', store, 'stats', '--json']).out);
    assert.strictEqual(stats.memories, 4);
    assert.strictEqual(stats.byKind.lesson, 3);
    assert.strictEqual(stats.embedder, 'hash');
    const fb = run(['--store', store, 'feedback', 'web-1', 'prevented', '--reason', 'worked again']);
    assert.strictEqual(fb.code, 0, fb.err);
    const shown = JSON.parse(run(['--store', store, 'show', 'web-1', '--json']).out);
    assert.strictEqual(shown.alpha, 0.8 + 1);
    assert.ok(Math.abs(shown.confidence - 1.8 / 3) < 0.001);
    assert.strictEqual(shown.maturity, 'observation');
    assert.ok(shown.history.some((h: { type: string; detail: string }) => h.type === 'feedback' && h.detail.includes('worked again')));
    assert.strictEqual(run(['--store', store, 'forget', 'web-1']).code, 0);
    const after = JSON.parse(run(['--store', store, 'recall', TS2322, '--file', 'packages/web/a.ts', '--json']).out);
    assert.ok(!after.results.some((x: { id: string }) => x.id === 'web-1'));
    const missing = run(['--store', store, 'show', 'web-1', '--json']);
    assert.notStrictEqual(missing.code, 0);
    assert.match(missing.err, /no memory/);
  });

  it('usage errors go to stderr with a non-zero exit; --help prints usage', () => {
    const help = run(['--help']);
    assert.strictEqual(help.code, 0);
    assert.match(help.out, /usage: engram/);
    const bad = run(['--store', store, 'frobnicate']);
    assert.notStrictEqual(bad.code, 0);
    assert.match(bad.err, /unknown command/);
    const noStore = run(['recall', 'x']);
    assert.notStrictEqual(noStore.code, 0);
    assert.match(noStore.err, /--store/);
    const noData = run(['--store', path.join(dir, 'nothing-here'), 'recall', 'x']);
    assert.notStrictEqual(noData.code, 0);
  });

  it('an unknown option is an error naming the option and the command, not silently ignored', () => {
    assert.strictEqual(importFile(seed).code, 0);
    const typo = run(['--store', store, 'recall', TS2322, '--proactiv']);
    assert.strictEqual(typo.code, 2);
    assert.match(typo.err, /unknown option --proactiv for "recall"/);
    assert.match(typo.err, /--proactive/, 'the message lists what recall takes');
    assert.strictEqual(typo.out, '');
    const wrongCommand = run(['--store', store, 'stats', '--file', 'a.ts']);
    assert.strictEqual(wrongCommand.code, 2);
    assert.match(wrongCommand.err, /unknown option --file for "stats"/);
    // Options every command takes still work everywhere.
    assert.strictEqual(run(['--store', store, 'stats', '--json']).code, 0);
  });

  it('recall --proactive answers only on strong evidence; plain recall marks weak matches', () => {
    assert.strictEqual(importFile(seed).code, 0);
    const known = run(['--store', store, 'recall', TS2322, '--file', 'packages/web/src/form.ts', '--proactive', '--json']);
    assert.strictEqual(known.code, 0, known.err);
    assert.deepStrictEqual(JSON.parse(known.out).results.map((r: { id: string }) => r.id), ['web-1']);
    const unknown = "TypeError: Cannot read properties of undefined (reading 'map')\n    at render (/srv/app/list.js:1:40)\n    at Object.<anonymous> (/srv/app/list.js:2:1)\n    at Module._compile (node:internal/modules/cjs/loader:1521:14)";
    const quiet = run(['--store', store, 'recall', unknown, '--file', 'packages/web/src/list.js', '--proactive', '--json']);
    assert.strictEqual(quiet.code, 0, quiet.err);
    assert.deepStrictEqual(JSON.parse(quiet.out).results, []);
    const nearMiss = "src/a.ts(3,5): error TS2322: Type 'boolean' is not assignable to type 'string'.";
    const lenient = JSON.parse(run(['--store', store, 'recall', nearMiss, '--file', 'packages/web/src/form.ts', '--json']).out).results;
    assert.strictEqual(lenient[0]?.id, 'web-1');
    assert.strictEqual(lenient[0].weak, true);
    assert.ok(lenient[0].why.some((w: string) => /different types 'boolean → string'/.test(w)), lenient[0].why.join(' | '));
  });
  it('recall and show print stored terminal escapes as visible text, never raw', () => {
    assert.strictEqual(importFile([JSON.stringify({ kind: 'fact', id: 'f-esc', content: 'we use pnpm MARKER', topic: 'tooling' })]).code, 0);
    // A store written before escapes were stripped on the way in (or edited by hand) still holds them.
    const log = path.join(store, 'events.jsonl');
    fs.writeFileSync(log, fs.readFileSync(log, 'utf8').replace(/MARKER/g, '\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2J\\u001b]8;;https://evil.example\\u001b\\\\x\\u009b31m'));
    for (const args of [['show', 'f-esc'], ['recall', 'pnpm'], ['recall', '--json', 'pnpm']]) {
      const r = run(['--store', store, ...args]);
      assert.strictEqual(r.code, 0, r.err);
      assert.ok(r.out.includes('pnpm'), r.out);
      assert.ok(!/[\x07\x1b\x9b]/.test(r.out), `raw control character in: ${JSON.stringify(r.out)}`);
      assert.ok(r.out.includes('\\u001b]52'), 'the escape is shown, not dropped');
    }
  });

  it('export --out writes an owner-only file and replaces a link instead of writing through it', function () {
    if (process.platform === 'win32') this.skip();
    assert.strictEqual(importFile(seed).code, 0);
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me\n');
    const out = path.join(dir, 'export.jsonl');
    fs.symlinkSync(victim, out);
    assert.strictEqual(run(['--store', store, 'export', '--out', out]).code, 0);
    assert.strictEqual(fs.readFileSync(victim, 'utf8'), 'keep me\n');
    assert.ok(!fs.lstatSync(out).isSymbolicLink());
    assert.strictEqual(fs.statSync(out).mode & 0o777, 0o600);
    assert.ok(fs.readFileSync(out, 'utf8').includes('web-1'));
    assert.deepStrictEqual(fs.readdirSync(dir).filter(n => n.includes('.tmp')), []);
  });
});
