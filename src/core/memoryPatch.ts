// What a person (or the team file, or an agent explaining its fix) may change on a memory: its words,
// where it applies, and how it is kept. Never its maturity, confidence, evidence or identity: those move
// only through promote / demote / feedback, where the trust ladder decides (core/writePlan.ts, core/trust.ts).
import type { Fact, Lesson, LessonAuthor, Maturity } from './types';

interface Editable {
  // lessons
  errorText: string;
  rootCause: string;
  fixApproach: string;
  rule: string;
  notWhen: string;
  /** Who wrote the lesson's words: set with them (an agent's explanation, the user's edit). */
  author: LessonAuthor;
  /** The constraint's check: set by the user before promoting a rule to constraint, or by the team file. */
  check: NonNullable<Lesson['check']>;
  // facts
  content: string;
  topic: string;
  type: Fact['type'];
  key: string;
  // rules
  instruction: string;
  // episodes
  summary: string;
  resolution: string;
  // every kind
  scope: string[];
  tags: string[];
  pinned: boolean;
  purpose: string;
}

/** A change to a memory; `null` removes the field (as the reducer folds an `updated` event). */
export type MemoryPatch = { [K in keyof Editable]?: Editable[K] | null };

/**
 * A changed team-file line (core/team.ts teamEdit): its new words, the injection flags of those words,
 * and the maturity it drops to (never a raise) when it held more than the team cap allows.
 */
export interface TeamEdit { patch: MemoryPatch; flagged?: string[] | null; demoteTo?: Maturity }

export const MEMORY_PATCH_KEYS: readonly (keyof Editable)[] = [
  'errorText', 'rootCause', 'fixApproach', 'rule', 'notWhen', 'author', 'check',
  'content', 'topic', 'type', 'key', 'instruction', 'summary', 'resolution',
  'scope', 'tags', 'pinned', 'purpose',
];

const ALLOWED = new Set<string>(MEMORY_PATCH_KEYS);

/**
 * The problem with a patch that came through an untyped path (a webview, a JS caller), or undefined:
 * a key outside MemoryPatch is refused, not dropped, so nobody believes they changed maturity.
 */
export function patchProblem(patch: object): string | undefined {
  const bad = Object.keys(patch).filter(k => !ALLOWED.has(k));
  return bad.length ? `a memory edit may not set ${bad.join(', ')} (maturity and confidence change through promote, demote and feedback)` : undefined;
}
