// What an agent may pass to the recall and remember tools, for Copilot's language-model tools
// (vscode/chat/tools) and the MCP server (mcp/tools) alike. The input comes from a model, so every
// failure is a sentence the model can act on.
import { fail, isPlainObject, lit, map, maybe, num, obj, parse, str, strings, union, type At, type Schema, type Wording } from './schema';
import { scopeProblem } from './scopeCheck';

export const MAX_TOOL_TEXT = 4000;
export const MAX_TOOL_LIST = 20;

/** Tool wording: whole sentences, each ending with a period. */
export const TOOL: Wording = {
  type: (n, what) => `"${n}" must be ${what}.`,
  tooLong: (n, max) => `"${n}" is too long (at most ${max} characters).`,
  tooMany: (n, max) => `"${n}" has too many entries (at most ${max}).`,
};

export interface RecallInput { query: string; file?: string; k?: number }
export type RememberInput =
  | { kind: 'lesson'; errorText: string; rootCause: string; fixApproach: string; scope: string[]; tags: string[] }
  | { kind: 'fact'; content: string; scope: string[]; tags: string[] };

/** Trimmed text; blank counts as absent. */
const text = (max = MAX_TOOL_TEXT) => map(str({ max }), s => s.trim() || undefined);

/** Text the tool cannot do without; `why` tells the model what to put there. */
function required(why: string, max = MAX_TOOL_TEXT): Schema<string> {
  const t = text(max);
  return (v, at) => (v === undefined || v === null ? undefined : t(v, at)) ?? fail(`"${at.name}" is required ${why}.`);
}

/** Up to MAX_TOOL_LIST non-blank entries; scope entries must be workspace globs. */
function list(isScope: boolean): Schema<string[]> {
  return (v, at) => {
    if (v === undefined || v === null) return [];
    // Agents on Windows pass `src\**`: globs are matched with forward slashes.
    const out = strings()(v, at).map(s => isScope ? s.trim().replace(/\\/g, '/') : s.trim()).filter(Boolean);
    if (out.length > MAX_TOOL_LIST) fail(at.say.tooMany(at.name, MAX_TOOL_LIST));
    const bad = isScope ? scopeProblem(out) : undefined;
    return bad ? fail(bad + '.') : out;
  };
}

const recallInput = obj<RecallInput>({
  query: required('(the error text or question to recall memories for)'),
  file: maybe(map(text(1000), f => f ?? '')),
  k: maybe(map(num({ what: 'a number between 1 and 20' }), k => Math.min(20, Math.max(1, Math.round(k))))),
});

const common = obj({ scope: list(true), tags: list(false) });
const byKind = union<Omit<RememberInput, 'scope' | 'tags'>>('kind', {
  lesson: obj({
    kind: lit('lesson'),
    errorText: required('for a lesson (the error message)'),
    rootCause: required('for a lesson (why the error happened)'),
    fixApproach: required('for a lesson (what fixed it)'),
  }),
  fact: obj({ kind: lit('fact'), content: required('for a fact') }),
}, () => '"kind" must be "lesson" or "fact".');

const rememberInput: Schema<RememberInput> = (v: unknown, at: At) => {
  if (!isPlainObject(v)) fail('Input must be an object with "kind": "lesson" or "fact".');
  const { scope, tags } = common(v, at);
  return { ...byKind(v, at), scope, tags } as RememberInput;
};

export function parseRecallInput(input: unknown): RecallInput {
  if (!isPlainObject(input)) fail('Input must be an object like {"query": "error text or question"}.');
  const r = parse(recallInput, input, TOOL);
  // A blank file is no file.
  return { query: r.query, file: r.file || undefined, k: r.k };
}

export function parseRememberInput(input: unknown): RememberInput {
  return parse(rememberInput, input, TOOL);
}
