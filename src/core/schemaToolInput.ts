// What an agent may pass to the recall and remember tools, for Copilot's language-model tools
// (vscode/chat/tools) and the MCP server (mcp/tools) alike: one parser and one JSON schema for the recall
// tool (package.json's engram_recall and the MCP listing are checked against RECALL_INPUT_SCHEMA by
// test/unit/agentRecall.test.ts). The input comes from a model, so every failure is a sentence the model
// can act on; a long query is trimmed to its head and tail (where a log's command and its errors are), as
// capture bounds command output, never refused.
import { bool, fail, isPlainObject, lit, map, maybe, num, obj, parse, str, strings, union, type At, type Schema, type Wording } from './schema';
import { scopeProblem } from './scopeCheck';
import { boundText } from './text';

export const MAX_TOOL_TEXT = 4000;
export const MAX_TOOL_LIST = 20;
/** At most this many memories per agent answer, whatever k asks for. */
export const MAX_AGENT_K = 10;
export const DEFAULT_AGENT_K = 5;
/** A query is kept to about this many UTF-8 bytes, head and tail (a jest run of 18 KB fits whole). */
export const MAX_QUERY_BYTES = 32 * 1024;
/** Longer than this is not a query but a file pasted by mistake: refused before anything is copied. */
const MAX_QUERY_INPUT = 8 * 1024 * 1024;
const MAX_FILE = 1000;

/** Tool wording: whole sentences, each ending with a period. */
export const TOOL: Wording = {
  type: (n, what) => `"${n}" must be ${what}.`,
  tooLong: (n, max) => `"${n}" is too long (at most ${max} characters).`,
  tooMany: (n, max) => `"${n}" has too many entries (at most ${max}).`,
};

export interface RecallInput {
  query: string;
  file?: string;
  k?: number;
  /** Also weak matches (marked); by default only what passes the proactive gate. */
  all?: boolean;
  /** Set when the query was longer than MAX_QUERY_BYTES and was trimmed to its head and tail. */
  trimmed?: boolean;
}

/** The recall tool's input as JSON Schema: the MCP listing and package.json's engram_recall say exactly this. */
export const RECALL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'Raw error output (any number of lines; a long log is trimmed to its start and end) or a question/task in words.' },
    file: { type: 'string', maxLength: MAX_FILE, description: 'The file at hand, absolute or relative to where you run: scoped memories must match it.' },
    // No minimum/maximum: a k outside 1..MAX_AGENT_K is clamped (rounded), not refused.
    k: { type: 'number', description: `How many memories at most (default ${DEFAULT_AGENT_K}, at most ${MAX_AGENT_K}).` },
    all: { type: 'boolean', description: 'Also return weak matches (marked match=weak). Default false: only strong matches.' },
  },
  required: ['query'],
} as const;
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

const recallInput = obj<Omit<RecallInput, 'trimmed'>>({
  query: required('(the error text or question to recall memories for)', MAX_QUERY_INPUT),
  file: maybe(map(text(MAX_FILE), f => f ?? '')),
  k: maybe(map(num({ what: `a number between 1 and ${MAX_AGENT_K}` }), k => Math.min(MAX_AGENT_K, Math.max(1, Math.round(k))))),
  all: maybe(bool),
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
  const query = boundText(r.query, MAX_QUERY_BYTES);
  // A blank file is no file.
  return { query, file: r.file || undefined, k: r.k, all: r.all, ...(query !== r.query ? { trimmed: true } : {}) };
}

export function parseRememberInput(input: unknown): RememberInput {
  return parse(rememberInput, input, TOOL);
}
