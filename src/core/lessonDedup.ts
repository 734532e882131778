// Finding "the same lesson" (trust.isDuplicateLesson, same scope and owner) among many, in near-constant
// time per lookup. Comparing each new lesson with every earlier one of the same signature made an import
// of 8,000 id-less lessons sharing one error take 72 s (quadratic). Here most questions are answered by a
// key: a captured lesson merges only on its fixKey, an empty fix only with an empty fix, and fixes with the
// same words are always the same fix. Only fixes that differ in words need the fuzzy comparison, and that
// looks at the most recent FUZZY_WINDOW of them per signature: past that, a near-copy stays a separate
// lesson (harmless) rather than every line paying for every earlier one.
import { fixWords, isDuplicateLesson } from './trust';
import type { Lesson } from './types';

/** Free-text fixes compared word by word per lookup, per signature, scope and owner. */
export const FUZZY_WINDOW = 64;


function fixKeyOf(l: Lesson): string {
  if (l.fixKey) return `k${l.fixKey}`;
  const fix = (l.fixApproach || '').trim();
  if (!fix) return 'e';
  return `w${[...fixWords(fix)].sort().join(' ')}`;
}

export class LessonDedup {
  private readonly exact = new Map<string, Lesson>();
  private readonly recent = new Map<string, Lesson[]>();
  /** Lesson-to-lesson comparisons made so far (the cost that used to grow with the square of the input). */
  comparisons = 0;

  /**
   * `byScope`: a twin in another scope or of another owner is a different memory (the store's rule);
   * a team file merges on signature and fix alone (its lines all have one owner).
   */
  constructor(private readonly byScope = true) {}

  private groupKey(l: Lesson): string {
    if (!this.byScope) return l.errorSignature;
    // An observed fix (fixKey) is the same lesson in any scope (writePlan.sameLesson): its scope grows.
    const scope = l.fixKey ? '*' : [...(l.scope ?? [])].sort().join('\u0001');
    return [l.errorSignature, scope, l.owner?.scope ?? 'workspace'].join('\u0000');
  }

  /** Files a lesson so later ones can be found to repeat it. */
  add(l: Lesson): void {
    if (!l.errorSignature || l.unexplained) return;
    const g = this.groupKey(l);
    const k = `${g}\u0000${fixKeyOf(l)}`;
    if (!this.exact.has(k)) this.exact.set(k, l);
    if (l.fixKey || !(l.fixApproach || '').trim()) return;
    let list = this.recent.get(g);
    if (!list) { list = []; this.recent.set(g, list); }
    list.push(l);
    if (list.length > FUZZY_WINDOW * 2) list.splice(0, list.length - FUZZY_WINDOW);
  }

  /** An earlier lesson that `l` repeats (same signature, same fix, same owner, same scope unless the fix was observed), if any. */
  find(l: Lesson): Lesson | undefined {
    if (!l.errorSignature || l.unexplained) return undefined;
    const g = this.groupKey(l);
    const hit = this.exact.get(`${g}\u0000${fixKeyOf(l)}`);
    if (hit) { this.comparisons++; if (isDuplicateLesson(hit, l)) return hit; }
    if (l.fixKey || !(l.fixApproach || '').trim()) return undefined;
    const list = this.recent.get(g);
    if (!list) return undefined;
    for (let i = list.length - 1, n = 0; i >= 0 && n < FUZZY_WINDOW; i--, n++) {
      this.comparisons++;
      if (isDuplicateLesson(list[i], l)) return list[i];
    }
    return undefined;
  }
}
