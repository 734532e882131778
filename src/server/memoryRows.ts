// A memory as a `memories` row: the Memory itself as JSON (the record) and the columns derived from it
// that the candidate queries search — its words (Engram's own tokenizer, the one the window's BM25 uses,
// as a tsvector for PostgreSQL full-text search, with term counts for BM25), its signature keys and their
// message texts, its evidence ids, and its vector when pgvector is there.
import { tokenize } from '../core/lexical';
import { memorySignatures, memoryText } from '../core/memoryText';
import { signatureTextOf } from '../core/recallQuery';
import type { Memory } from '../core/types';
import { HashEmbedder } from '../store/hashEmbedder';

export type Visibility = 'team' | 'private';
export type Status = 'approved' | 'proposed';

/** What the row says beside the memory: who may see it and whether the team has approved it. */
export interface RowMeta { visibility: Visibility; principal: string; status: Status }

export interface DerivedColumns {
  sigKeys: string[];
  sigTexts: string[];
  evidence: string[];
  terms: string[];
  tf: number[];
  len: number;
}

/** A lexeme PostgreSQL accepts: no empty string, and bounded (a tsvector lexeme is at most 2 KB). */
const MAX_TERM = 200;

export function derive(m: Memory): DerivedColumns {
  const tokens = tokenize(memoryText(m));
  const counts = new Map<string, number>();
  for (const t of tokens) if (t && t.length <= MAX_TERM) counts.set(t, (counts.get(t) ?? 0) + 1);
  const keys = memorySignatures(m);
  return {
    sigKeys: keys,
    sigTexts: [...new Set(keys.map(signatureTextOf).filter(t => t.length >= 12))],
    evidence: m.kind === 'lesson' ? [...new Set(m.evidence)] : [],
    terms: [...counts.keys()],
    tf: [...counts.values()],
    len: tokens.length,
  };
}

const embedder = new HashEmbedder();

/** pgvector's text form of a memory's vector (the model-free hash embedder, deterministic everywhere). */
export function vectorLiteral(text: string): string {
  return vectorText(embedder.embedOne(text));
}

export function vectorText(v: Float32Array): string {
  return `[${Array.from(v, x => (x === 0 ? '0' : x.toPrecision(6))).join(',')}]`;
}

export function parseVector(text: string | null | undefined): Float32Array | undefined {
  if (!text) return undefined;
  const body = text.trim().replace(/^\[|\]$/g, '');
  if (!body) return undefined;
  return Float32Array.from(body.split(','), Number);
}

export function memoryVectorLiteral(m: Memory): string {
  return vectorLiteral(memoryText(m));
}

/**
 * A tsquery matching any of `terms` exactly (OR), written as a literal: casting text to tsquery keeps
 * each lexeme as given (no parser, no stemming), so it meets the tsvector built from the same tokenizer.
 */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map(t => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}
