// The pattern pass: episodes that keep ending the same way become pattern lessons (evidence: the
// episodes). Run by the window in the background and by every CLI command that writes episodes
// (import, ingest, replay, the agent hook), so a store fed only from the command line learns patterns too.
import { createHash } from 'crypto';
import { extractPatterns, patternLesson } from '../core/patterns';
import type { Episode, Owner } from '../core/types';
import type { MemoryStore } from './memoryStore';

export interface PatternPassOptions {
  /** Owner of new pattern lessons (default: the store's workspace). */
  owner?: Owner;
  now?: number;
  /**
   * Pattern ids proposed before (the window keeps them in its workspace state). A forgotten pattern is
   * tombstoned in the store, which already keeps it from coming back; this set is the window's older record.
   */
  proposed?: ReadonlySet<string>;
}

export interface PatternPassResult {
  /** Ids of the pattern lessons this pass proposed (new, or merged into a lesson that says the same). */
  proposed: string[];
  /** Of those, the ones recorded as new lessons. */
  created: string[];
  episodes: number;
}

/** Stable id of a candidate: the same episodes propose the same pattern in every process. */
export function patternId(key: string): string {
  return `p_${createHash('sha1').update(key).digest('hex').slice(0, 16)}`;
}

export async function runPatternPass(store: MemoryStore, opts: PatternPassOptions = {}): Promise<PatternPassResult> {
  const episodes = store.list({ kinds: ['episode'] }) as Episode[];
  const proposed: string[] = [];
  const created: string[] = [];
  for (const c of extractPatterns(episodes)) {
    const id = patternId(c.key);
    if (opts.proposed?.has(id) || store.get(id) || store.isForgotten(id)) continue;
    const owner = opts.owner ?? store.defaultOwner();
    const saved = await store.recordPattern(patternLesson(c, { id, now: opts.now ?? Date.now(), owner }));
    proposed.push(id);
    if (saved.id === id) created.push(id);
  }
  return { proposed, created, episodes: episodes.length };
}
