// What the vector index needs from an embedding model. Two implementations: HashEmbedder (no model,
// always available, in hashEmbedder.ts) and TransformersEmbedder (a real model in a worker thread). This
// file declares only the interface, so the implementations import it and it imports none of them.
export interface Embedder {
  /** Stable identity of the vector space: vectors from different ids are never compared. */
  readonly id: string;
  readonly dims: number;
  readonly kind: 'model' | 'hash';
  /**
   * One L2-normalised vector per text, in order. `role` 'query' for a recall query, 'passage' (the
   * default) for memories: a model whose config names prompts (e5's "query: " / "passage: ") gets them.
   */
  embed(texts: string[], role?: 'query' | 'passage'): Promise<Float32Array[]>;
  dispose(): void | Promise<void>;
}
