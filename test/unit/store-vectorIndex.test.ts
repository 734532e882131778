// The derived vector index: correct search, kept in step with the memories, rebuilt from them on damage.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Embedder } from '../../src/store/embedder';
import { LocalIndex } from 'vectra';
import { HashEmbedder, HASH_DIMS } from '../../src/store/hashEmbedder';
import { VectorIndex, type IndexItemInput } from '../../src/store/vectorIndex';
import { tmpDir } from './store-helpers';

const emb = new HashEmbedder();
const items: IndexItemInput[] = [
  { id: 'ts', text: "TS2322: Type 'string' is not assignable to type 'number'", hash: 'h1' },
  { id: 'mod', text: "Error: Cannot find module 'express' imported from src/server.ts", hash: 'h1' },
  { id: 'ko', text: '모듈을 찾을 수 없습니다: express 패키지를 설치하세요', hash: 'h1' },
  { id: 'net', text: 'ETIMEDOUT connect to registry.npmjs.org timed out', hash: 'h1' },
];
async function q(text: string): Promise<Float32Array> { return (await emb.embed([text]))[0]; }
function indexIds(folder: string): string[] {
  const data = JSON.parse(fs.readFileSync(path.join(folder, 'index.json'), 'utf8')) as { items: { id: string }[] };
  return data.items.map(i => i.id).sort();
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('HashEmbedder', () => {
  it('is deterministic, 384-dimensional and L2-normalised', async () => {
    const [a, b] = await emb.embed(['Cannot read properties of undefined', 'Cannot read properties of undefined']);
    assert.strictEqual(a.length, HASH_DIMS);
    assert.deepStrictEqual(a, b);
    assert.ok(Math.abs(dot(a, a) - 1) < 1e-5);
    assert.deepStrictEqual(a, (await new HashEmbedder().embed(['Cannot read properties of undefined']))[0]);
  });

  it('scores shared wording and Korean particles above unrelated text', async () => {
    const base = await q('모듈을 찾을 수 없습니다');
    assert.ok(dot(base, await q('모듈이 없어서 찾을 수 없음')) > dot(base, await q('타입 오류가 발생했습니다')));
    const err = await q("Type 'string' is not assignable to type 'number'");
    assert.ok(dot(err, await q('type number not assignable')) > dot(err, await q('connection refused by host')));
  });

  it('embeds 10k short texts (time printed, not asserted)', async () => {
    const texts = Array.from({ length: 10_000 }, (_, i) => `TypeError: Cannot read properties of undefined (reading 'x${i}') at src/file${i}.ts:${i}`);
    const t0 = performance.now();
    const v = await emb.embed(texts);
    console.log(`      HashEmbedder: 10k texts in ${(performance.now() - t0).toFixed(0)} ms`);
    assert.strictEqual(v.length, 10_000);
  });
});

describe('VectorIndex', () => {
  it('finds the nearest memory and honours the filter', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    const vi = await VectorIndex.open(folder);
    const r = await vi.sync(items, emb);
    assert.strictEqual(r.embedded, 4);
    const hits = vi.search(await q("Cannot find module 'express'"), 2);
    assert.strictEqual(hits[0].id, 'mod');
    assert.ok(hits[0].score > hits[1].score);
    const filtered = vi.search(await q("Cannot find module 'express'"), 2, id => id !== 'mod');
    assert.ok(!filtered.some(h => h.id === 'mod'));
    assert.strictEqual(vi.search(await q('모듈을 찾을 수 없어요'), 1)[0].id, 'ko');
  });

  it('persists through Vectra and reloads without re-embedding', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    await (await VectorIndex.open(folder)).sync(items, emb);
    assert.deepStrictEqual(indexIds(folder), ['ko', 'mod', 'net', 'ts']);
    let calls = 0;
    const counting: Embedder = { id: emb.id, dims: emb.dims, kind: 'hash', embed: async t => { calls += t.length; return emb.embed(t); }, dispose() {} };
    const vi = await VectorIndex.open(folder);
    const r = await vi.sync(items, counting);
    assert.strictEqual(calls, 0, 'loaded from disk');
    assert.strictEqual(r.embedded, 0);
    assert.strictEqual(vi.search(await q('ETIMEDOUT registry timed out'), 1)[0].id, 'net');
  });

  it('removes deleted memories from memory and from disk; re-embeds changed ones', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    const vi = await VectorIndex.open(folder);
    await vi.sync(items, emb);
    const changed = items.filter(i => i.id !== 'net').map(i => i.id === 'ts' ? { ...i, text: 'ETIMEDOUT socket hang up', hash: 'h2' } : i);
    const r = await vi.sync(changed, emb);
    assert.strictEqual(r.removed, 1);
    assert.strictEqual(r.embedded, 1);
    assert.deepStrictEqual(indexIds(folder), ['ko', 'mod', 'ts']);
    assert.strictEqual(vi.search(await q('ETIMEDOUT socket'), 1)[0].id, 'ts');
    vi.remove(['ko']);
    assert.ok(!vi.search(await q('모듈을 찾을 수 없어요'), 3).some(h => h.id === 'ko'), 'gone from queries at once');
    await vi.flush();
    assert.deepStrictEqual(indexIds(folder), ['mod', 'ts']);
  });

  for (const damage of ['emptied', 'garbled', 'wrong dims'] as const) {
    it(`rebuilds from the memories when index.json is ${damage}, losing none`, async () => {
      const folder = path.join(tmpDir('vi'), 'index');
      await (await VectorIndex.open(folder)).sync(items, emb);
      const file = path.join(folder, 'index.json');
      if (damage === 'emptied') fs.writeFileSync(file, '');
      else if (damage === 'garbled') fs.writeFileSync(file, '{"version":1,"items":[{"id":"ts","vec');
      else {
        const data = JSON.parse(fs.readFileSync(file, 'utf8'));
        data.items[0].vector = [1, 2, 3];
        fs.writeFileSync(file, JSON.stringify(data));
      }
      const vi = await VectorIndex.open(folder);
      const r = await vi.sync(items, emb);
      assert.ok(r.warnings.length > 0, 'the repair is reported');
      assert.strictEqual(vi.size, 4);
      assert.deepStrictEqual(indexIds(folder), ['ko', 'mod', 'net', 'ts']);
      assert.strictEqual(vi.search(await q("Type 'string' is not assignable"), 1)[0].id, 'ts');
    });
  }

  it('rebuilds when the embedder changed (different id or dims)', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    await (await VectorIndex.open(folder)).sync(items, emb);
    const small = new HashEmbedder(64);
    const vi = await VectorIndex.open(folder);
    const r = await vi.sync(items, small);
    assert.match(r.rebuilt ?? '', /hash-v1-384/);
    assert.strictEqual(vi.dims, 64);
    assert.strictEqual(r.embedded, 4);
    const data = JSON.parse(fs.readFileSync(path.join(folder, 'index.json'), 'utf8'));
    assert.ok(data.items.every((i: { vector: number[] }) => i.vector.length === 64));
  });

  it('an aborted sync keeps its progress and the next sync finishes the rest', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    const many = Array.from({ length: 100 }, (_, i) => ({ id: `m${i}`, text: `memory number ${i}`, hash: 'h' }));
    const ctl = new AbortController();
    const vi = await VectorIndex.open(folder);
    await assert.rejects(vi.sync(many, emb, { batchSize: 10, signal: ctl.signal, onProgress: d => { if (d >= 30) ctl.abort(); } }), /cancelled/);
    assert.strictEqual(vi.size, 30);
    assert.strictEqual(indexIds(folder).length, 30, 'progress was saved');
    const again = await VectorIndex.open(folder);
    const r = await again.sync(many, emb);
    assert.strictEqual(r.embedded, 70);
    assert.strictEqual(again.size, 100);
  });

  it('a bulk write (hundreds of items) is a valid Vectra index that Vectra itself queries the same way', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    const many = Array.from({ length: 450 }, (_, i) => ({ id: `m${i}`, text: `error code E${i} in module part${i % 37}`, hash: 'h' }));
    const vi = await VectorIndex.open(folder);
    await vi.sync(many, emb);
    vi.remove(['m7']);
    await vi.flush();
    const query = await q('error code E123 in module part12');
    const ours = vi.search(query, 3).map(h => h.id);
    const theirs = (await new LocalIndex(folder).queryItems(Array.from(query), '', 3)).map(r => r.item.id);
    // Same hits (order of near-ties may differ: Vectra scores the rounded stored vectors in doubles).
    assert.deepStrictEqual([...theirs].sort(), [...ours].sort());
    assert.strictEqual(theirs[0], ours[0]);
    assert.strictEqual(ours[0], 'm123');
    assert.strictEqual(indexIds(folder).length, 449);
    const reopened = await VectorIndex.open(folder);
    assert.strictEqual((await reopened.sync(many.filter(m => m.id !== 'm7'), emb)).embedded, 0);
  });

  it('two writers on one folder merge their changes; a writer with another embedder replaces, never mixes', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    const a = await VectorIndex.open(folder);
    const b = await VectorIndex.open(folder);
    await a.sync(items.slice(0, 2), emb);
    await b.sync(items, emb); // b knows all four
    a.remove(['ts']);
    await a.flush();
    assert.deepStrictEqual(indexIds(folder), ['ko', 'mod', 'net'], "a's deletion kept b's additions");
    const other = await VectorIndex.open(folder);
    await other.sync(items.slice(0, 1), new HashEmbedder(32));
    const data = JSON.parse(fs.readFileSync(path.join(folder, 'index.json'), 'utf8')) as { items: { vector: number[] }[] };
    assert.ok(data.items.every(i => i.vector.length === 32), 'one vector space per file');
  });

  it('index.json holds vectors and hashes, never memory text', async () => {
    const folder = path.join(tmpDir('vi'), 'index');
    await (await VectorIndex.open(folder)).sync(items, emb);
    const raw = fs.readdirSync(folder).map(n => fs.readFileSync(path.join(folder, n), 'utf8')).join('');
    assert.ok(!raw.includes('express'));
    assert.ok(!raw.includes('모듈'));
  });
});
