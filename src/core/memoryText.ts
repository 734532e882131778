// The text a memory is found by: lexical and vector recall index exactly this, so what a user sees
// in a memory (error, cause, fix, tags) is what recall can match.
import type { Memory } from './types';

/** Caps the indexed text: a pasted log must not dominate BM25 length normalisation or the embedder. */
const MAX_CHARS = 4000;

export function memoryText(m: Memory): string {
  const parts: (string | undefined)[] = [];
  switch (m.kind) {
    case 'lesson':
      parts.push(m.errorText, signatureText(m.errorSignature), m.errorCategory, m.rootCause, m.fixApproach, m.stack.join(' '));
      break;
    case 'episode':
      parts.push(m.summary, m.trigger, m.goal, m.domain, m.resolution, ...m.lessonsLearned,
        signatureText(m.errorSignature), m.toolsUsed.join(' '),
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

/** The normalised signature key a memory is filed under, if any (lessons and error episodes). */
export function memorySignature(m: Memory): string | undefined {
  if (m.kind === 'lesson') return m.errorSignature || undefined;
  if (m.kind === 'episode') return m.errorSignature || undefined;
  return undefined;
}

/** The readable part of a key like "tsc:TS2322:type <str> is not assignable…": placeholders dropped. */
function signatureText(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return key.replace(/<[a-z]+>/g, ' ');
}
