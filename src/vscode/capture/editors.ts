// Editors and files → the capture session: opens, edits, saves, closes, creations and deletions, as plain
// calls the controller turns into the session's events (the session keeps the texts an episode's diff
// needs, core/capture/baselines.ts); and proactive recall when a file with errors becomes active.
// Handlers only do bookkeeping; recall runs debounced, off the event.
import * as vscode from 'vscode';
import type { Logger } from '../../core/types';

const RECALL_DEBOUNCE_MS = 600;

export interface EditorSink {
  readonly active: boolean;
  relativeIfCaptured(uri: vscode.Uri): string | undefined;
  opened(file: string, doc: vscode.TextDocument): void;
  changed(file: string, doc: vscode.TextDocument, changes: number): void;
  saved(file: string): void;
  closed(file: string): void;
  /** A file written outside the editors (an agent, a script, git): created, changed or deleted. */
  disk(file: string, uri: vscode.Uri, kind: 'created' | 'changed' | 'deleted'): void;
  readonly logger: Logger;
}

export function watchEditors(sink: EditorSink): vscode.Disposable {
  const isOpen = (uri: vscode.Uri) => {
    const key = uri.toString();
    return vscode.workspace.textDocuments.some(d => d.uri.toString() === key && !d.isClosed);
  };
  /** Saves VS Code makes by itself after a delay: not the user saying "this is the text". */
  const autoSaves = new Set<string>();
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  return vscode.Disposable.from(
    watcher,
    vscode.workspace.onDidOpenTextDocument(doc => {
      if (!sink.active) return;
      const file = sink.relativeIfCaptured(doc.uri);
      if (file) sink.opened(file, doc);
    }),
    vscode.workspace.onDidChangeTextDocument(e => {
      if (!sink.active || !e.contentChanges.length) return;
      const file = sink.relativeIfCaptured(e.document.uri);
      if (file) sink.changed(file, e.document, e.contentChanges.length);
    }),
    vscode.workspace.onWillSaveTextDocument(e => {
      if (e.reason === vscode.TextDocumentSaveReason.AfterDelay) autoSaves.add(e.document.uri.toString());
    }),
    vscode.workspace.onDidSaveTextDocument(doc => {
      const auto = autoSaves.delete(doc.uri.toString());
      if (!sink.active || auto) return;
      const file = sink.relativeIfCaptured(doc.uri);
      if (file) sink.saved(file);
    }),
    vscode.workspace.onDidCloseTextDocument(doc => {
      const file = sink.relativeIfCaptured(doc.uri);
      if (file) sink.closed(file);
    }),
    // Changes made outside the editors (an agent, a script, git): edits without an editor event.
    watcher.onDidCreate(uri => {
      if (!sink.active) return;
      const file = sink.relativeIfCaptured(uri);
      if (!file || isOpen(uri)) return;
      // A new folder (mkdir -p, then files written into it) may arrive as one event: its files are new too.
      whenFileOrFolder(uri, () => sink.disk(file, uri, 'created'), files => {
        for (const u of files) { const f = sink.relativeIfCaptured(u); if (f) sink.disk(f, u, 'created'); }
      });
    }),
    watcher.onDidChange(uri => {
      if (!sink.active || isOpen(uri)) return; // open documents report their own edits
      const file = sink.relativeIfCaptured(uri);
      if (file) whenFile(uri, () => sink.disk(file, uri, 'changed'));
    }),
    watcher.onDidDelete(uri => {
      const file = sink.relativeIfCaptured(uri);
      if (file) sink.disk(file, uri, 'deleted');
    }),
  );
}

const MAX_NEW_FOLDER_FILES = 50;

/** Like whenFile, and for a new folder: the files in it (one level down and below, bounded). */
function whenFileOrFolder(uri: vscode.Uri, onFile: () => void, onFolder: (files: vscode.Uri[]) => void): void {
  vscode.workspace.fs.stat(uri).then(async st => {
    if (st.type & vscode.FileType.File) { onFile(); return; }
    if (!(st.type & vscode.FileType.Directory)) return;
    const files: vscode.Uri[] = [];
    const walk = async (dir: vscode.Uri, depth: number) => {
      for (const [name, type] of await vscode.workspace.fs.readDirectory(dir)) {
        if (files.length >= MAX_NEW_FOLDER_FILES) return;
        const child = vscode.Uri.joinPath(dir, name);
        if (type & vscode.FileType.File) files.push(child);
        else if (type & vscode.FileType.Directory && depth < 3) await walk(child, depth + 1);
      }
    };
    await walk(uri, 0);
    onFolder(files);
  }).then(undefined, () => { /* gone again */ });
}

/** Folders appear in watcher events too; only files are steps. The stat runs off the event. */
function whenFile(uri: vscode.Uri, fn: () => void): void {
  vscode.workspace.fs.stat(uri).then(st => { if (st.type & vscode.FileType.File) fn(); }, () => { /* gone again */ });
}

export interface ProactiveRecallDeps {
  enabled(): boolean;
  relativeIfCaptured(uri: vscode.Uri): string | undefined;
  recall(text: string, file: string): Promise<unknown>;
  changed(): void;
  readonly logger: Logger;
}

/** When a file with errors becomes active, recall for its current error messages (debounced). */
export class ProactiveRecall implements vscode.Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly sub: vscode.Disposable;
  private lastKey = '';

  constructor(private readonly deps: ProactiveRecallDeps) {
    this.sub = vscode.window.onDidChangeActiveTextEditor(ed => { if (ed) this.schedule(ed.document.uri); });
  }

  schedule(uri: vscode.Uri): void {
    if (!this.deps.enabled()) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; void this.run(uri); }, RECALL_DEBOUNCE_MS);
  }

  private async run(uri: vscode.Uri): Promise<void> {
    const file = this.deps.relativeIfCaptured(uri);
    if (!file || !this.deps.enabled()) return;
    const messages = vscode.languages.getDiagnostics(uri)
      .filter(d => d.severity === vscode.DiagnosticSeverity.Error)
      .slice(0, 10)
      .map(d => d.message);
    if (!messages.length) return;
    const text = messages.join('\n');
    const key = `${file}\n${text}`;
    if (key === this.lastKey) return; // the same errors in the same file: already recalled
    this.lastKey = key;
    try {
      await this.deps.recall(text, file);
      this.deps.changed();
    } catch (e) {
      this.deps.logger.warn(`proactive recall failed for ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.sub.dispose();
  }
}
