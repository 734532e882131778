// "$(lightbulb) 3" in the status bar: how many memories are relevant to the errors of the file in the
// active editor. Hidden when none. Reads the background recall cache, so it costs nothing per keystroke.
import * as vscode from 'vscode';
import { relevantEditor } from './sidebar/relevantQuery';
import type { DiagnosticRecall } from './diagnosticRecall';
import type { Services } from './services';

/** `recall` is the window's diagnostic recall cache, shared with the hover. */
export function registerRelevantStatus(services: Services, recall: DiagnosticRecall): void {
  const item = vscode.window.createStatusBarItem('engram.relevant', vscode.StatusBarAlignment.Left, 90);
  item.name = vscode.l10n.t('Engram: relevant memories');
  item.command = 'engram.showPanel';
  services.context.subscriptions.push(item);

  let generation = 0;
  const update = async (): Promise<void> => {
    const mine = ++generation;
    const editor = relevantEditor();
    if (!editor || editor.document.uri.scheme !== 'file' || !recall.errorDiagnostics(editor.document.uri).length) {
      item.hide();
      return;
    }
    const uri = editor.document.uri;
    let ids = recall.cachedIdsForFile(uri);
    if (!ids.size) {
      // Not precomputed yet (e.g. the editor just opened): recall in the background, then show.
      try {
        await recall.forFile(uri);
      } catch {
        item.hide();
        return;
      }
      if (mine !== generation) return;
      ids = recall.cachedIdsForFile(uri);
    }
    if (!ids.size) { item.hide(); return; }
    item.text = `$(lightbulb) ${ids.size}`;
    item.tooltip = ids.size === 1
      ? vscode.l10n.t('Engram: 1 memory is relevant to the errors in this file. Click to open.')
      : vscode.l10n.t('Engram: {0} memories are relevant to the errors in this file. Click to open.', ids.size);
    item.show();
  };

  services.context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    vscode.window.onDidChangeVisibleTextEditors(() => void update()),
    recall.onDidUpdate(uri => {
      if (relevantEditor()?.document.uri.toString() === uri.toString()) void update();
    }),
    vscode.languages.onDidChangeDiagnostics(e => {
      // Errors gone: hide at once. New errors show after the background recall fires onDidUpdate.
      const active = relevantEditor()?.document.uri;
      if (active && e.uris.some(u => u.toString() === active.toString()) && !recall.errorDiagnostics(active).length) item.hide();
    }),
  );
  // Not during activation: the first recall loads the store bundle, which activation must not wait on.
  const first = setTimeout(() => void update(), 1500);
  services.context.subscriptions.push({ dispose: () => clearTimeout(first) });
}
