// Issue 22, end to end with the class corpora: every secret of test/fixtures/secrets-classes.ts goes in
// through the built CLI (import, replay, ingest, recall's query) and the MCP server (remember, recall),
// and then no piece of it may be in the store folder, the export, stdout or stderr, nor in any MCP
// answer. Every injection form of test/fixtures/injection-classes.ts imported as a memory comes back
// flagged through `recall --json` and through MCP recall, inside the data block.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { classNeedles, SECRET_CLASSES as ALL_CLASSES, THIRD_HELD_OUT } from '../fixtures/secrets-classes';
import { INJECTION_CLASSES } from '../fixtures/injection-classes';
import { buildCli } from './buildCli';

// The third draw's held-out half is measured by bench/mask.mjs only (classes.test.ts says why).
const SECRET_CLASSES = ALL_CLASSES.filter(s => !THIRD_HELD_OUT.includes(s.id));

function filesUnder(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push({ file: p, text: fs.readFileSync(p, 'utf8') });
  }
  return out;
}

/** Where a needle of any class sample is found (case-insensitive: derived indexes lower-case words). */
function leaks(sources: { name: string; text: string }[]): string[] {
  const found = new Set<string>();
  const lowered = sources.map(s => s.text.toLowerCase());
  for (const s of SECRET_CLASSES) {
    for (const n of classNeedles(s.value)) {
      for (const [i, src] of sources.entries()) if (lowered[i].includes(n.toLowerCase())) found.add(`${s.id} "${n.slice(0, 20)}…" in ${src.name}`);
    }
  }
  return [...found];
}

/** A word that finds sample i by itself (spaced letters or TAG characters alone give recall no words). */
const ref = (i: number) => `zqref${i}k`;
const withRef = (text: string, i: number) => `${text}\n(ref ${ref(i)})`;

/** A capture trace whose failing command line and output carry `context`, fixed by an edit and a rerun. */
function traceFor(context: string, i: number): string[] {
  const file = `src/svc${i}.ts`;
  const cmd = `deploy --check ${context.split('\n')[0]}`;
  return [
    { t: 100, type: 'open', file, text: 'export const port = "80";\n' },
    { t: 200, type: 'command', command: cmd, cwd: '/workspace', exitCode: 1, output: `Error: deploy check failed for ${file}\n${context}\n` },
    { t: 300, type: 'change', file, text: 'export const port = 80;\n' },
    { t: 400, type: 'save', file },
    { t: 500, type: 'command', command: cmd, cwd: '/workspace', exitCode: 0, output: 'ok\n' },
    { t: 600, type: 'end' },
  ].map(e => JSON.stringify(e));
}

describe('class corpora end to end: nothing echoed, nothing on disk, every injection flagged (issue 22)', function () {
  this.timeout(240_000);
  let CLI = '';
  let dir = '';
  before(async () => { CLI = await buildCli('engram-echo-'); });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-echo-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cli = (args: string[], input?: string) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, input, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
  };

  it('the leak search is not vacuous: every sample\'s needles are in its raw context', () => {
    assert.ok(SECRET_CLASSES.length >= 100);
    assert.strictEqual(leaks([{ name: 'raw', text: SECRET_CLASSES.map(s => s.context).join('\n') }]).length >= SECRET_CLASSES.length, true);
  });

  it('import, replay --json, ingest --json, recall --json (its query), show, stats and export: no secret on disk or on stdout/stderr', () => {
    const store = path.join(dir, 'store');
    const printed: { name: string; text: string }[] = [];
    const run = (name: string, args: string[], input?: string) => {
      const r = cli(['--store', store, ...args], input);
      assert.strictEqual(r.code, 0, `${name}: ${r.err}`);
      printed.push({ name: `${name} stdout`, text: r.out }, { name: `${name} stderr`, text: r.err });
      return r.out;
    };
    const lines = SECRET_CLASSES.flatMap((s, i) => [
      JSON.stringify({ kind: 'lesson', id: `les-${i}`, errorSignature: `Error: upstream said ${s.context}`, rootCause: s.context, fixApproach: `rotate it: ${s.context}`, tags: ['secrets'] }),
      JSON.stringify({ kind: 'fact', id: `fact-${i}`, content: `note: ${s.context}`, topic: 'creds' }),
    ]);
    fs.writeFileSync(path.join(dir, 'in.jsonl'), lines.join('\n') + '\n');
    const imported = JSON.parse(run('import', ['import', path.join(dir, 'in.jsonl')])) as { imported: number; errors: unknown[] };
    assert.deepStrictEqual(imported.errors, []);

    // replay: one trace file per sample would be slow; half the samples go through replay, half through ingest.
    const half = Math.ceil(SECRET_CLASSES.length / 2);
    const trace = SECRET_CLASSES.slice(0, half).flatMap((s, i) => traceFor(s.context, i).map(l => l.replace(/"t":(\d+)/, (_, t) => `"t":${Number(t) + i * 1000}`)));
    fs.writeFileSync(path.join(dir, 'trace.jsonl'), trace.join('\n') + '\n');
    const replayed = JSON.parse(run('replay', ['replay', path.join(dir, 'trace.jsonl'), '--json'])) as { stored: string[]; episodes: unknown[] };
    assert.ok(replayed.stored.length >= half && replayed.episodes.length >= half, 'every trace ended an episode (the echo under test exists)');
    const ingest = SECRET_CLASSES.slice(half).flatMap((s, i) => traceFor(s.context, half + i).map(l => l.replace(/"t":(\d+)/, (_, t) => `"t":${Number(t) + i * 1000}`)));
    const ingested = JSON.parse(run('ingest', ['ingest', '--json'], ingest.join('\n') + '\n')) as { stored: string[] };
    assert.ok(ingested.stored.length >= SECRET_CLASSES.length - half);

    // recall with the secret in the query, one by one and as a queries file; show and stats read it back.
    for (const s of SECRET_CLASSES.slice(0, 12)) run('recall', ['recall', '--json', s.context]);
    fs.writeFileSync(path.join(dir, 'queries.jsonl'), SECRET_CLASSES.map(s => JSON.stringify({ query: s.context })).join('\n') + '\n');
    const answers = run('recall --queries', ['recall', '--queries', path.join(dir, 'queries.jsonl'), '--json']);
    assert.ok(answers.split('\n').filter(Boolean).length === SECRET_CLASSES.length);
    run('recall (readable)', ['recall', SECRET_CLASSES[0].context]);
    run('show', ['show', 'les-0', '--json']);
    run('stats', ['stats', '--json']);
    const exported = run('export', ['export']);
    assert.ok(exported.split('\n').filter(Boolean).length >= lines.length);

    const disk = filesUnder(store).map(f => ({ name: path.relative(dir, f.file), text: f.text }));
    assert.ok(disk.some(f => /events\.jsonl$/.test(f.name)));
    assert.deepStrictEqual(leaks([...disk, ...printed]), []);
  });

  it('every injection form imported as a memory comes back flagged from recall --json', () => {
    const store = path.join(dir, 'store');
    const lines = INJECTION_CLASSES.map((s, i) => JSON.stringify({ kind: 'fact', id: `inj-${i}`, content: withRef(s.text, i), topic: 'notes' }));
    fs.writeFileSync(path.join(dir, 'in.jsonl'), lines.join('\n') + '\n');
    const imp = cli(['--store', store, 'import', path.join(dir, 'in.jsonl')]);
    assert.strictEqual(imp.code, 0, imp.err);
    assert.deepStrictEqual((JSON.parse(imp.out) as { errors: unknown[] }).errors, []);
    fs.writeFileSync(path.join(dir, 'q.jsonl'), INJECTION_CLASSES.map((_, i) => JSON.stringify({ query: ref(i), k: 5 })).join('\n') + '\n');
    const r = cli(['--store', store, 'recall', '--queries', path.join(dir, 'q.jsonl'), '--json', '--kinds', 'fact']);
    assert.strictEqual(r.code, 0, r.err);
    const seen = new Map<string, unknown>();
    for (const l of r.out.split('\n').filter(Boolean)) for (const x of (JSON.parse(l) as { results: { id: string; flagged?: string[] }[] }).results) seen.set(x.id, x.flagged);
    const unflagged = INJECTION_CLASSES.filter((_, i) => !(seen.get(`inj-${i}`) as string[] | undefined)?.length).map(s => s.id);
    assert.deepStrictEqual(unflagged, []);
  });

  it('MCP: remember with secrets answers masked, recall shows every injection form flagged inside the data block', async () => {
    const store = path.join(dir, 'store');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '--store', store, 'mcp', '--folder', dir], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    const client = new Client({ name: 'engram-test', version: '1.0.0' });
    await client.connect(transport);
    const textOf = (r: unknown) => (r as { content: { text?: string }[] }).content.map(c => c.text ?? '').join('\n');
    const answers: { name: string; text: string }[] = [];
    try {
      for (const [i, s] of SECRET_CLASSES.entries()) {
        answers.push({ name: `remember ${s.id}`, text: textOf(await client.callTool({ name: 'remember', arguments: { kind: 'fact', content: `deploy note ${i}: ${s.context}` } })) });
      }
      for (const s of SECRET_CLASSES.slice(0, 20)) answers.push({ name: `recall ${s.id}`, text: textOf(await client.callTool({ name: 'recall', arguments: { query: s.context, all: true } })) });
      const notSaidFlagged: string[] = [];
      for (const [i, s] of INJECTION_CLASSES.entries()) {
        // Lessons, each with its own error: near-identical facts (the END-marker variants) replace each other.
        const saved = textOf(await client.callTool({ name: 'remember', arguments: { kind: 'lesson', errorText: `Error: step ${ref(i)} failed`, rootCause: s.text, fixApproach: `rerun step ${ref(i)}` } }));
        if (!/FLAGGED as instruction-like/.test(saved)) notSaidFlagged.push(s.id);
      }
      assert.deepStrictEqual(notSaidFlagged, [], 'remember says the memory was flagged');
      const missed: string[] = [];
      for (const [i, s] of INJECTION_CLASSES.entries()) {
        const out = textOf(await client.callTool({ name: 'recall', arguments: { query: ref(i), all: true } }));
        const begin = out.indexOf('BEGIN ENGRAM MEMORY DATA'), end = out.lastIndexOf('END ENGRAM MEMORY DATA');
        // The memory is in the block and labelled FLAGGED; before BEGIN and after END only the fixed note.
        const inside = begin >= 0 && end > begin ? out.slice(begin, end) : '';
        if (!inside.includes(ref(i)) || !/FLAGGED \(/.test(inside) || out.slice(0, begin).includes(ref(i)) || out.slice(end).includes(ref(i))) missed.push(s.id);
      }
      assert.deepStrictEqual(missed, []);
    } finally {
      await client.close().catch(() => undefined);
    }
    assert.deepStrictEqual(leaks([...answers, { name: 'mcp stderr', text: stderr }, ...filesUnder(store).map(f => ({ name: f.file, text: f.text }))]), []);
  });
});
