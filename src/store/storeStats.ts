// The counts `engram stats` and the status views show: memories by kind and maturity, what needs a look.
import type { Maturity, Memory, MemoryKind } from '../core/types';

export interface StoreStats {
  memories: number;
  byKind: Record<MemoryKind, number>;
  byMaturity: Record<Maturity, number>;
  quarantined: number;
  flagged: number;
  /** "hash" when no model is in use, otherwise the model's id. */
  embedder: string;
  vectors: number;
  revision: number;
  warnings: string[];
}

export function storeStats(all: Memory[], rest: Pick<StoreStats, 'embedder' | 'vectors' | 'revision' | 'warnings'>): StoreStats {
  const byKind: Record<MemoryKind, number> = { lesson: 0, episode: 0, fact: 0, rule: 0 };
  const byMaturity: Record<Maturity, number> = { observation: 0, pattern: 0, rule: 0, constraint: 0 };
  let quarantined = 0, flagged = 0;
  for (const m of all) {
    byKind[m.kind] = (byKind[m.kind] ?? 0) + 1;
    byMaturity[m.maturity] = (byMaturity[m.maturity] ?? 0) + 1;
    if (m.quarantined) quarantined++;
    if (m.flagged?.length) flagged++;
  }
  return { memories: all.length, byKind, byMaturity, quarantined, flagged, ...rest };
}
