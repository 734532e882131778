// Language-model tools for agent mode: engram_recall (read) and engram_remember (write, confirmed by the
// user). Input comes from a model, so it is parsed at the edge (core/schemaToolInput, shared with the MCP
// tools) with errors the model can act on.
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import { parseRememberInput } from '../../core/schemaToolInput';
import { answerAgent } from '../../core/recall/agentAnswer';
import { memoryTitle } from '../../core/types';
import { escapeInline } from '../../core/markdown';
import { newFact, newLesson } from '../../core/newMemory';
import type { CaptureApi } from '../capture/captureApi';
import type { Services } from '../services';

export class RecallTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly services: Services) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const input = options.input as { query?: unknown } | undefined;
    const q = typeof input === 'object' && input !== null && typeof input.query === 'string' ? input.query : '';
    return { invocationMessage: vscode.l10n.t('Recalling Engram memories for "{0}"', q.slice(0, 80)) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    // The same answer as the MCP server's recall (core/recall/agentAnswer.ts): one schema, the gate
    // unless `all`, stale memories left out, the capped data block.
    const relative = (f: string) => this.services.workspaceFile(f);
    const answer = await answerAgent(this.services.recaller, options.input, { workspace: this.services.workspaceId, nonce: randomUUID, relative });
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const file = (options.input as { file?: unknown } | undefined)?.file;
    this.services.noteShown(answer.results.map(r => r.memory.id), typeof file === 'string' ? relative(file) : undefined);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
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
