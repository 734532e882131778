// "No secret reaches disk", end to end: every fake secret of the corpus goes in through every write path
// (store.record for lessons, chat facts and episodes; the CLI import; the team line; the CLI export) and
// then EVERY byte under the store folder (log, snapshots, index/, anything else), the export file and the
// team line are searched for the secret and for distinctive pieces of it. mask.test.ts proves the masking
// function; this proves that nothing on the way to disk bypasses it.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { toTeamLine } from '../../src/core/team';
import type { Episode, Fact, Lesson, Memory } from '../../src/core/types';
import type { Embedder } from '../../src/store/embedder';
import { HashEmbedder } from '../../src/store/hashEmbedder';
import { MemoryStore } from '../../src/store/memoryStore';
import { SECRET_CORPUS, secretNeedles as needles } from '../fixtures/secrets';
import { buildCli, repoRoot } from './buildCli';

const ROOT = repoRoot();

/** Hash vectors dressed as a model, so the store persists its vector index (index/) like it does with a real model. */
class PersistingEmbedder implements Embedder {
  readonly kind = 'model' as const;
  readonly id = 'fake-model-for-disk-test';
  private readonly inner = new HashEmbedder(64);
  readonly dims = 64;
  embed(texts: string[]): Promise<Float32Array[]> { return this.inner.embed(texts); }
  dispose(): void {}
}

/** Every file under `dir`, recursively, with its bytes. */
function filesUnder(dir: string): { file: string; bytes: Buffer }[] {
  const out: { file: string; bytes: Buffer }[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push({ file: p, bytes: fs.readFileSync(p) });
  }
  return out;
}

/**
 * Human-readable list of where any secret leaked (empty when clean). Also searched lower-cased: a derived
 * field (a signature key, a word index) that lower-cases a secret hides it from case-sensitive detectors.
 */
function leaks(sources: { name: string; text: string }[]): string[] {
  const found: string[] = [];
  const lowered = sources.map(src => src.text.toLowerCase());
  for (const s of SECRET_CORPUS) {
    for (const n of needles(s.value)) {
      const ln = n.toLowerCase();
      for (const [i, src] of sources.entries()) {
        if (src.text.includes(n)) found.push(`${s.kind} "${n.slice(0, 24)}…" in ${src.name}`);
        else if (lowered[i].includes(ln)) found.push(`${s.kind} "${n.slice(0, 24)}…" lower-cased in ${src.name}`);
      }
    }
  }
  return [...new Set(found)];
}

const T0 = 1_760_000_000_000;
const owner = { scope: 'workspace' as const, workspace: 'ws-secrets' };
const base = { owner, createdAt: T0, updatedAt: T0, accessCount: 0, importance: 0.5, tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation' as const };

function lessonWith(i: number, ctx: string): Lesson {
  return {
    ...base, id: `les-secret-${i}`, kind: 'lesson', source: 'manual', errorSignature: '',
    errorText: `Error: request failed (${i})\n${ctx}`, errorCategory: 'runtime', stack: ['node'],
    rootCause: `the config carried ${ctx}`, fixApproach: `rotate it and stop logging it: ${ctx}`, evidence: [],
  };
}

function chatFact(i: number, ctx: string): Fact {
  // What @memory /remember records (source 'chat'), but without newMemory's own masking: the store must mask.
  return { ...base, id: `fact-secret-${i}`, kind: 'fact', source: 'chat', type: 'fact', content: `remember that ${ctx}` };
}

function episodeWith(contexts: string[]): Episode {
  const all = contexts.join('\n');
  return {
    ...base, id: 'ep-secret', kind: 'episode', source: 'captured', startedAt: T0, endedAt: T0 + 60_000, duration: 60_000,
    trigger: contexts[0], goal: `get past ${contexts[1]}`, domain: 'terminal:node',
    steps: contexts.map((c, i) => ({ action: `ran the deploy with ${c}`, reasoning: `because ${c}`, result: `failed: ${c}`, detail: `$ deploy --verbose\n${c}`, wasEffective: i % 2 === 0, at: T0 + i })),
    toolsUsed: ['terminal'], outcome: 'success', resolution: `moved ${contexts[2]} to the keychain`, lessonsLearned: contexts.slice(0, 5),
    files: ['src/config.ts'], sourceIds: [], summary: `Deploy failed with ${contexts[3]}`,
    codeBefore: `const cfg = {\n${all}\n};`, codeAfter: `const cfg = { token: process.env.TOKEN, note: ${JSON.stringify(contexts[4])} };`,
  };
}

describe('secrets never reach disk (store, CLI import/export, team line)', function () {
  this.timeout(120_000);
  let CLI = '';
  let dir = '';

  before(async () => {
    CLI = await buildCli('engram-secrets-cli-');
  });
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-secrets-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function cli(args: string[]): { code: number; out: string; err: string } {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
  }

  it('the corpus is what the test thinks it is (every needle is in the raw input)', () => {
    // Guards against a corpus change that would make the leak search vacuous.
    assert.ok(SECRET_CORPUS.length >= 30);
    for (const s of SECRET_CORPUS) for (const n of needles(s.value)) assert.ok(s.context.includes(n) || s.value.includes(n), `${s.kind}: ${n}`);
    assert.ok(leaks([{ name: 'raw', text: SECRET_CORPUS.map(s => s.context).join('\n') }]).length >= SECRET_CORPUS.length);
  });

  it('lessons, chat facts, an episode, a CLI import, the team line and the CLI export hold no secret byte', async () => {
    const storeDir = path.join(dir, 'store');
    const contexts = SECRET_CORPUS.map(s => s.context);
    const store = await MemoryStore.open(storeDir, { embedder: new PersistingEmbedder(), workspaceId: 'ws-secrets' });
    const recorded: Memory[] = [];
    try {
      // (a) lessons, (b) chat facts, (c) an episode with steps and code excerpts
      for (const [i, c] of contexts.entries()) recorded.push(await store.record(lessonWith(i, c)));
      for (const [i, c] of contexts.entries()) recorded.push(await store.record(chatFact(i, c)));
      recorded.push(await store.record(episodeWith(contexts)));
      // Recall loads and persists the vector index (index/) for everything recorded so far.
      const hits = await store.recall({ text: 'request failed rotate config token', k: 5 });
      assert.ok(hits.length > 0, 'recall found the recorded lessons (the index under test exists)');
      // An update patch goes through the store too.
      await store.update(recorded[0].id, { fixApproach: `use the vault instead of ${contexts[1]}`, tags: [contexts[2]] });
    } finally {
      await store.close();
    }
    assert.ok(fs.existsSync(path.join(storeDir, 'index')), 'the vector index was written to disk');

    // (d) an import file through the CLI, one line per secret in every text field an import line can carry
    const importFile = path.join(dir, 'in.jsonl');
    const lines = contexts.flatMap((c, i) => [
      JSON.stringify({ kind: 'lesson', id: `imp-les-${i}`, errorSignature: `Error: upstream said ${c}`, rootCause: c, fixApproach: `never paste ${c}`, tags: ['secrets'], purpose: c }),
      JSON.stringify({ kind: 'fact', id: `imp-fact-${i}`, content: `the staging login is ${c}`, topic: 'creds' }),
      JSON.stringify({ kind: 'rule', id: `imp-rule-${i}`, instruction: `Never commit ${c}` }),
    ]);
    lines.push(JSON.stringify({ kind: 'episode', id: 'imp-ep', trigger: contexts[0], summary: contexts.join(' | '), outcome: 'success', steps: contexts.map(c => ({ action: c, result: c, detail: c })), codeBefore: contexts.join('\n'), codeAfter: contexts[5], files: ['a.ts'] }));
    fs.writeFileSync(importFile, lines.join('\n') + '\n');
    const imp = cli(['--store', storeDir, 'import', importFile]);
    assert.strictEqual(imp.code, 0, imp.err);
    const report = JSON.parse(imp.out) as { imported: number; errors: unknown[] };
    assert.deepStrictEqual(report.errors, [], 'every secret-bearing line imports (masking must not reject them)');
    assert.strictEqual(report.imported, lines.length);

    // (e) the team line, straight from unmasked memories (toTeamLine must mask by itself) and from stored ones
    const teamLines = [...recorded.map(m => toTeamLine(m)), lessonWith(999, contexts.join('\n')), chatFact(999, contexts.join('\n')), episodeWith(contexts)]
      .map(x => typeof x === 'string' ? x : toTeamLine(x));

    // (f) the export
    const exportFile = path.join(dir, 'export.jsonl');
    const exp = cli(['--store', storeDir, 'export', '--out', exportFile]);
    assert.strictEqual(exp.code, 0, exp.err);
    const exported = fs.readFileSync(exportFile, 'utf8');
    assert.strictEqual(exported.split('\n').filter(Boolean).length, new Set(recorded.map(m => m.id)).size + lines.length, 'the export holds every memory');

    // The masked text is still useful: the key names and the tool's words survive.
    assert.match(exported, /aws_secret_access_key/);
    assert.match(exported, /password authentication failed/);

    const files = filesUnder(storeDir);
    assert.ok(files.some(f => /events\.jsonl$/.test(f.file)), 'the log was read');
    const sources = [
      ...files.map(f => ({ name: path.relative(dir, f.file), text: f.bytes.toString('latin1') })),
      // utf8 too, so a multi-byte neighbour never hides a match
      ...files.map(f => ({ name: path.relative(dir, f.file) + ' (utf8)', text: f.bytes.toString('utf8') })),
      { name: 'export file', text: exported },
      { name: 'team lines', text: teamLines.join('\n') },
    ];
    assert.deepStrictEqual(leaks(sources), []);
  });

  it('reasons given with update, feedback, quarantine and forget are masked too (they land in the log)', async () => {
    // A person types these (CLI --reason, the forget box, the stale guard's note quoting a file); the log keeps them.
    const storeDir = path.join(dir, 'store');
    const store = await MemoryStore.open(storeDir, { vectors: false });
    try {
      for (const [i, s] of SECRET_CORPUS.entries()) {
        const m = await store.record(chatFact(i, `note ${i}`));
        await store.update(m.id, { content: `note ${i} (edited)` }, `edited because ${s.context}`);
        await store.feedback(m.id, 'prevented', { reason: `it helped with ${s.context}` });
        await store.quarantine(m.id, `stale: the file now reads ${s.context}`);
        await store.restore(m.id);
        await store.forget(m.id, `forgotten: ${s.context}`);
      }
    } finally {
      await store.close();
    }
    const files = filesUnder(storeDir);
    assert.deepStrictEqual(leaks(files.map(f => ({ name: path.relative(dir, f.file), text: f.bytes.toString('latin1') }))), []);
  });

  it('a compaction keeps the folder clean, and forgotten text leaves every byte of it', async () => {
    const storeDir = path.join(dir, 'store');
    const store = await MemoryStore.open(storeDir, { embedder: new PersistingEmbedder(), workspaceId: 'ws-secrets' });
    const unique = 'zebra-quokka-forgotten-7f3a91';
    try {
      for (const [i, s] of SECRET_CORPUS.entries()) await store.record(lessonWith(i, s.context));
      const doomed = await store.record({ ...chatFact(500, `the release train leaves on ${unique}`), id: 'fact-doomed' });
      await store.recall({ text: unique, k: 3 });
      await store.compact();
      assert.ok(fs.existsSync(path.join(storeDir, 'snapshot.json')), 'compaction wrote a snapshot');
      assert.ok(filesUnder(storeDir).some(f => f.bytes.toString('utf8').includes(unique)), 'before forget the text is on disk (the search works)');

      const before = store.list().length;
      await store.forget(doomed.id, 'user asked');
      // The .prev pair keeps one compaction back for recovery, so the text is gone after the second.
      await store.compact();
      await store.compact();
      const files = filesUnder(storeDir);
      const holders = files.filter(f => f.bytes.toString('latin1').includes(unique) || f.bytes.toString('utf8').includes(unique)).map(f => path.relative(storeDir, f.file));
      assert.deepStrictEqual(holders, [], 'forgotten text is in no file of the store');
      assert.deepStrictEqual(leaks(files.map(f => ({ name: path.relative(dir, f.file), text: f.bytes.toString('latin1') }))), []);
      assert.strictEqual(store.get(doomed.id), undefined);
      assert.strictEqual(store.list().length, before - 1, 'only the forgotten memory is gone');
    } finally {
      await store.close();
    }
  });
});
