// Editors and files → tracker: edits, saves, closes, creations and deletions; the text of files when an
// episode began (so its fix can be shown as a diff); and proactive recall when a file with errors
// becomes active. Handlers only do bookkeeping; recall runs debounced, off the event.
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { Logger } from '../../core/types';

const MAX_BASELINE_CHARS = 256 * 1024;
const MAX_BASELINE_FILES = 25;
const RECALL_DEBOUNCE_MS = 600;

export interface EditorSink {
  readonly active: boolean;
  relativeIfCaptured(uri: vscode.Uri): string | undefined;
  edited(file: string, changes: number): void;
  saved(file: string): void;
  closed(file: string): void;
  deleted(file: string): void;
  /** Set while a trace is being recorded: what the editors saw, with texts (read only then). */
  readonly recorder?: { opened(file: string, text: string): void; changed(file: string, text: string): void; disk(file: string, text: string | null, before?: null): void };
  readonly logger: Logger;
}

/** Text of each file when it first mattered to an episode: at the episode's start, or when it appeared. */
export class TextBaselines {
  /** Per episode: file → text when it first mattered; null = the file did not exist yet (created since). */
  private readonly byEpisode = new Map<string, Map<string, string | null>>();
  /** One copy of a document's text per version, shared by the episodes open at the same time. */
  private readonly texts = new Map<string, { version: number; text: string }>();

  constructor(private readonly relativeIfCaptured: (uri: vscode.Uri) => string | undefined) {}

  begin(episodeId: string): void {
    const map = new Map<string, string | null>();
    this.byEpisode.set(episodeId, map);
    for (const doc of vscode.workspace.textDocuments) this.add(map, doc);
  }

  /** A document opened (or was created) while episodes are open: its current text is its baseline. */
  noteDocument(doc: vscode.TextDocument): void {
    for (const map of this.byEpisode.values()) this.add(map, doc);
  }

  noteCreated(file: string): void {
    for (const map of this.byEpisode.values()) if (!map.has(file) && map.size < MAX_BASELINE_FILES) map.set(file, null);
  }

  /** Removes and returns the episode's baselines, with the current text of the open ones among `files`. */
  end(episodeId: string, files: readonly string[]): { before: Map<string, string | null>; after: Map<string, string> } {
    const all = this.byEpisode.get(episodeId) ?? new Map<string, string | null>();
    this.byEpisode.delete(episodeId);
    if (!this.byEpisode.size) this.texts.clear();
    const before = new Map<string, string | null>();
    const after = new Map<string, string>();
    const wanted = new Set(files);
    for (const [f, t] of all) if (wanted.has(f)) before.set(f, t);
    for (const doc of vscode.workspace.textDocuments) {
      const rel = this.relativeIfCaptured(doc.uri);
      if (rel && wanted.has(rel) && !doc.isClosed) after.set(rel, doc.getText());
    }
    return { before, after };
  }

  private add(map: Map<string, string | null>, doc: vscode.TextDocument): void {
    if (doc.isClosed || map.size >= MAX_BASELINE_FILES) return;
    const rel = this.relativeIfCaptured(doc.uri);
    if (!rel || map.has(rel)) return;
    const key = doc.uri.toString();
    let cached = this.texts.get(key);
    if (!cached || cached.version !== doc.version) {
      const text = doc.getText();
      if (text.length > MAX_BASELINE_CHARS) return;
      this.texts.set(key, cached = { version: doc.version, text });
    }
    map.set(rel, cached.text);
  }
}

export function watchEditors(sink: EditorSink, baselines: TextBaselines): vscode.Disposable {
  const isOpen = (uri: vscode.Uri) => {
    const key = uri.toString();
    return vscode.workspace.textDocuments.some(d => d.uri.toString() === key && !d.isClosed);
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  return vscode.Disposable.from(
    watcher,
    vscode.workspace.onDidOpenTextDocument(doc => {
      if (!sink.active) return;
      baselines.noteDocument(doc);
      const file = sink.recorder && sink.relativeIfCaptured(doc.uri);
      if (file) sink.recorder?.opened(file, doc.getText());
    }),
    vscode.workspace.onDidChangeTextDocument(e => {
      if (!sink.active || !e.contentChanges.length) return;
      const file = sink.relativeIfCaptured(e.document.uri);
      if (!file) return;
      sink.recorder?.changed(file, e.document.getText());
      sink.edited(file, e.contentChanges.length);
    }),
    vscode.workspace.onDidSaveTextDocument(doc => {
      if (!sink.active) return;
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
      const created = (f: string, u: vscode.Uri) => { baselines.noteCreated(f); recordDisk(sink, f, u, true); sink.edited(f, 1); };
      // A new folder (mkdir -p, then files written into it) may arrive as one event: its files are new too.
      whenFileOrFolder(uri, () => created(file, uri), files => {
        for (const u of files) { const f = sink.relativeIfCaptured(u); if (f) created(f, u); }
      });
    }),
    watcher.onDidChange(uri => {
      if (!sink.active || isOpen(uri)) return; // open documents report their own edits
      const file = sink.relativeIfCaptured(uri);
      if (file) whenFile(uri, () => { recordDisk(sink, file, uri); sink.edited(file, 1); });
    }),
    watcher.onDidDelete(uri => {
      const file = sink.relativeIfCaptured(uri);
      if (!file) return;
      sink.recorder?.disk(file, null);
      sink.deleted(file);
    }),
  );
}

/** A file written outside the editors, for the trace (only while recording; local files only). */
function recordDisk(sink: EditorSink, file: string, uri: vscode.Uri, created = false): void {
  if (!sink.recorder || uri.scheme !== 'file') return;
  let text: string;
  try { text = fs.readFileSync(uri.fsPath, 'utf8'); } catch { return; }
  if (created) sink.recorder.disk(file, text, null); else sink.recorder.disk(file, text);
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
