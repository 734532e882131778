// An agent outside the window (over `engram mcp`) explains the error it just fixed. The server cannot see
// the window's capture state, so it stores the explanation as a lesson authored "agent"; the window,
// which reads the shared log, folds it into its open or just-ended episode with the same error, as it
// does for Copilot's engram_remember. This decides which stored lessons are such explanations.
import type { Memory } from '../types';

/** How long after an episode ends an agent's explanation still attaches to it. */
export const EXPLAIN_WINDOW_MS = 10 * 60_000;

export interface AgentExplanationInput { errorText: string; rootCause: string; fixApproach: string }

/**
 * The explanation in `m` when it is one: a lesson an agent wrote over MCP (authored "agent" from chat,
 * not Copilot's own tool, which attaches directly), not yet part of any episode, and recent enough.
 */
export function explanationIn(m: Memory | undefined, now: number): AgentExplanationInput | undefined {
  if (!m || m.kind !== 'lesson' || m.author !== 'agent' || m.source !== 'chat' || m.owner.agent === 'copilot') return undefined;
  if (m.evidence.length || m.quarantined || now - m.createdAt > EXPLAIN_WINDOW_MS) return undefined;
  return { errorText: m.errorText || m.errorSignature, rootCause: m.rootCause, fixApproach: m.fixApproach };
}
