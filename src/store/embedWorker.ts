// Worker-thread entry (dist/embedWorker.js): the only place that loads @huggingface/transformers, so the
// extension host never parses it and never blocks on inference.
import { parentPort } from 'worker_threads';
import type { WorkerRequest, WorkerResponse } from './embedProtocol';

type Extractor = (texts: string[], opts: { pooling: 'mean' | 'cls'; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>;

let extractor: Extractor | undefined;
/** What the model's own 1_Pooling/config.json says (TransformersEmbedder reads it), else mean. */
let pooling: 'mean' | 'cls' = 'mean';

function reply(msg: WorkerResponse, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(msg, transfer);
}

parentPort?.on('message', (msg: WorkerRequest) => {
  void handle(msg).catch(err => reply({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) }));
});

async function handle(msg: WorkerRequest): Promise<void> {
  if (msg.type === 'init') {
    // Loaded here, not at the top: a missing or broken install becomes a clear init error.
    const tf = require('@huggingface/transformers') as typeof import('@huggingface/transformers');
    tf.env.allowRemoteModels = msg.allowRemoteModels;
    tf.env.allowLocalModels = true;
    tf.env.localModelPath = msg.root.endsWith('/') ? msg.root : msg.root + '/';
    if (msg.cacheDir) tf.env.cacheDir = msg.cacheDir;
    tf.env.logLevel = 40; // errors only: warnings would go to the host's stderr
    const pipe = await tf.pipeline('feature-extraction', msg.modelId, { dtype: msg.dtype, device: 'cpu' });
    extractor = pipe as unknown as Extractor;
    pooling = msg.pooling ?? 'mean';
    const probe = await extractor(['probe'], { pooling, normalize: true });
    reply({ type: 'ready', id: msg.id, dims: probe.dims[probe.dims.length - 1] });
    return;
  }
  if (msg.type === 'embed') {
    if (!extractor) throw new Error('model not loaded');
    if (!msg.texts.length) { reply({ type: 'vectors', id: msg.id, dims: 0, data: new Float32Array(0) }); return; }
    const out = await extractor(msg.texts, { pooling, normalize: true });
    const data = new Float32Array(out.data); // own copy, so its buffer can be transferred
    reply({ type: 'vectors', id: msg.id, dims: out.dims[out.dims.length - 1], data }, [data.buffer as ArrayBuffer]);
  }
}
