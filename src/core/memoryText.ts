// The text a memory is found by: lexical and vector recall index exactly this, so what a user sees
// in a memory (error, cause, fix, tags) is what recall can match.
import type { Memory } from './types';

/** Caps the indexed text: a pasted log must not dominate BM25 length normalisation or the embedder. */
const MAX_CHARS = 4000;
/** Error output beyond this is usually boilerplate (usage text, repeated frames); head and tail carry the cause. */
const ERROR_TEXT_CHARS = 1500;

export function memoryText(m: Memory): string {
  const parts: (string | undefined)[] = [];
  switch (m.kind) {
    case 'lesson':
      // Cause and fix first: a long pasted log (npm usage text) must not push them past the cap.
      parts.push(m.rootCause, m.fixApproach, signatureText(m.errorSignature), m.errorCategory, m.stack.join(' '), bounded(m.errorText, ERROR_TEXT_CHARS));
      break;
    case 'episode':
      parts.push(m.summary, m.goal, m.domain, m.resolution, ...m.lessonsLearned,
        signatureText(m.errorSignature), m.toolsUsed.join(' '), bounded(m.trigger, ERROR_TEXT_CHARS),
        ...m.steps.slice(0, 20).map(s => `${s.action} ${s.result}`));
      break;
    case 'fact':
      parts.push(m.content, m.topic, m.key);
      break;
    case 'rule':
      parts.push(m.instruction);
      break;
  }
  parts.push(m.tags.join(' '));
  const text = parts.filter(p => p && p.trim()).join('\n');
  return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
}

function bounded(s: string | undefined, max: number): string | undefined {
  if (!s || s.length <= max) return s;
  const head = Math.floor(max * 0.7);
  return s.slice(0, head) + '\n' + s.slice(s.length - (max - head));
}

/** The normalised signature key a memory is filed under, if any (lessons and error episodes). */
export function memorySignature(m: Memory): string | undefined {
  if (m.kind === 'lesson') return m.errorSignature || undefined;
  if (m.kind === 'episode') return m.errorSignature || undefined;
  return undefined;
}

/** Every key a memory is found by: its signature, and for a lesson the errors its episode met on the way. */
export function memorySignatures(m: Memory): string[] {
  const main = memorySignature(m);
  const more = m.kind === 'lesson' ? m.variantSignatures ?? [] : [];
  return [...new Set([...(main ? [main] : []), ...more])];
}

/** The readable part of a key like "tsc:TS2322:type <str> is not assignable…": placeholders dropped. */
function signatureText(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return key.replace(/<[a-z]+>/g, ' ');
}
