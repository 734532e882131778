// Loads the vector index (vectorIndex.ts, on Vectra) only when a model's vectors are in use: with the
// model-free hash embedder nothing loads it. The dist bundles keep it out (esbuild.mjs builds it as
// dist/vectors.js and points this import there), so the CLI and the store bundle do not parse Vectra and
// its tokenizer model (about 4 MB) on every start.
import { createHash } from 'crypto';
import { memoryText } from '../core/memoryText';
import type { Logger, Memory } from '../core/types';
import type { IndexItemInput, VectorIndex } from './vectorIndex';

export type { VectorIndex } from './vectorIndex';

export async function loadVectorIndex(folder: string, opts: { logger?: Logger; readOnly?: boolean }): Promise<VectorIndex> {
  const mod = await import('./vectorIndex');
  return mod.VectorIndex.open(folder, opts);
}

/** What the vector index embeds of a memory, and the hash that tells it the text changed. */
export function itemOf(m: Memory): IndexItemInput {
  const text = memoryText(m);
  return { id: m.id, text, hash: createHash('sha1').update(text).digest('hex') };
}
