// Loads dist/store.js (vectra, the index, the embedder) only when a memory is first needed, so
// activation parses none of it. The path is computed so esbuild does not pull the store into the
// extension bundle.
import * as path from 'path';

export type StoreModule = typeof import('../store/index');

let cached: StoreModule | undefined;

export function loadStoreModule(): StoreModule {
  if (!cached) {
    const file = path.join(__dirname, 'store.js');
    cached = require(file) as StoreModule;
  }
  return cached;
}
