// Explanations that agents outside this window store over `engram mcp` (lessons authored "agent"): while
// an episode is open or just ended, the window reads the shared log every few seconds and folds such a
// lesson into the episode with the same error, as Copilot's engram_remember does in-process; the stored
// copy is then forgotten, so the episode's lesson is the only one.
import type * as vscode from 'vscode';
import { explanationIn, type AgentExplanationInput } from '../../core/capture/agentExplanation';
import { memoryTitle } from '../../core/types';
import { formatError } from '../errors';
import type { MemoryStore } from '../../store/index';
import type { Services } from '../services';

/** What this needs from the capture controller (which registers it: no import back). */
export interface ExplainableCapture {
  explainable(): boolean;
  explainEpisode(e: AgentExplanationInput): Promise<{ episodeId: string; lessonId?: string } | undefined>;
}

/** How often the log is read while an agent's explanation could still attach (a stat when nothing changed). */
const POLL_MS = 3000;

export function followAgentExplanations(services: Services, capture: ExplainableCapture): vscode.Disposable {
  const seen = new Set<string>();
  let sub: { dispose(): void } | undefined;
  let disposed = false;

  const fold = async (id: string): Promise<void> => {
    const store = await services.store();
    const m = store.get(id);
    const exp = explanationIn(m, Date.now());
    if (!m || !exp || seen.has(id)) return;
    seen.add(id);
    const attached = await capture.explainEpisode(exp);
    if (!attached) return;
    await store.forget(id, `folded into ${attached.lessonId ? `lesson ${attached.lessonId} of ` : ''}episode ${attached.episodeId}, which ${m.owner.agent ?? 'an agent'} explained`);
    services.logger.info(`episode ${attached.episodeId}: ${m.owner.agent ?? 'an agent'} explained it over MCP (${memoryTitle(m)})`);
    services.fireChanged();
  };

  // Subscribed on the first poll that has an episode to explain, not at activation: asking for the store
  // here loaded the store bundle and opened the log at activation (bench/activation.mjs). An explanation
  // attaches only to an open or just-ended episode, which is when the poll reads the log.
  let followed: MemoryStore | undefined;
  const follow = (store: MemoryStore): void => {
    if (disposed || followed === store) return; // a reopened store is a new object: follow that one
    sub?.dispose();
    followed = store;
    sub = store.onDidChange(ids => { for (const id of ids) void fold(id).catch(e => services.logger.warn(`agent explanation ${id}: ${formatError(e)}`)); });
  };
  const timer = setInterval(() => {
    if (!capture.explainable()) return;
    void services.store().then(s => { follow(s); return s.refresh(); }).catch(e => services.logger.debug(`reading the shared log: ${formatError(e)}`));
  }, POLL_MS);
  return { dispose: () => { disposed = true; clearInterval(timer); sub?.dispose(); } };
}
