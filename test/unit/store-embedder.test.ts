// The real model path: a tiny BERT-shaped ONNX model generated here, loaded through the same worker
// bundle the extension ships (dist/embedWorker.js is built from the same source the same way).
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { createEmbedder, downloadModel, ModelDownloadError, resolveModel, TransformersEmbedder } from '../../src/store/transformersEmbedder';
import { VectorIndex } from '../../src/store/vectorIndex';
import { bundleWorker, repoRoot, tmpDir } from './store-helpers';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('TransformersEmbedder (worker thread, tiny generated model)', function () {
  this.timeout(120_000);
  let workerPath: string;
  let models: string;
  before(async () => {
    workerPath = await bundleWorker();
    // The .vsix ships no sharp (image library): the worker must embed text without ever asking for it.
    assert.doesNotMatch(fs.readFileSync(workerPath, 'utf8'), /require\(["']sharp["']\)/);
    models = tmpDir('models');
    const gen = await import(pathToFileURL(path.join(repoRoot, 'test/fixtures/make-tiny-model.mjs')).href) as { makeTinyModel(dir: string): unknown };
    gen.makeTinyModel(path.join(models, 'engram', 'tiny-bert'));
  });

  it('loads a local model folder, embeds, and ranks similar text above unrelated text', async () => {
    const e = await TransformersEmbedder.create({ model: 'engram/tiny-bert', localModelPath: models, workerPath });
    try {
      assert.strictEqual(e.kind, 'model');
      assert.strictEqual(e.dims, 16);
      assert.match(e.id, /engram\/tiny-bert/);
      const [cat, kitten, net, ko] = await e.embed(['the cat', 'a kitten', 'network timeout', '고양이']);
      assert.strictEqual(cat.length, 16);
      assert.ok(Math.abs(dot(cat, cat) - 1) < 1e-4, 'normalised');
      assert.ok(dot(cat, kitten) > dot(cat, net) + 0.3, `cat~kitten ${dot(cat, kitten)} vs cat~network ${dot(cat, net)}`);
      assert.ok(dot(cat, ko) > dot(cat, net), 'Korean word for cat is near cat');
      // Concurrent calls come back to the right caller.
      const [a, b] = await Promise.all([e.embed(['puppy']), e.embed(['socket timeout'])]);
      assert.ok(dot(a[0], (await e.embed(['dog']))[0]) > dot(a[0], b[0]));
    } finally {
      await e.dispose();
    }
  });

  it('accepts the model folder itself as engram.embedding.localModelPath and drives the vector index', async () => {
    const e = await TransformersEmbedder.create({ model: 'ignored/by-folder', localModelPath: path.join(models, 'engram', 'tiny-bert'), workerPath });
    try {
      const vi = await VectorIndex.open(path.join(tmpDir('vi-model'), 'index'));
      await vi.sync([
        { id: 'pets', text: 'kitten feline', hash: '1' },
        { id: 'net', text: 'socket connection timeout', hash: '1' },
      ], e);
      const q = (await e.embed(['cat']))[0];
      assert.strictEqual(vi.search(q, 1)[0].id, 'pets');
    } finally {
      await e.dispose();
    }
  });

  it('a missing model folder is a clear error, and createEmbedder falls back to the HashEmbedder', async () => {
    const missing = path.join(tmpDir('nomodel'), 'does-not-exist');
    await assert.rejects(TransformersEmbedder.create({ model: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2', localModelPath: missing, workerPath }),
      (e: Error) => /paraphrase-multilingual-MiniLM-L12-v2 was not found/.test(e.message) && e.message.includes(missing) && /localModelPath/.test(e.message));
    const choice = await createEmbedder({ localModelPath: missing, workerPath });
    assert.strictEqual(choice.embedder.kind, 'hash');
    assert.strictEqual(choice.embedder.dims, 384);
    assert.match(choice.fallbackReason ?? '', /not found/);
    assert.strictEqual((await choice.embedder.embed(['still works']))[0].length, 384);
  });

  it('its identity is the folder loaded and what is in it, not the configured name (issue 18)', async () => {
    const a = path.join(tmpDir('id-a'), 'm');
    fs.cpSync(path.join(models, 'engram', 'tiny-bert'), a, { recursive: true });
    const ids: string[] = [];
    for (const opts of [{ model: 'name-one', localModelPath: a }, { model: 'name-two', localModelPath: a }]) {
      const e = await TransformersEmbedder.create({ ...opts, workerPath });
      ids.push(e.id);
      await e.dispose();
    }
    assert.strictEqual(ids[0], ids[1], 'the same folder is the same vector space whatever the setting calls it');
    assert.ok(ids[0].includes(a), ids[0]);
    // Another model of the same dimension in the same place: other weights, another id (the index is rebuilt).
    const w = path.join(a, 'onnx', 'model_quantized.onnx');
    fs.writeFileSync(w, Buffer.concat([fs.readFileSync(w), Buffer.from([0])]));
    const changed = await TransformersEmbedder.create({ localModelPath: a, workerPath }).then(async e => { const id = e.id; await e.dispose(); return id; }, () => 'unloadable');
    assert.notStrictEqual(changed, ids[0]);
  });

  it('reads pooling and prompts from the model\'s own config (issue 18)', async () => {
    const plain = await TransformersEmbedder.create({ localModelPath: path.join(models, 'engram', 'tiny-bert'), workerPath });
    const dir = path.join(tmpDir('cls'), 'm');
    fs.cpSync(path.join(models, 'engram', 'tiny-bert'), dir, { recursive: true });
    fs.mkdirSync(path.join(dir, '1_Pooling'));
    fs.writeFileSync(path.join(dir, '1_Pooling', 'config.json'), JSON.stringify({ word_embedding_dimension: 16, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }));
    fs.writeFileSync(path.join(dir, 'config_sentence_transformers.json'), JSON.stringify({ prompts: { query: 'query: ', passage: 'passage: ' } }));
    const cls = await TransformersEmbedder.create({ localModelPath: dir, workerPath });
    try {
      assert.match(cls.id, /:cls$/);
      assert.match(plain.id, /:mean$/);
      const [m] = await plain.embed(['the cat network']);
      const [c] = await cls.embed(['the cat network']);
      assert.ok(dot(m, c) < 0.999, `CLS pooling gives another vector than mean pooling (${dot(m, c)})`);
      const [q] = await cls.embed(['cat'], 'query');
      const [p] = await cls.embed(['cat'], 'passage');
      const [mq] = await plain.embed(['cat'], 'query');
      const [mp] = await plain.embed(['cat'], 'passage');
      assert.ok(Math.abs(dot(mq, mp) - 1) < 1e-5, 'no prompts configured: query and passage embed alike');
      // CLS sees the first token, which is the same [CLS]; the prompts still reach the model (mean pooling shows them).
      assert.ok(q.length === p.length);
    } finally {
      await plain.dispose();
      await cls.dispose();
    }
    const promptsOnly = path.join(tmpDir('e5'), 'm');
    fs.cpSync(path.join(models, 'engram', 'tiny-bert'), promptsOnly, { recursive: true });
    // The tiny vocabulary has no "query"/"passage" (both would be [UNK]): prompts of its own words show
    // each reaches the model in its role, as e5's "query: " and "passage: " do.
    fs.writeFileSync(path.join(promptsOnly, 'config_sentence_transformers.json'), JSON.stringify({ prompts: { query: 'network ', passage: 'dog ' } }));
    const e5 = await TransformersEmbedder.create({ localModelPath: promptsOnly, workerPath });
    try {
      const [q] = await e5.embed(['cat'], 'query');
      const [p] = await e5.embed(['cat'], 'passage');
      assert.ok(dot(q, p) < 0.9999, `the query and passage prompts reach the model (${dot(q, p)})`);
    } finally { await e5.dispose(); }
  });

  it('an incomplete model folder names the missing file', async () => {
    const dir = path.join(tmpDir('partial'), 'm');
    fs.cpSync(path.join(models, 'engram', 'tiny-bert'), dir, { recursive: true });
    fs.rmSync(path.join(dir, 'tokenizer.json'));
    assert.throws(() => resolveModel({ localModelPath: dir }), /missing tokenizer\.json/);
  });

  it('a broken model file fails the load with the reason instead of hanging', async () => {
    const dir = path.join(tmpDir('broken'), 'm');
    fs.cpSync(path.join(models, 'engram', 'tiny-bert'), dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'onnx', 'model_quantized.onnx'), 'not a protobuf');
    const choice = await createEmbedder({ localModelPath: dir, workerPath });
    assert.strictEqual(choice.embedder.kind, 'hash');
    assert.match(choice.fallbackReason ?? '', /Could not load embedding model/);
  });
});

describe('downloadModel', function () {
  this.timeout(60_000);
  let models: string;
  before(async () => {
    models = tmpDir('dl-src');
    const gen = await import(pathToFileURL(path.join(repoRoot, 'test/fixtures/make-tiny-model.mjs')).href) as { makeTinyModel(dir: string): unknown };
    gen.makeTinyModel(path.join(models, 'org', 'tiny'));
  });

  async function serve(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
    const server = http.createServer(handler);
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise(r => { server.closeAllConnections(); server.close(() => r()); }) };
  }

  it('fetches the files hub-style with progress into the cache, where the embedder then finds them', async () => {
    const srv = await serve((req, res) => {
      const m = /^\/org\/tiny\/resolve\/main\/(.+)$/.exec(req.url ?? '');
      const file = m && path.join(models, 'org', 'tiny', m[1]);
      if (!file || !fs.existsSync(file)) { res.writeHead(404).end(); return; }
      const body = fs.readFileSync(file);
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    try {
      const cacheDir = tmpDir('cache');
      const progress: string[] = [];
      const loc = await downloadModel({ model: 'org/tiny', cacheDir, remoteHost: srv.url }, p => progress.push(`${p.file}:${p.loaded}/${p.total}`));
      assert.strictEqual(loc.dir, path.join(cacheDir, 'org', 'tiny'));
      assert.ok(progress.some(p => p.startsWith('onnx/model_quantized.onnx:')), progress.join(' '));
      assert.deepStrictEqual(resolveModel({ model: 'org/tiny', cacheDir }).dir, loc.dir);
      assert.ok(!fs.readdirSync(path.join(loc.dir, 'onnx')).some(n => n.endsWith('.download')), 'no temp files left');
    } finally {
      await srv.close();
    }
  });

  it('fails with a clear error when the hub cannot be reached (no hang)', async () => {
    const cacheDir = tmpDir('cache');
    await assert.rejects(downloadModel({ cacheDir, remoteHost: 'http://127.0.0.1:1' }),
      (e: unknown) => e instanceof ModelDownloadError && /Could not download embedding model Xenova\/paraphrase-multilingual-MiniLM-L12-v2 \(config\.json\)/.test(e.message) && /localModelPath/.test(e.message));
    assert.throws(() => resolveModel({ cacheDir }), /not found/, 'nothing half-downloaded counts as a model');
  });

  it('a stalled server times out, and a cancelled download stops', async () => {
    const srv = await serve((_req, res) => { res.writeHead(200, { 'content-length': '1000' }); res.write('x'); /* then nothing */ });
    try {
      await assert.rejects(downloadModel({ model: 'org/tiny', cacheDir: tmpDir('cache'), remoteHost: srv.url, stallTimeoutMs: 300 }), /no data for 0.3 s/);
      const ctl = new AbortController();
      setTimeout(() => ctl.abort(), 100);
      await assert.rejects(downloadModel({ model: 'org/tiny', cacheDir: tmpDir('cache'), remoteHost: srv.url }, undefined, ctl.signal), /cancelled/);
    } finally {
      await srv.close();
    }
  });
});
