// Runs what the extension runs, from an extension folder as installed (the unpacked .vsix, or the folder
// code-server installed it to), never from the checkout:
//   node scripts/host/installed-probe.mjs EXT_DIR MODEL_DIR
// 1. sharp is not there to be found; 2. the embedding worker (transformers.js + onnxruntime's native
// binary for this platform) embeds text with a local model; 3. the vector index bundle ranks with those
// vectors; 4. the CLI imports and recalls. Prints one JSON line with what it saw; exits 1 on the first
// failure. Used by scripts/host/package.mjs and test/e2e/installed.e2e.mjs.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

const [extDir, modelDir] = process.argv.slice(2).map(p => p && path.resolve(p));
if (!extDir || !modelDir) { console.error('usage: installed-probe.mjs EXT_DIR MODEL_DIR'); process.exit(2); }

async function main() {
  const dist = path.join(extDir, 'dist');
  // The bundles are CommonJS, loaded as the extension host loads them: from their own folder.
  const load = createRequire(path.join(dist, 'extension.js'));
  const seen = {};
  // 1. Nothing named sharp resolves from the shipped code (the worker bundle replaced it).
  assert.throws(() => load.resolve('sharp'), { code: 'MODULE_NOT_FOUND' }, 'sharp resolves from the extension');
  seen.sharp = 'absent';

  // 2. + 3. The store bundle's embedder starts dist/embedWorker.js; dist/vectors.js indexes its vectors.
  const store = load('./store.js');
  const { VectorIndex } = load('./vectors.js');
  const e = await store.TransformersEmbedder.create({ localModelPath: modelDir, initTimeoutMs: 60_000 });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-probe-'));
  try {
    assert.equal(e.kind, 'model');
    const [cat, kitten, net] = await e.embed(['the cat', 'a kitten', 'network timeout']);
    const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
    assert.ok(dot(cat, kitten) > dot(cat, net), 'similar texts are not nearer than unrelated ones');
    seen.embedder = e.id;
    seen.dims = e.dims;
    const vi = await VectorIndex.open(path.join(tmp, 'index'));
    await vi.sync([{ id: 'pets', text: 'kitten feline', hash: '1' }, { id: 'net', text: 'socket connection timeout', hash: '1' }], e);
    assert.equal(vi.search((await e.embed(['cat']))[0], 1)[0].id, 'pets');
    seen.vectorIndex = 'ranks';
  } finally {
    await e.dispose();
  }

  // 4. The CLI as shipped: import a lesson, recall it by its error.
  try {
    const cli = path.join(dist, 'cli.js');
    const seed = path.join(tmp, 'seed.jsonl');
    fs.writeFileSync(seed, JSON.stringify({ kind: 'lesson', errorSignature: "TS2307: Cannot find module '@app/shared'", rootCause: 'tsconfig does not extend the root', fixApproach: 'extend ../../tsconfig.json' }) + '\n');
    const run = (...args) => execFileSync(process.execPath, [cli, '--store', path.join(tmp, 'store'), ...args], { encoding: 'utf8', cwd: tmp });
    assert.equal(JSON.parse(run('import', seed)).imported, 1);
    const r = JSON.parse(run('recall', "error TS2307: Cannot find module '@app/shared'", '--json'));
    assert.equal(r.results[0]?.rootCause, 'tsconfig does not extend the root');
    seen.cli = 'imports and recalls';
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(JSON.stringify(seen));
}

main().catch(err => { console.error(`installed-probe: ${err && err.stack || err}`); process.exit(1); });
