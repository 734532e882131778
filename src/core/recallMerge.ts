// Recall across stores (the workspace's, and the user's personal one when it is on), as every surface
// merges it: by score, k kept, and every constraint in scope kept however many there are.
import type { RecallResult } from './types';

export function mergeRecall(main: RecallResult[], personal: readonly RecallResult[], k: number): RecallResult[] {
  const results = [...main];
  if (personal.length) {
    results.push(...personal.map(r => ({ ...r, reasons: [...r.reasons, { kind: 'personal' as const }] })));
    results.sort((a, b) => b.score - a.score);
  }
  return results.slice(0, Math.max(k, results.filter(r => r.memory.maturity === 'constraint').length));
}
