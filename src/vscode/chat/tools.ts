// Language-model tools for agent mode: engram_recall (read) and engram_remember (write, confirmed by the
// user). Input comes from a model, so it is parsed at the edge with errors the model can act on.
import { randomUUID } from 'crypto';
import * as path from 'path';
import * as vscode from 'vscode';
import { scopeProblem } from '../../core/scopeCheck';
import { memoryTitle } from '../../core/types';
import { escapeInline } from '../markdown';
import { newFact, newLesson } from '../newMemory';
import type { CaptureApi } from '../capture/captureApi';
import type { Services } from '../services';
import { buildMemoryContext } from './prompt';
import { staleReasons } from './staleCheck';

export interface RecallInput { query: string; file?: string; k?: number }
export type RememberInput =
  | { kind: 'lesson'; errorText: string; rootCause: string; fixApproach: string; scope: string[]; tags: string[] }
  | { kind: 'fact'; content: string; scope: string[]; tags: string[] };

const MAX_TEXT = 4000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optString(o: Record<string, unknown>, key: string, max = MAX_TEXT): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Error(`"${key}" must be a string.`);
  if (v.length > max) throw new Error(`"${key}" is too long (at most ${max} characters).`);
  return v.trim() || undefined;
}

function reqString(o: Record<string, unknown>, key: string, why: string): string {
  const v = optString(o, key);
  if (!v) throw new Error(`"${key}" is required ${why}.`);
  return v;
}

function stringList(o: Record<string, unknown>, key: string): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some(x => typeof x !== 'string')) throw new Error(`"${key}" must be an array of strings.`);
  const list = (v as string[]).map(s => s.trim()).filter(Boolean);
  if (list.length > 20) throw new Error(`"${key}" has too many entries (at most 20).`);
  if (key === 'scope') { const bad = scopeProblem(list); if (bad) throw new Error(bad + '.'); }
  return list;
}

export function parseRecallInput(input: unknown): RecallInput {
  if (!isRecord(input)) throw new Error('Input must be an object like {"query": "error text or question"}.');
  const query = reqString(input, 'query', '(the error text or question to recall memories for)');
  const file = optString(input, 'file', 1000);
  let k: number | undefined;
  if (input.k !== undefined && input.k !== null) {
    if (typeof input.k !== 'number' || !Number.isFinite(input.k)) throw new Error('"k" must be a number between 1 and 20.');
    k = Math.min(20, Math.max(1, Math.round(input.k)));
  }
  return { query, file, k };
}

export function parseRememberInput(input: unknown): RememberInput {
  if (!isRecord(input)) throw new Error('Input must be an object with "kind": "lesson" or "fact".');
  const scope = stringList(input, 'scope');
  const tags = stringList(input, 'tags');
  if (input.kind === 'lesson') {
    return {
      kind: 'lesson',
      errorText: reqString(input, 'errorText', 'for a lesson (the error message)'),
      rootCause: reqString(input, 'rootCause', 'for a lesson (why the error happened)'),
      fixApproach: reqString(input, 'fixApproach', 'for a lesson (what fixed it)'),
      scope, tags,
    };
  }
  if (input.kind === 'fact') {
    return { kind: 'fact', content: reqString(input, 'content', 'for a fact'), scope, tags };
  }
  throw new Error('"kind" must be "lesson" or "fact".');
}

/** Workspace-relative path for the tool's `file` (absolute paths inside the workspace are converted). */
function relativeFile(services: Services, file: string | undefined): string | undefined {
  if (!file) return undefined;
  if (path.isAbsolute(file)) return services.workspaceRelative(vscode.Uri.file(file));
  return file.replace(/\\/g, '/').replace(/^\.\//, '');
}

export class RecallTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly services: Services) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const q = isRecord(options.input) && typeof options.input.query === 'string' ? options.input.query : '';
    return { invocationMessage: vscode.l10n.t('Recalling Engram memories for "{0}"', q.slice(0, 80)) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = parseRecallInput(options.input);
    const file = relativeFile(this.services, input.file);
    const results = await this.services.recall({ text: input.query, file, k: input.k });
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const stale = await staleReasons(this.services, results.map(r => r.memory));
    // Memories about code that no longer exists are left out rather than offered as evidence.
    const text = buildMemoryContext(results.filter(r => !stale.has(r.memory.id)), { nonce: randomUUID(), workspace: this.services.workspaceId });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }
}

export class RememberTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly services: Services, private readonly capture: CaptureApi | undefined) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    // Parse here too, so the user is never asked to confirm something invoke would reject.
    const input = parseRememberInput(options.input);
    const md = new vscode.MarkdownString();
    md.supportHtml = false;
    if (input.kind === 'lesson') {
      md.appendMarkdown(`**${escapeInline(vscode.l10n.t('Error'))}:** ${escapeInline(input.errorText, 300)}  \n`);
      md.appendMarkdown(`**${escapeInline(vscode.l10n.t('Root cause'))}:** ${escapeInline(input.rootCause, 300)}  \n`);
      md.appendMarkdown(`**${escapeInline(vscode.l10n.t('Fix'))}:** ${escapeInline(input.fixApproach, 300)}  \n`);
    } else {
      md.appendMarkdown(`**${escapeInline(vscode.l10n.t('Fact'))}:** ${escapeInline(input.content, 600)}  \n`);
    }
    md.appendMarkdown(escapeInline(input.scope.length ? vscode.l10n.t('Scope: {0}', input.scope.join(', ')) : vscode.l10n.t('Scope: whole workspace'), 300));
    return {
      invocationMessage: vscode.l10n.t('Saving to Engram memory'),
      confirmationMessages: {
        title: input.kind === 'lesson' ? vscode.l10n.t('Remember this lesson in Engram?') : vscode.l10n.t('Remember this fact in Engram?'),
        message: md,
      },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>): Promise<vscode.LanguageModelToolResult> {
    const input = parseRememberInput(options.input);
    if (input.kind === 'lesson' && this.capture) {
      // During (or right after) an episode, the agent's explanation is that episode's lesson, not a copy.
      const attached = await this.capture.explainEpisode({ errorText: input.errorText, rootCause: input.rootCause, fixApproach: input.fixApproach });
      if (attached) {
        this.services.fireChanged();
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(attached.lessonId
          ? `Attached to the lesson ${attached.lessonId} of the episode ${attached.episodeId} that just ended (its evidence stays).`
          : `Attached to the open episode ${attached.episodeId}: it becomes that episode's lesson when the episode ends.`)]);
      }
    }
    const origin = { workspace: this.services.workspaceId, source: 'chat' as const, agent: 'copilot' };
    const memory = input.kind === 'lesson'
      ? newLesson(origin, input)
      : newFact(origin, { content: input.content, scope: input.scope, tags: input.tags });
    const store = await this.services.store();
    const saved = await store.record(memory);
    this.services.fireChanged();
    // The store may merge a duplicate lesson into an existing one (evidence instead of a copy).
    const merged = saved.id !== memory.id;
    const text = merged
      ? `Merged into existing memory ${saved.id} (same error and fix): ${memoryTitle(saved)}`
      : `Stored ${saved.kind} ${saved.id} as an observation: it earns trust when it prevents the error again.`;
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  }
}

/** `capture` is undefined when capture did not start (a lesson is then always its own memory). */
export function registerTools(services: Services, capture: CaptureApi | undefined): void {
  if (!vscode.lm?.registerTool) return; // hosts without language-model tools
  services.context.subscriptions.push(
    vscode.lm.registerTool('engram_recall', new RecallTool(services)),
    vscode.lm.registerTool('engram_remember', new RememberTool(services, capture)),
  );
}
