// The model-free half of recall: code-aware tokens (lexical/tokenize.ts, after the noise in error
// text is dropped by lexical/meaningfulText.ts) and an incremental BM25 index over them
// (lexical/bm25.ts), which the store layers over the word index it persisted (lexical/layeredBm25.ts).
// Recall and the store import from here.
export { meaningfulText } from './lexical/meaningfulText';
export { stem, tokenize } from './lexical/tokenize';
export { Bm25Index, type Scored } from './lexical/bm25';
export { LayeredBm25, type FrozenPostings, type FrozenWords } from './lexical/layeredBm25';
