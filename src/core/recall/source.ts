// What the ranking in recall.ts reads, as interfaces: the memory lookup, the word index, the signature
// index and the vectors. The window, the CLI and `engram mcp` hand it the store's (src/store/derivedIndexes.ts:
// the view it persisted with the changes since on top), tests the in-memory ones (MemoryState, Bm25Index, a
// Map). Another backend plugs in here: a team server builds,
// per query, a small object of each shape over the rows its database returned (full-text hits with the
// query words they matched and the words' idf, the rows filed under the query's signature keys, pgvector
// neighbours, the constraints and the lessons of the episodes it found), and runs the same RecallEngine
// over it. Nothing here is asynchronous: a database fetches before ranking, never during it.
import type { Memory } from '../types';

/** Memories by id, and the ones ranking walks whole (constraints; lessons by their evidence). */
export interface MemoryLookup {
  get(id: string): Memory | undefined;
  has(id: string): boolean;
  /** Every memory the lookup holds (a database backend: the ones it fetched for this query). */
  all(): Iterable<Memory>;
  /** Changes whenever the memories do: ranking's caches are keyed by it. */
  readonly revision: number;
}

/** Word search (BM25 in memory; full-text search in a database). */
export interface WordIndex {
  /** Best `n` memories for the query tokens, each with its score and the query tokens it has. */
  searchWithTerms(tokens: string[], n: number): { id: string; score: number; terms: string[] }[];
  /** Inverse document frequency of a token (0 when no memory has it). */
  idf(token: string): number;
  /** How many memories are indexed. */
  readonly size: number;
}

/** Signature key → ids of the memories filed under it. */
export interface SignatureIndex {
  get(key: string): Iterable<string> | undefined;
  /** Every key (a database backend: the keys whose message text the query's signatures share). */
  keys(): Iterable<string>;
  readonly size: number;
  /**
   * Keys whose message text (recallQuery.signatureTextOf) is `text`, for texts of 12 characters or more;
   * an index that keeps this table (the store's persisted view) saves ranking a walk over every key.
   */
  keysWithText?(text: string): Iterable<string>;
}
