// Builds memories written by hand (command, @memory /remember, the engram_remember tool) with the same
// defaults everywhere: workspace owner, a weak prior, maturity "observation" (trust is earned later),
// secrets masked before the store ever sees the text.
import type { Fact, Lesson, MemoryBase, MemorySource, Rule } from './types';
import { newId } from './ids';
import { maskSecrets } from './mask';
import { detectInjection } from './poison';
import { signatureKeyOf } from './recall';
import { normaliseSignature, signatureOf } from './signature';

export interface Origin {
  workspace: string;
  source: MemorySource;
  /** Agent namespace: "user" for the person, "copilot" for the tool. */
  agent: string;
  now?: number;
}

/**
 * What the text said before masking: masking can take out the carrier of an instruction (base64 of one
 * becomes «secret:…») and the memory should still be flagged for what it came with.
 */
function rawFlags(...texts: (string | undefined)[]): { flagged?: string[] } {
  const reasons = [...new Set(texts.flatMap(t => (t ? detectInjection(t) : [])))];
  return reasons.length ? { flagged: reasons } : {};
}

function base(origin: Origin, prefix: string, scope: string[], tags: string[]): Omit<MemoryBase, 'kind'> {
  const now = origin.now ?? Date.now();
  return {
    id: newId(prefix),
    owner: { scope: 'workspace', workspace: origin.workspace, agent: origin.agent },
    createdAt: now,
    updatedAt: now,
    accessCount: 0,
    importance: 0.5,
    source: origin.source,
    tags: tags.map(t => t.trim()).filter(Boolean),
    scope: scope.map(s => s.trim()).filter(Boolean),
    confidence: { alpha: 1, beta: 1 },
    maturity: 'observation',
  };
}

export function newLesson(origin: Origin, input: {
  errorText: string; rootCause: string; fixApproach: string; scope?: string[]; tags?: string[];
}): Lesson {
  const errorText = maskSecrets(input.errorText.trim());
  const sig = signatureOf(errorText) ?? normaliseSignature(errorText);
  return {
    ...base(origin, 'les', input.scope ?? [], input.tags ?? []),
    kind: 'lesson',
    errorSignature: signatureKeyOf(errorText) ?? sig.key,
    errorText,
    errorCategory: sig.family,
    stack: sig.tool && sig.tool !== 'generic' ? [sig.tool] : [],
    rootCause: maskSecrets(input.rootCause.trim()),
    fixApproach: maskSecrets(input.fixApproach.trim()),
    evidence: [],
    // No outcome: a lesson written by hand (or by an agent) came from no episode that Engram saw end
    // (issue 21: the sidebar labelled such a lesson "success"). Recall still treats it as one to follow.
    ...rawFlags(input.errorText, input.rootCause, input.fixApproach),
  };
}

export function newFact(origin: Origin, input: { content: string; scope?: string[]; tags?: string[]; topic?: string }): Fact {
  return {
    ...base(origin, 'fact', input.scope ?? [], input.tags ?? []),
    kind: 'fact',
    content: maskSecrets(input.content.trim()),
    topic: input.topic,
    type: 'fact',
    ...rawFlags(input.content),
  };
}

export function newRule(origin: Origin, input: { instruction: string; scope?: string[]; tags?: string[] }): Rule {
  return {
    ...base(origin, 'rule', input.scope ?? [], input.tags ?? []),
    kind: 'rule',
    instruction: maskSecrets(input.instruction.trim()),
    ...rawFlags(input.instruction),
  };
}

/** "Always…", "Never…", "Do not…", "항상…", "절대…", "반드시…", "…하지 마" read as rules; the rest as facts. */
export function looksLikeRule(text: string): boolean {
  const t = text.trim().toLowerCase();
  return /^(always|never|must|do not|don't|dont|avoid|prefer|use |only )/.test(t)
    || /(항상|절대|반드시|하지\s*마|금지|말\s*것)/.test(t);
}
