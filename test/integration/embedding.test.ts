// The real model path inside the real extension host: a tiny BERT-shaped model generated here (no hub
// is reachable) is picked up through engram.embedding.localModelPath, loaded by transformers.js in the
// worker thread, and its vectors take part in recall. Without it the stores fall back to the
// model-free embedder, which the other suites run on.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vscode from 'vscode';
import type { EngramApi, EngramTestAccess } from '../../src/vscode/api';
import { testAccess } from './testAccess';
import type { Fact } from '../../src/core/types';
import { newId } from '../../src/core/ids';
import { reasonTexts } from '../../src/core/reasons';

const EXTENSION_ID = 'engram-dev.engram';

function fact(content: string): Fact {
  const now = Date.now();
  return {
    id: newId('f'), kind: 'fact', content, type: 'fact', owner: { scope: 'workspace' }, createdAt: now, updatedAt: now,
    accessCount: 0, importance: 0.5, source: 'manual', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
  };
}

suite('Embedding model', function () {
  this.timeout(180_000);
  let api: EngramTestAccess;
  let modelDir: string;
  const config = () => vscode.workspace.getConfiguration('engram.embedding');

  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension<EngramApi>(EXTENSION_ID);
    assert.ok(ext);
    api = testAccess(await ext.activate());
    modelDir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-tiny-model-'));
    const gen = await import(pathToFileURL(path.join(ext.extensionPath, 'test/fixtures/make-tiny-model.mjs')).href) as { makeTinyModel(dir: string): unknown };
    gen.makeTinyModel(modelDir);
  });

  suiteTeardown(async () => {
    // Back to the model-free embedder for the suites that follow.
    await config().update('localModelPath', undefined, vscode.ConfigurationTarget.Global);
    await api.services.reopenStores();
    fs.rmSync(modelDir, { recursive: true, force: true });
  });

  test('a local model folder is loaded in the worker and its vectors find a memory that shares no word with the question', async () => {
    await config().update('localModelPath', modelDir, vscode.ConfigurationTarget.Global);
    await api.services.reopenStores();
    const store = await api.services.store();
    // The id names the loaded folder, a digest of its files, the dtype, its dimensions (the generated model
    // has 16) and its pooling (src/store/transformersEmbedder.ts).
    assert.match(store.stats().embedder, /^tfjs:.+:[0-9a-f]{16}:[a-z0-9]+:16:[a-z]+$/, `the store uses the model, not "${store.stats().embedder}"`);

    const pets = await store.record(fact('kitten feline'));
    await store.record(fact('socket connection timeout'));
    const results = await api.services.recall({ text: 'cat', k: 3 }, { noteShown: false });
    assert.ok(results.length > 0, 'the model finds something for a word no memory contains');
    assert.strictEqual(results[0].memory.id, pets.id, `first: ${results.map(r => `${r.memory.id} ${reasonTexts(r.reasons).join('; ')}`).join(' | ')}`);
    assert.ok(results[0].reasons.some(x => x.kind === 'similar'), `why says it was similar: ${reasonTexts(results[0].reasons).join('; ')}`);
  });

  test('without a model the stores fall back to the model-free embedder and recall still works', async () => {
    await config().update('localModelPath', path.join(modelDir, 'does-not-exist'), vscode.ConfigurationTarget.Global);
    await api.services.reopenStores();
    const store = await api.services.store();
    assert.strictEqual(store.stats().embedder, 'hash');
    await store.record(fact('socket connection timeout'));
    const results = await api.services.recall({ text: 'socket connection timeout', k: 3 }, { noteShown: false });
    assert.ok(results.some(r => r.memory.kind === 'fact' && (r.memory as Fact).content === 'socket connection timeout'), 'recall still works on words');
  });
});
