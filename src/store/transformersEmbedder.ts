// A real embedding model (transformers.js + onnxruntime) running in a worker thread. Creation fails
// with a clear error when the model is not on disk (and download is not allowed); createEmbedder()
// turns that into the HashEmbedder fallback plus a reason the UI can show.
import * as fs from 'fs';
import * as path from 'path';
import { Worker } from 'worker_threads';
import type { Logger } from '../core/types';
import { nullLogger } from '../core/types';
import type { Embedder } from './embedder';
import type { WorkerRequest, WorkerResponse } from './embedProtocol';
import { HashEmbedder } from './hashEmbedder';
import { DEFAULT_MODEL, modelUsage, resolveModel, type ModelLocation, type ModelUsage } from './modelFiles';

export { DEFAULT_MODEL, downloadModel, resolveModel, ModelNotFoundError, ModelDownloadError } from './modelFiles';
export type { DownloadOptions, DownloadProgress, ModelLocation, ResolveOptions } from './modelFiles';

export interface TransformersEmbedderOptions {
  model?: string;
  /** engram.embedding.localModelPath */
  localModelPath?: string;
  /** Global-storage folder where downloaded models live. */
  cacheDir?: string;
  /** engram.embedding.allowDownload: lets transformers.js fetch a model that is not on disk. Default false. */
  allowRemoteModels?: boolean;
  /** Built worker script. Default: embedWorker.js next to the running bundle (dist/). */
  workerPath?: string;
  /** Model load limit (ms); a stuck load becomes an error instead of a hang. Default 120 s. */
  initTimeoutMs?: number;
  logger?: Logger;
}

export class EmbedderUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'EmbedderUnavailableError';
  }
}

export class TransformersEmbedder implements Embedder {
  readonly kind = 'model' as const;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(r: WorkerResponse): void; reject(e: Error): void }>();
  private dead: Error | undefined;

  private constructor(private readonly worker: Worker, readonly id: string, readonly dims: number, readonly location: ModelLocation | undefined,
    private readonly usage: ModelUsage | undefined) {}

  static async create(opts: TransformersEmbedderOptions = {}): Promise<TransformersEmbedder> {
    const model = opts.model || DEFAULT_MODEL;
    let location: ModelLocation | undefined;
    try {
      location = resolveModel({ model, localModelPath: opts.localModelPath, cacheDir: opts.cacheDir });
    } catch (err) {
      if (!opts.allowRemoteModels || !opts.cacheDir) throw new EmbedderUnavailableError((err as Error).message, err);
    }
    const workerPath = opts.workerPath ?? path.join(__dirname, 'embedWorker.js');
    if (!fs.existsSync(workerPath)) throw new EmbedderUnavailableError(`The embedding worker is missing (${workerPath}); the extension build is incomplete.`);
    // The folder's own word on pooling and prompts, and the digest that makes its identity.
    const usage = location ? await modelUsage(location) : undefined;
    const worker = new Worker(workerPath);
    worker.unref();
    const init: WorkerRequest = {
      type: 'init', id: 0,
      root: location?.root ?? opts.cacheDir!, modelId: location?.modelId ?? model, dtype: location?.dtype ?? 'q8',
      cacheDir: opts.cacheDir, allowRemoteModels: !!opts.allowRemoteModels, pooling: usage?.pooling,
    };
    let dims: number;
    try {
      dims = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`loading took longer than ${(opts.initTimeoutMs ?? 120_000) / 1000} s`)), opts.initTimeoutMs ?? 120_000);
        const done = () => { clearTimeout(timer); worker.off('message', onMsg); worker.off('error', onErr); worker.off('exit', onExit); };
        const onMsg = (m: WorkerResponse) => {
          if (m.id !== 0) return;
          done();
          if (m.type === 'ready') resolve(m.dims); else reject(new Error(m.type === 'error' ? m.message : 'unexpected reply'));
        };
        const onErr = (e: Error) => { done(); reject(e); };
        const onExit = (code: number) => { done(); reject(new Error(`worker exited (${code})`)); };
        worker.on('message', onMsg);
        worker.on('error', onErr);
        worker.on('exit', onExit);
        worker.postMessage(init);
      });
    } catch (err) {
      await worker.terminate();
      throw new EmbedderUnavailableError(`Could not load embedding model ${model}: ${(err as Error).message}`, err);
    }
    // The identity is the folder loaded and what is in it, never the configured name: another model of the
    // same dimension in the setting means other vectors, so the index is rebuilt (vectorIndex.ts says so).
    const id = location && usage ? `tfjs:${location.dir}:${usage.digest.slice(0, 16)}:${init.dtype}:${dims}:${usage.pooling}` : `tfjs:${model}:${init.dtype}:${dims}`;
    const e = new TransformersEmbedder(worker, id, dims, location, usage);
    e.listen();
    return e;
  }

  private listen(): void {
    this.worker.on('message', (m: WorkerResponse) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      w.resolve(m);
    });
    const fail = (err: Error) => {
      this.dead = err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', err => fail(new Error(`Embedding worker crashed: ${err.message}`)));
    this.worker.on('exit', code => fail(new Error(`Embedding worker stopped (${code})`)));
  }

  async embed(input: string[], role: 'query' | 'passage' = 'passage'): Promise<Float32Array[]> {
    if (this.dead) throw this.dead;
    if (!input.length) return [];
    const prefix = role === 'query' ? this.usage?.queryPrefix : this.usage?.passagePrefix;
    const texts = prefix ? input.map(t => prefix + t) : input;
    const id = this.nextId++;
    // Keep the process alive only while work is in flight.
    this.worker.ref();
    try {
      const res = await new Promise<WorkerResponse>((resolve, reject) => {
        this.waiting.set(id, { resolve, reject });
        this.worker.postMessage({ type: 'embed', id, texts } satisfies WorkerRequest);
      });
      if (res.type === 'error') throw new Error(`Embedding failed: ${res.message}`);
      if (res.type !== 'vectors' || res.dims !== this.dims || res.data.length !== texts.length * this.dims) {
        throw new Error('Embedding worker returned vectors of the wrong shape');
      }
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) out.push(res.data.subarray(i * this.dims, (i + 1) * this.dims));
      return out;
    } finally {
      if (!this.waiting.size) this.worker.unref();
    }
  }

  async dispose(): Promise<void> {
    this.dead = this.dead ?? new Error('Embedder disposed');
    await this.worker.terminate();
  }
}

export interface EmbedderChoice {
  embedder: Embedder;
  /** Why the model is not used (shown to the user); undefined when it is. */
  fallbackReason?: string;
}

/** The model when it can be loaded, otherwise the HashEmbedder with the reason. Never throws. */
export async function createEmbedder(opts: TransformersEmbedderOptions & { enabled?: boolean }): Promise<EmbedderChoice> {
  const logger = opts.logger ?? nullLogger;
  if (opts.enabled === false) return { embedder: new HashEmbedder(), fallbackReason: 'Embedding model disabled by setting' };
  try {
    return { embedder: await TransformersEmbedder.create(opts) };
  } catch (err) {
    const reason = (err as Error).message;
    logger.warn(`Using the model-free embedder: ${reason}`);
    return { embedder: new HashEmbedder(), fallbackReason: reason };
  }
}

/**
 * The embedder for the CLI and `engram mcp`: the model the VS Code window loaded (published beside its
 * store, store/location.ts) when its files are here, loaded from the same folder so the id and the vectors
 * are the window's; else the model-free one. `note` says which, and why, for stderr.
 */
export async function windowEmbedder(modelDir: string | undefined, workerPath: string): Promise<{ embedder?: Embedder; note: string }> {
  if (!modelDir) return { note: 'no VS Code window published an embedding model: recall uses words, signatures and hashed vectors' };
  const choice = await createEmbedder({ localModelPath: modelDir, workerPath, allowRemoteModels: false });
  if (choice.fallbackReason) return { note: `the window's embedding model (${modelDir}) did not load here, recall uses words and signatures: ${choice.fallbackReason}` };
  return { embedder: choice.embedder, note: `embedding with the window's model ${choice.embedder.id}` };
}
