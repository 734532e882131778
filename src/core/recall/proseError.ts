// Whether a lesson an agent wrote in its own sentence ("gcc: implicit declaration of function 'slugify';
// fixed by including slugify.h") says the error a query's raw output reports. Its stored signature is the
// sentence's, so it shares none with the tool's; but normalised the way signatures are (quoted names,
// paths and numbers become placeholders), the sentence contains the error's message. The details the
// message names (the module, the types, the test) must be in the sentence too: "Cannot find module
// 'lodash'" is not answered by a lesson about 'zod'. Pure.
import type { ErrorDetail } from '../errorDetails';
import { codeOf, signatureTextOf } from '../recallQuery';
import { normaliseText } from '../signature';
import type { Memory } from '../types';

/** A message shorter than this ("not found") is too common to say which error it is. */
const MIN_MESSAGE_CHARS = 16;

/** The lesson's own signature was made from prose (no tool, no code): it says nothing about which error. */
export function proseLesson(m: Memory): boolean {
  return m.kind === 'lesson' && (!m.errorSignature || (m.errorSignature.startsWith('generic:') && codeOf(m.errorSignature) === '-'));
}

/** The normalised texts of a lesson's sentences (error text, root cause, fix), for saysError. */
export function proseTexts(m: Memory): string[] {
  if (m.kind !== 'lesson') return [];
  return [m.errorText, m.rootCause, m.fixApproach].filter(Boolean).map(s => ` ${normaliseText(s.replace(/\s+/g, ' '))} `);
}

/**
 * The names an error message quotes ('zod', "String.length()", `x`): what the normalised message hides
 * and what tells one occurrence of the error from another (a near miss).
 */
export function quotedNames(message: string | undefined): string[] {
  if (!message) return [];
  const line = message.split('\n')[0];
  const out = new Set<string>();
  for (const m of line.matchAll(/'([^'\n]{2,200})'|"([^"\n]{2,200})"|`([^`\n]{2,200})`|‘([^’\n]{2,200})’/g)) out.add((m[1] ?? m[2] ?? m[3] ?? m[4]).toLowerCase());
  return [...out];
}

/**
 * True when one of the query's error messages (its signature keys' text) stands whole in the lesson's
 * normalised prose, every kind of detail the query names has a value the prose carries, and, when the
 * message quotes names, the prose has one of them (a sentence about "String.toUpperCase()" does not
 * answer "Cannot invoke "String.length()" because "Main.name" is null").
 */
export function saysError(m: Memory, prose: readonly string[], queryKeys: Iterable<string>, details: readonly ErrorDetail[], quoted: readonly string[]): boolean {
  if (m.kind !== 'lesson') return false;
  const messages = [...queryKeys].map(signatureTextOf).filter(t => t.length >= MIN_MESSAGE_CHARS);
  if (!messages.some(t => prose.some(p => p.includes(` ${t} `) || p.includes(` ${t}.`) || p.includes(` ${t};`) || p.includes(` ${t},`)))) return false;
  const lower = `${m.errorText}\n${m.rootCause}\n${m.fixApproach}`.toLowerCase();
  for (const kind of ['module', 'type', 'test', 'symbol'] as const) {
    const values = details.filter(d => d.kind === kind).map(d => d.value);
    if (values.length && !values.some(v => v.toLowerCase().split(' → ').every(part => lower.includes(part.trim())))) return false;
  }
  return !quoted.length || quoted.some(q => lower.includes(q));
}
