// A compact hover on error diagnostics with the few memories that explain them, and one-click feedback.
// The markdown trusts only Engram's own commands and renders memory text escaped (it is untrusted), so
// a memory cannot become a link, an image, HTML or a command.
import * as vscode from 'vscode';
import type { RecallResult } from '../core/types';
import type { DiagnosticRecall } from './diagnosticRecall';
import { commandUri, escapeInline } from '../core/markdown';
import { renderMemoryAnswer, SURFACES } from '../core/render/memoryAnswer';
import { uiText } from './uiText';
import type { Services } from './services';

export const HOVER_COMMANDS = ['engram.markHelpful', 'engram.markNotHelpful', 'engram.openMemory'];
const MAX_MEMORIES = 3;

/** `recall` is the window's diagnostic recall cache, shared with the relevant-memories status item. */
export function registerHover(services: Services, recall: DiagnosticRecall): void {
  const provider: vscode.HoverProvider = {
    async provideHover(doc, pos, token) {
      if (!services.config().hover.enabled) return undefined;
      const diags = recall.errorDiagnostics(doc.uri).filter(d => d.range.contains(pos)).slice(0, 2);
      if (!diags.length) return undefined;
      const seen = new Set<string>();
      const shown: RecallResult[] = [];
      for (const d of diags) {
        // Usually a cache hit (precomputed when diagnostics changed); a miss recalls asynchronously.
        const results = recall.cached(doc.uri, d) ?? await recall.resolve(doc.uri, d).catch(e => {
          services.logger.warn(`hover recall failed: ${e instanceof Error ? e.message : String(e)}`);
          return [];
        });
        if (token.isCancellationRequested) return undefined;
        for (const r of results) {
          if (seen.has(r.memory.id) || shown.length >= MAX_MEMORIES) continue;
          seen.add(r.memory.id);
          shown.push(r);
        }
      }
      if (!shown.length) return undefined;
      services.noteShown(shown.map(r => r.memory.id), services.workspaceRelative(doc.uri));
      const range = diags.reduce((acc, d) => acc.union(d.range), diags[0].range);
      return new vscode.Hover(renderHover(shown, services.workspaceId), range);
    },
  };
  services.context.subscriptions.push(vscode.languages.registerHoverProvider({ scheme: 'file' }, provider));
}

/** The hover markdown. Exported for tests that check hostile text stays inert. `workspace`: the one
 * asking, so the confidence shown is the one its ranking used (memoryActions.shownConfidence). */
export function renderHover(results: readonly RecallResult[], workspace?: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = { enabledCommands: HOVER_COMMANDS };
  md.supportHtml = false;
  md.appendMarkdown(`$(lightbulb) **${escapeInline(vscode.l10n.t('Engram remembers'))}**\n\n`);
  results.forEach((r, i) => {
    if (i > 0) md.appendMarkdown('\n\n---\n\n');
    md.appendMarkdown(renderMemory(r, workspace));
  });
  return md;
}

/** The memory as the one renderer writes it for a hover (core/render/memoryAnswer.ts), and its actions. */
function renderMemory(r: RecallResult, workspace: string | undefined): string {
  const m = r.memory;
  const actions = [
    `[$(thumbsup) ${escapeInline(vscode.l10n.t('Helpful'))}](${commandUri('engram.markHelpful', [m.id])})`,
    `[$(thumbsdown) ${escapeInline(vscode.l10n.t("Didn't help"))}](${commandUri('engram.markNotHelpful', [m.id])})`,
    `[$(book) ${escapeInline(vscode.l10n.t('Open in sidebar'))}](${commandUri('engram.openMemory', [m.id])})`,
  ].join(' · ');
  return `${renderMemoryAnswer(r, SURFACES.hover, { t: uiText, workspace })}  \n${actions}`;
}
