// @memory in Copilot Chat: /recall (default), /remember, /forget, /lessons, /episode. It always lists
// the recalled memories itself (so it works without a language model); when the request's model is
// usable it also sends them as delimited DATA and streams the model's answer.
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import type { Memory, RecallResult } from '../../core/types';
import { memoryTitle } from '../../core/types';
import { scopeMatches } from '../../core/scope';
import { workspaceRelativePath } from '../../core/workspacePath';
import { diagnosticText } from '../diagnosticRecall';
import { formatError } from '../errors';
import { escapeInline } from '../../core/markdown';
import { renderMemoryAnswer, SURFACES } from '../../core/render/memoryAnswer';
import { looksLikeRule, newFact, newRule } from '../../core/newMemory';
import type { CaptureApi } from '../capture/captureApi';
import { uiText } from '../uiText';
import type { Services } from '../services';
import { forgetMemory, shownConfidence } from '../memoryActions';
import { buildAnswerPrompt, buildMemoryContext, buildRewritePrompt, parseSearchTerms, splitByOutcome } from '../../core/prompt';

export const PARTICIPANT_ID = 'engram.memory';
const REWRITE_TIMEOUT_MS = 2500;

export interface ChatResultMetadata {
  command: string;
  ids: string[];
  query?: string;
  usedModel?: boolean;
}

/** `capture` is undefined when capture did not start (`/episode` then says so). */
export function registerChat(services: Services, capture: CaptureApi | undefined): void {
  if (!vscode.chat?.createChatParticipant) return; // hosts without chat
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, createChatHandler(services, capture));
  participant.iconPath = new vscode.ThemeIcon('book');
  participant.followupProvider = followupProvider;
  services.context.subscriptions.push(participant);
}

export const followupProvider: vscode.ChatFollowupProvider = {
  provideFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] {
    const meta = result.metadata as ChatResultMetadata | undefined;
    if (!meta) return [];
    switch (meta.command) {
      case 'recall':
        return [
          { prompt: '', command: 'lessons', label: vscode.l10n.t('Show lessons and rules for this file') },
          { prompt: '', command: 'episode', label: vscode.l10n.t('What is going on right now?') },
        ];
      case 'lessons':
      case 'episode':
        return [{ prompt: vscode.l10n.t('What went wrong here before?'), command: 'recall', label: vscode.l10n.t('Recall past errors for this file') }];
      case 'remember':
        return meta.query ? [{ prompt: meta.query, command: 'recall', label: vscode.l10n.t('Recall related memories') }] : [];
      default:
        return [];
    }
  },
};

/** The request handler; exported so tests can call it with a recording stream (no model needed). */
export function createChatHandler(services: Services, capture: CaptureApi | undefined): vscode.ChatRequestHandler {
  return async (request, _context, stream, token): Promise<vscode.ChatResult> => {
    const command = request.command ?? 'recall';
    try {
      switch (command) {
        case 'remember': return await remember(services, request, stream);
        case 'forget': return await forget(services, request, stream);
        case 'lessons': return await lessons(services, stream);
        case 'episode': return episode(capture, stream);
        default: return await recall(services, request, stream, token);
      }
    } catch (e) {
      services.logger.error(e instanceof Error ? e : String(e));
      stream.markdown(escapeInline(vscode.l10n.t('Engram could not answer: {0}', formatError(e)), 1000));
      return { errorDetails: { message: formatError(e) }, metadata: { command, ids: [] } satisfies ChatResultMetadata };
    }
  };
}

/** The file the question is about: a #file the user attached, else the active editor's file. */
function activeFile(services: Services, request?: vscode.ChatRequest): { uri?: vscode.Uri; file?: string } {
  const attached = request?.references.map(r => r.value).find((v): v is vscode.Uri | vscode.Location =>
    v instanceof vscode.Uri || v instanceof vscode.Location);
  const uri = attached instanceof vscode.Location ? attached.uri : attached ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') return {};
  return { uri, file: services.workspaceRelative(uri) };
}

function usableModel(request: vscode.ChatRequest): vscode.LanguageModelChat | undefined {
  const m = (request as { model?: vscode.LanguageModelChat }).model;
  return m && typeof m.sendRequest === 'function' ? m : undefined;
}

async function recall(services: Services, request: vscode.ChatRequest, stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const { uri, file } = activeFile(services, request);
  let question = request.prompt.trim();
  // No question: the context is chosen for the user, so it must pass the proactive gate like the hover.
  let proactive = false;
  if (!question && uri) {
    // No question: recall for the error at the cursor, the most likely reason to ask.
    const pos = vscode.window.activeTextEditor?.selection.active;
    const d = vscode.languages.getDiagnostics(uri).find(x => x.severity === vscode.DiagnosticSeverity.Error && (!pos || x.range.contains(pos)))
      ?? vscode.languages.getDiagnostics(uri).find(x => x.severity === vscode.DiagnosticSeverity.Error);
    if (d) { question = diagnosticText(d); proactive = true; }
  }
  if (!question) {
    stream.markdown(escapeInline(vscode.l10n.t('Ask about an error or a part of the code, for example: why does the build fail with ERR_REQUIRE_ESM?'), 1000));
    return { metadata: { command: 'recall', ids: [] } satisfies ChatResultMetadata };
  }
  const model = usableModel(request);
  stream.progress(vscode.l10n.t('Recalling memories…'));
  const terms = model ? await rewriteQuestion(model, question, token) : undefined;
  const text = terms ? `${question}\n${terms}` : question;
  // Stale memories are left out by the recall service before they take a place (they never reach the model).
  const results = await services.recall({ text, file, proactive }, { forModel: true });
  if (token.isCancellationRequested) return { metadata: { command: 'recall', ids: [] } satisfies ChatResultMetadata };

  if (!results.length) {
    stream.markdown(escapeInline(vscode.l10n.t('No memories are relevant to this yet.'), 1000));
    if (file) stream.markdown(' ' + escapeInline(vscode.l10n.t('(searched for {0})', file), 400));
    return { metadata: { command: 'recall', ids: [], query: question } satisfies ChatResultMetadata };
  }

  streamMemories(stream, results, services.workspaceId);
  if (uri) stream.reference(uri);
  for (const f of await filesOf(services, results)) stream.reference(f);

  let usedModel = false;
  if (model) {
    stream.markdown('\n\n---\n\n');
    const context = buildMemoryContext(results, { nonce: randomUUID(), workspace: services.workspaceId });
    const prompt = buildAnswerPrompt(question, context, file);
    try {
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {
        justification: vscode.l10n.t('Engram sends the recalled memories to the model to answer your question.'),
      }, token);
      for await (const fragment of response.text) stream.markdown(fragment);
      usedModel = true;
    } catch (e) {
      stream.markdown(escapeInline(languageModelErrorMessage(e), 1000));
    }
  }
  return { metadata: { command: 'recall', ids: results.map(r => r.memory.id), query: question, usedModel } satisfies ChatResultMetadata };
}

/** Lists memories as escaped markdown: successes to follow first, failures to avoid after. */
function streamMemories(stream: vscode.ChatResponseStream, results: RecallResult[], workspace: string): void {
  const { follow, avoid } = splitByOutcome(results);
  const section = (title: string, items: RecallResult[], start: number) => {
    if (!items.length) return;
    stream.markdown(`**${escapeInline(title)}**\n\n`);
    items.forEach((r, i) => stream.markdown(memoryMarkdown(r, start + i, workspace)));
  };
  section(vscode.l10n.t('Past successes to follow'), follow, 1);
  section(vscode.l10n.t('Past failures to avoid'), avoid, follow.length + 1);
}

/** `workspace`: the one asking, so the confidence shown is the one its ranking used. */
export function memoryMarkdown(r: RecallResult, n: number, workspace: string, stale?: string): string {
  return renderMemoryAnswer(r, SURFACES.chat, { t: uiText, workspace, n, stale }) + '\n\n';
}

/** Files linked to the memories (episodes' files, and those of a lesson's evidence), for references. */
async function filesOf(services: Services, results: RecallResult[]): Promise<vscode.Uri[]> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) return [];
  const store = await services.store();
  const rel = new Set<string>();
  for (const { memory } of results) {
    const episodes = memory.kind === 'episode' ? [memory]
      : memory.kind === 'lesson' ? memory.evidence.map(id => store.get(id)).filter((e): e is Memory => e?.kind === 'episode') : [];
    for (const e of episodes) if (e.kind === 'episode') for (const f of e.files.slice(0, 3)) rel.add(f);
  }
  // Workspace-relative paths only: an imported memory must not make chat reference files outside it.
  return [...rel].map(workspaceRelativePath).filter((f): f is string => !!f).slice(0, 5).map(f => vscode.Uri.joinPath(root, f));
}

/** Asks the model for English search terms (Korean and other questions), giving up quickly. */
async function rewriteQuestion(model: vscode.LanguageModelChat, question: string, token: vscode.CancellationToken): Promise<string | undefined> {
  const cts = new vscode.CancellationTokenSource();
  const sub = token.onCancellationRequested(() => cts.cancel());
  const timer = setTimeout(() => cts.cancel(), REWRITE_TIMEOUT_MS);
  try {
    const work = (async () => {
      const res = await model.sendRequest([vscode.LanguageModelChatMessage.User(buildRewritePrompt(question))], {}, cts.token);
      let text = '';
      for await (const f of res.text) { text += f; if (text.length > 500) break; }
      return parseSearchTerms(text);
    })();
    const timeout = new Promise<undefined>(resolve => cts.token.onCancellationRequested(() => resolve(undefined)));
    return await Promise.race([work, timeout]);
  } catch {
    return undefined; // the raw question still works: the recall engine understands Korean
  } finally {
    clearTimeout(timer);
    sub.dispose();
    cts.dispose();
  }
}

/** A sentence for any model failure; LanguageModelError codes get specific advice. */
export function languageModelErrorMessage(e: unknown): string {
  if (e instanceof vscode.LanguageModelError) {
    if (e.code === vscode.LanguageModelError.NoPermissions().code) {
      return vscode.l10n.t('Engram is not allowed to use this language model. The memories above are still shown; allow model access to get an answer.');
    }
    if (e.code === vscode.LanguageModelError.Blocked().code) {
      return vscode.l10n.t('The language model request was blocked (quota or policy). The memories above are still valid.');
    }
    if (e.code === vscode.LanguageModelError.NotFound().code) {
      return vscode.l10n.t('The selected language model is not available. The memories above are still valid.');
    }
    return vscode.l10n.t('The language model failed: {0}. The memories above are still valid.', e.message);
  }
  return vscode.l10n.t('The language model failed: {0}. The memories above are still valid.', formatError(e));
}

async function remember(services: Services, request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const text = request.prompt.trim();
  if (!text) {
    stream.markdown(escapeInline(vscode.l10n.t('Tell me what to remember, for example: /remember Always run npm run build before the e2e tests.'), 1000));
    return { metadata: { command: 'remember', ids: [] } satisfies ChatResultMetadata };
  }
  const origin = { workspace: services.workspaceId, source: 'chat' as const, agent: 'user' };
  const memory = looksLikeRule(text) ? newRule(origin, { instruction: text }) : newFact(origin, { content: text });
  const store = await services.store();
  const saved = await store.record(memory);
  services.fireChanged();
  const kind = saved.kind === 'rule' ? vscode.l10n.t('rule') : vscode.l10n.t('fact');
  stream.markdown(escapeInline(vscode.l10n.t('Remembered as a {0} (observation: it earns trust when it helps): {1}', kind, memoryTitle(saved)), 1200));
  stream.button({ command: 'engram.forget', title: vscode.l10n.t('Undo'), arguments: [saved.id, { confirm: false }] });
  return { metadata: { command: 'remember', ids: [saved.id], query: text } satisfies ChatResultMetadata };
}

async function forget(services: Services, request: vscode.ChatRequest, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const text = request.prompt.trim();
  if (!text) {
    stream.markdown(escapeInline(vscode.l10n.t('Give a memory id or describe the memory to forget.'), 1000));
    return { metadata: { command: 'forget', ids: [] } satisfies ChatResultMetadata };
  }
  const store = await services.store();
  const exact = store.get(text);
  if (exact && !exact.deleted) {
    // An exact id is an explicit choice: forget at once.
    await forgetMemory(services, exact.id, { undoable: false, reason: 'forgotten from chat' });
    stream.markdown(escapeInline(vscode.l10n.t('Forgot: {0}', memoryTitle(exact)), 1000));
    return { metadata: { command: 'forget', ids: [exact.id] } satisfies ChatResultMetadata };
  }
  const { file } = activeFile(services, request);
  const results = await services.recall({ text, file, k: 5 });
  if (!results.length) {
    stream.markdown(escapeInline(vscode.l10n.t('No memory matches that.'), 1000));
    return { metadata: { command: 'forget', ids: [] } satisfies ChatResultMetadata };
  }
  // A query may match the wrong memory: nothing is deleted until the user presses a button.
  stream.markdown(escapeInline(vscode.l10n.t('Which memory should I forget? Nothing is deleted until you choose.'), 1000) + '\n\n');
  results.forEach((r, i) => {
    stream.markdown(memoryMarkdown(r, i + 1, services.workspaceId));
    stream.button({ command: 'engram.forget', title: vscode.l10n.t('Forget #{0}', i + 1), arguments: [r.memory.id, { confirm: false }] });
  });
  return { metadata: { command: 'forget', ids: results.map(r => r.memory.id), query: text } satisfies ChatResultMetadata };
}

async function lessons(services: Services, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const { file } = activeFile(services);
  const store = await services.store();
  const rank = { constraint: 3, rule: 2, pattern: 1, observation: 0 } as const;
  const items = store.list({ kinds: ['lesson', 'rule'] })
    .filter(m => !m.deleted && !m.quarantined && m.maturity !== 'observation' && scopeMatches(m.scope, file))
    .sort((a, b) => rank[b.maturity] - rank[a.maturity] || shownConfidence(services, b) - shownConfidence(services, a))
    .slice(0, 20);
  if (!items.length) {
    stream.markdown(escapeInline(file
      ? vscode.l10n.t('No patterns or rules apply to {0} yet. Lessons become patterns after they recur.', file)
      : vscode.l10n.t('No patterns or rules yet. Lessons become patterns after they recur.'), 1000));
    return { metadata: { command: 'lessons', ids: [] } satisfies ChatResultMetadata };
  }
  stream.markdown(`**${escapeInline(file ? vscode.l10n.t('Patterns and rules for {0}', file) : vscode.l10n.t('Patterns and rules'), 300)}**\n\n`);
  items.forEach((m, i) => stream.markdown(memoryMarkdown({ memory: m, score: 1, reasons: [{ kind: 'maturity', maturity: m.maturity }] }, i + 1, services.workspaceId)));
  services.noteShown(items.map(m => m.id), file);
  return { metadata: { command: 'lessons', ids: items.map(m => m.id) } satisfies ChatResultMetadata };
}

function episode(capture: CaptureApi | undefined, stream: vscode.ChatResponseStream): vscode.ChatResult {
  if (!capture) {
    stream.markdown(escapeInline(vscode.l10n.t('Capture is not running, so there are no open episodes.'), 1000));
    return { metadata: { command: 'episode', ids: [] } satisfies ChatResultMetadata };
  }
  const open = capture.openEpisodes();
  if (!open.length) {
    stream.markdown(escapeInline(capture.paused
      ? vscode.l10n.t('Capture is paused. No episode is open.')
      : vscode.l10n.t('No episode is open: no unresolved errors are being tracked.'), 1000));
    return { metadata: { command: 'episode', ids: [] } satisfies ChatResultMetadata };
  }
  stream.markdown(`**${escapeInline(vscode.l10n.t('Open episodes'))}**\n\n`);
  open.forEach((e, i) => {
    const minutes = Math.max(0, Math.round((Date.now() - e.startedAt) / 60000));
    stream.markdown(`${i + 1}\\. ${escapeInline(e.title, 200)}  \n_${escapeInline([
      e.file ?? '', vscode.l10n.t('{0} steps', e.steps), vscode.l10n.t('open for {0} min', minutes), e.source,
    ].filter(Boolean).join(' · '))}_\n\n`);
    stream.button({ command: 'engram.endEpisode', title: vscode.l10n.t('End #{0}', i + 1), arguments: [e.id] });
  });
  return { metadata: { command: 'episode', ids: open.map(e => e.id) } satisfies ChatResultMetadata };
}
