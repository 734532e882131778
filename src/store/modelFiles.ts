// Where an embedding model's files are on disk, and fetching them once when the user allows it.
// Nothing here downloads on its own: resolveModel only looks; downloadModel runs on an explicit request.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

export const DEFAULT_MODEL = 'Xenova/paraphrase-multilingual-MiniLM-L12-v2';
export const DEFAULT_REMOTE_HOST = 'https://huggingface.co';

/** Files transformers.js reads for a feature-extraction model (the quantized graph: ~4x smaller). */
export const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'] as const;

export type ModelDtype = 'q8' | 'fp32';

export interface ModelLocation {
  /** Folder holding the model folder; transformers.js `env.localModelPath`. */
  root: string;
  /** Model id relative to `root` (e.g. "Xenova/paraphrase-multilingual-MiniLM-L12-v2"). */
  modelId: string;
  /** The model folder itself. */
  dir: string;
  dtype: ModelDtype;
}

export interface ResolveOptions {
  model?: string;
  /** User setting engram.embedding.localModelPath: a model folder, or a folder of model folders. */
  localModelPath?: string;
  /** Where downloadModel puts models (the extension's global storage). */
  cacheDir?: string;
}

export class ModelNotFoundError extends Error {
  readonly code = 'EMODELNOTFOUND';
  constructor(readonly model: string, readonly searched: string[], readonly missing: string[]) {
    super(`Embedding model ${model} was not found` +
      (searched.length ? ` (looked in ${searched.join(', ')}${missing.length ? `; missing ${missing.join(', ')}` : ''})` : '') +
      '. Download it from the command palette or set engram.embedding.localModelPath to a folder with its files.');
    this.name = 'ModelNotFoundError';
  }
}

function check(dir: string): { dtype?: ModelDtype; missing: string[] } {
  const missing = ['config.json', 'tokenizer.json', 'tokenizer_config.json'].filter(f => !fs.existsSync(path.join(dir, f)));
  const dtype: ModelDtype | undefined = fs.existsSync(path.join(dir, 'onnx', 'model_quantized.onnx')) ? 'q8'
    : fs.existsSync(path.join(dir, 'onnx', 'model.onnx')) ? 'fp32' : undefined;
  if (!dtype) missing.push('onnx/model_quantized.onnx (or onnx/model.onnx)');
  return { dtype: missing.length ? undefined : dtype, missing };
}

/** Finds a complete model folder, or throws ModelNotFoundError saying where it looked and what is missing. */
export function resolveModel(opts: ResolveOptions): ModelLocation {
  const model = opts.model || DEFAULT_MODEL;
  const searched: string[] = [];
  let missing: string[] = [];
  const candidates: { root: string; modelId: string }[] = [];
  if (opts.localModelPath) {
    const p = path.resolve(opts.localModelPath);
    candidates.push({ root: path.dirname(p), modelId: path.basename(p) }); // the folder is the model
    candidates.push({ root: p, modelId: model });                           // the folder holds models
  }
  if (opts.cacheDir) candidates.push({ root: path.resolve(opts.cacheDir), modelId: model });
  for (const c of candidates) {
    const dir = path.join(c.root, c.modelId);
    searched.push(dir);
    if (!fs.existsSync(dir)) continue;
    const r = check(dir);
    if (r.dtype) return { ...c, dir, dtype: r.dtype };
    if (!missing.length) missing = r.missing;
  }
  throw new ModelNotFoundError(model, searched, missing);
}

export interface DownloadOptions {
  model?: string;
  cacheDir: string;
  remoteHost?: string;
  /** Give up when no bytes arrive for this long (ms). Default 30 s. */
  stallTimeoutMs?: number;
  fetch?: typeof fetch;
}

export interface DownloadProgress { file: string; loaded: number; total?: number; fileIndex: number; fileCount: number }

export class ModelDownloadError extends Error {
  constructor(readonly model: string, readonly file: string, readonly reason: string) {
    super(`Could not download embedding model ${model} (${file}): ${reason}. ` +
      'Check the network, or put the model files in a folder and set engram.embedding.localModelPath.');
    this.name = 'ModelDownloadError';
  }
}

/**
 * Fetches the model's files into `cacheDir/<model>/` (each via a temp file, renamed when complete), with
 * progress. Fails with ModelDownloadError, never hangs: a stalled connection times out.
 */
export async function downloadModel(opts: DownloadOptions, onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal): Promise<ModelLocation> {
  const model = opts.model || DEFAULT_MODEL;
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(model) || model.includes('..')) throw new ModelDownloadError(model, '-', 'invalid model id');
  const host = (opts.remoteHost ?? DEFAULT_REMOTE_HOST).replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;
  const stallMs = opts.stallTimeoutMs ?? 30_000;
  const dir = path.join(opts.cacheDir, model);
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  for (let i = 0; i < MODEL_FILES.length; i++) {
    const file = MODEL_FILES[i];
    const dest = path.join(dir, file);
    if (fs.existsSync(dest)) { onProgress?.({ file, loaded: 1, total: 1, fileIndex: i, fileCount: MODEL_FILES.length }); continue; }
    const url = `${host}/${model}/resolve/main/${file}`;
    const ctl = new AbortController();
    const onAbort = () => ctl.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort);
    let stall: NodeJS.Timeout | undefined;
    const arm = () => { clearTimeout(stall); stall = setTimeout(() => ctl.abort(new Error(`no data for ${stallMs / 1000} s`)), stallMs); };
    const tmp = `${dest}.${process.pid}.download`;
    try {
      if (signal?.aborted) throw new Error('cancelled');
      arm();
      const res = await doFetch(url, { signal: ctl.signal, redirect: 'follow' });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
      const total = Number(res.headers.get('content-length')) || undefined;
      const out = fs.openSync(tmp, 'w');
      let loaded = 0;
      try {
        const reader = res.body.getReader();
        for (;;) {
          arm();
          const { done, value } = await reader.read();
          if (done) break;
          fs.writeSync(out, value);
          loaded += value.length;
          onProgress?.({ file, loaded, total, fileIndex: i, fileCount: MODEL_FILES.length });
        }
        fs.fsyncSync(out);
      } finally {
        fs.closeSync(out);
      }
      if (total !== undefined && loaded !== total) throw new Error(`received ${loaded} of ${total} bytes`);
      fs.renameSync(tmp, dest);
    } catch (err) {
      try { fs.unlinkSync(tmp); } catch { /* never created */ }
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const reason = signal?.aborted ? 'cancelled'
        : ctl.signal.aborted && ctl.signal.reason instanceof Error ? ctl.signal.reason.message
        : e.cause?.code ? `${e.message} (${e.cause.code})` : e.message;
      throw new ModelDownloadError(model, file, reason);
    } finally {
      clearTimeout(stall);
      signal?.removeEventListener('abort', onAbort);
    }
  }
  return resolveModel({ model, cacheDir: opts.cacheDir });
}

/** How the model's own files say it is used: sentence-transformers' pooling config and prompts. */
export interface ModelUsage {
  /** 1_Pooling/config.json: CLS-token pooling when it says so, else mean pooling. */
  pooling: 'mean' | 'cls';
  /** config_sentence_transformers.json "prompts" (e5: "query: ", "passage: "); empty when it names none. */
  queryPrefix: string;
  passagePrefix: string;
  /** sha256 over the folder's config, tokenizer and weights: another model in the same place is another id. */
  digest: string;
}

function readJsonFile(file: string): Record<string, unknown> | undefined {
  try { const v = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown; return typeof v === 'object' && v !== null ? v as Record<string, unknown> : undefined; } catch { return undefined; }
}

/** Reads what the loaded folder says about itself (pooling, prompts) and digests its files. */
export async function modelUsage(loc: ModelLocation): Promise<ModelUsage> {
  const pool = readJsonFile(path.join(loc.dir, '1_Pooling', 'config.json'));
  const pooling = pool?.pooling_mode_cls_token === true && pool?.pooling_mode_mean_tokens !== true ? 'cls' : 'mean';
  const prompts = readJsonFile(path.join(loc.dir, 'config_sentence_transformers.json'))?.prompts as Record<string, unknown> | undefined;
  const prompt = (k: string) => (typeof prompts?.[k] === 'string' ? prompts[k] as string : '');
  const hash = createHash('sha256');
  const weights = loc.dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', '1_Pooling/config.json', 'config_sentence_transformers.json', weights]) {
    const file = path.join(loc.dir, f);
    if (!fs.existsSync(file)) continue;
    hash.update(`${f}\n`);
    // Streamed: weights are tens of megabytes.
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  }
  return { pooling, queryPrefix: prompt('query'), passagePrefix: prompt('passage') || prompt('document'), digest: hash.digest('hex') };
}
