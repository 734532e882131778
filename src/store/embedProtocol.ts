// Messages between TransformersEmbedder (host side) and embedWorker (worker thread).
export type WorkerRequest =
  | { type: 'init'; id: number; root: string; modelId: string; dtype: 'q8' | 'fp32'; cacheDir?: string; allowRemoteModels: boolean; pooling?: 'mean' | 'cls' }
  | { type: 'embed'; id: number; texts: string[] };

export type WorkerResponse =
  | { type: 'ready'; id: number; dims: number }
  | { type: 'vectors'; id: number; dims: number; data: Float32Array }
  | { type: 'error'; id: number; message: string };
