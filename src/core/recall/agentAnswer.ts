// What an agent's recall tool call gets back, the same whichever tool it called (Copilot's engram_recall,
// the MCP server's recall, a team server's): the input parsed and trimmed by the one schema
// (core/schemaToolInput), the file made workspace-relative by the caller's one normaliser, the proactive
// gate unless `all`, at most MAX_AGENT_K memories, and the nonce-delimited data block (core/prompt.ts)
// kept within MAX_AGENT_CHARS by dropping the lowest-ranked non-constraints first, then shortening fields.
import { buildMemoryContext } from '../prompt';
import type { RecallService } from '../recallService';
import { DEFAULT_AGENT_K, MAX_QUERY_BYTES, parseRecallInput } from '../schemaToolInput';
import type { RecallResult } from '../types';

/** Characters per answer (about 2,000 tokens): an agent's context is shared with its real work. */
export const MAX_AGENT_CHARS = 8000;

export interface AgentAnswerContext {
  /** The workspace asking (its confidence is the one shown). */
  workspace: string;
  /** A fresh random nonce per answer (crypto.randomUUID in Node). */
  nonce(): string;
  /** The workspace-relative form of the path the agent passed, or undefined when it is outside. */
  relative(file: string): string | undefined;
}

export interface AgentAnswer { text: string; results: RecallResult[] }

/** Parses `input` (throws a sentence the model can act on), recalls and renders the answer. */
export async function answerAgent(service: RecallService, input: unknown, ctx: AgentAnswerContext): Promise<AgentAnswer> {
  const a = parseRecallInput(input);
  const file = a.file ? ctx.relative(a.file) : undefined;
  // Unasked-for context must pass the same gate as the editor's proactive surfaces; `all` lets an agent
  // that is digging on purpose see weak matches too (marked match=weak).
  const results = await service.recall({ text: a.query, file, k: a.k ?? DEFAULT_AGENT_K, proactive: a.all ? undefined : true });
  const { text, kept } = fitContext(results, MAX_AGENT_CHARS, ctx.workspace, ctx.nonce());
  const shown = kept.length;
  const dropped = results.length - shown;
  const notes: string[] = [];
  if (a.trimmed) notes.push(`The query was longer than ${MAX_QUERY_BYTES / 1024} KB: its start and end were used.`);
  if (a.file && !file) notes.push(`${a.file} is outside the workspace: scoped memories were not matched against it.`);
  if (results.length) {
    notes.push(`${shown} memor${shown === 1 ? 'y' : 'ies'} shown${dropped ? `, ${dropped} left out to stay within ${MAX_AGENT_CHARS} characters` : ''}. ` +
      'If one of them helped (or did not), call feedback with its id: that is how memories earn or lose trust.');
  } else if (!a.all) {
    notes.push('Nothing passed the strong-evidence gate; call recall again with all: true to see weak matches.');
  }
  return { text: notes.length ? `${text}\n${notes.join('\n')}` : text, results: kept };
}

/**
 * The data block for as many results as fit in `maxChars`: the lowest-ranked non-constraint results go
 * first (constraints in scope always stay), then fields are shortened.
 */
export function fitContext(results: readonly RecallResult[], maxChars: number, workspace: string | undefined, nonce: string): { text: string; kept: RecallResult[] } {
  const kept = [...results];
  let text = buildMemoryContext(kept, { nonce, workspace });
  while (text.length > maxChars && kept.length > 1) {
    let i = kept.length - 1;
    while (i > 0 && kept[i].memory.maturity === 'constraint') i--;
    kept.splice(i, 1);
    text = buildMemoryContext(kept, { nonce, workspace });
  }
  if (text.length > maxChars) text = buildMemoryContext(kept, { nonce, maxField: 200, workspace });
  return { text, kept };
}
