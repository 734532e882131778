// Follows the active editor (or the visible one while a panel has focus) and its error diagnostics and says what "Relevant now" should recall:
// the file's error messages, scoped to its workspace-relative path. Debounced, so typing (which
// re-publishes diagnostics constantly) costs one recall after things settle, not one per keystroke.
import * as vscode from 'vscode';
import { diagnosticText } from '../diagnosticRecall';
import { debounce } from './viewHost';

export interface RelevantQuery {
  /** Workspace-relative path of the active file, when it is inside the workspace. */
  file?: string;
  /** Error messages of the file, or its path words when it has no errors. */
  text: string;
  errors: number;
}

const MAX_ERRORS = 5;

/** Panels (Output, Debug Console) that hold a text editor but are not the user's file. */
const isPanel = (e: vscode.TextEditor) => e.document.uri.scheme === 'output' || e.document.uri.scheme === 'debug';

/**
 * The editor "Relevant now" is about: the focused one, or, while a panel such as Output has focus, the
 * text editor still visible beside it (issue 21: "Open a file to see…" with a file in plain view).
 */
export function relevantEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active && !isPanel(active)) return active;
  return vscode.window.visibleTextEditors.find(e => !isPanel(e));
}

export function currentRelevantQuery(relative: (uri: vscode.Uri) => string | undefined): RelevantQuery | undefined {
  const editor = relevantEditor();
  if (!editor) return undefined;
  const uri = editor.document.uri;
  const file = relative(uri);
  const errors = vscode.languages.getDiagnostics(uri).filter(d => d.severity === vscode.DiagnosticSeverity.Error);
  if (errors.length) {
    // The error under the cursor first: it is the one the user is looking at.
    const line = editor.selection.active.line;
    errors.sort((a, b) => Number(!a.range.contains(editor.selection.active)) - Number(!b.range.contains(editor.selection.active))
      || Math.abs(a.range.start.line - line) - Math.abs(b.range.start.line - line));
    // The hover's wording ("error TS2339: …"), so the signature and its code are found the same way.
    const text = errors.slice(0, MAX_ERRORS).map(diagnosticText).join('\n');
    return { file, text, errors: errors.length };
  }
  const name = file ?? uri.path.split('/').pop() ?? '';
  return { file, text: name.replace(/[/._-]+/g, ' ').trim(), errors: 0 };
}

/** Calls `onChange` (debounced) when the active file or its diagnostics change. */
export function watchRelevantContext(onChange: () => void, delayMs = 400): vscode.Disposable {
  const fire = debounce(onChange, delayMs);
  const subs = [
    vscode.window.onDidChangeActiveTextEditor(() => fire()),
    vscode.window.onDidChangeVisibleTextEditors(() => fire()),
    vscode.languages.onDidChangeDiagnostics(e => {
      const active = relevantEditor()?.document.uri.toString();
      if (active && e.uris.some(u => u.toString() === active)) fire();
    }),
  ];
  return { dispose: () => { fire.cancel(); subs.forEach(s => s.dispose()); } };
}
