// Diagnostics → the capture session. Per event the main thread only does bookkeeping: changed uris are
// queued and read a batch per turn; the session's diagnostics book compares each file's error-level set
// with the last one and only a changed set is turned into signatures (cached per message) and handed to
// the tracker. No store I/O happens here.
import * as vscode from 'vscode';
import type { DiagnosticsContext, ErrorInfo } from '../../core/episodeTracker';
import type { RawDiagnostic } from '../../core/capture/diagnosticErrors';

export { DiagnosticsBook, diagnosticLine, type RawDiagnostic } from '../../core/capture/diagnosticErrors';

export function toRaw(d: vscode.Diagnostic): RawDiagnostic {
  return { severity: d.severity, message: d.message, source: d.source, code: d.code as RawDiagnostic['code'], line: d.range.start.line };
}

const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/** Is the server that reports this document's diagnostics still running? Unknown languages: assume so. */
export function serverAlive(doc: vscode.TextDocument | undefined): boolean {
  if (!doc || !TS_LANGUAGES.has(doc.languageId)) return true;
  const ts = vscode.extensions.getExtension('vscode.typescript-language-features');
  return ts === undefined || ts.isActive;
}

export interface DiagnosticsSink {
  /** Workspace-relative path when the file is captured (inside the workspace, not excluded). */
  relativeIfCaptured(uri: vscode.Uri): string | undefined;
  /** The file's diagnostics as read (all severities); its errors when the set changed, else undefined. */
  diagnostics(file: string, raw: readonly RawDiagnostic[], ctx: () => DiagnosticsContext): ErrorInfo[] | undefined;
  readonly active: boolean;
}

/** Uris handled per turn; a project-wide burst (hundreds of files) continues on later turns. */
export const DIAGNOSTICS_BATCH = 20;
/**
 * How long changed uris wait before their diagnostics are read. While the user types, the language
 * server re-sends a file's diagnostics on every keystroke; only the latest set matters (the noise
 * threshold is seconds), so half-typed messages mostly never cost a signature.
 */
export const DIAGNOSTICS_COALESCE_MS = 150;

export interface IntakeSource<U> {
  /** Workspace-relative path and current diagnostics when the uri is captured, else undefined. */
  read(uri: U): { file: string; diagnostics: readonly RawDiagnostic[] } | undefined;
  /** Only asked when the file's error set changed. */
  context(uri: U): DiagnosticsContext;
  /** Hands the file's diagnostics on (to the session); its errors when the set changed. */
  deliver(file: string, raw: readonly RawDiagnostic[], ctx: () => DiagnosticsContext, uri: U): ErrorInfo[] | undefined;
}

/**
 * The diagnostics path, independent of VS Code (the benchmark drives it): `enqueue` is all an event
 * does (O(changed uris), no reads); `drain` does one bounded turn of reading and handing each file's
 * set to the session, which fingerprints it and, for changed sets only, works out signatures.
 */
export class DiagnosticsIntake<U> {
  private readonly queue = new Map<string, U>();

  constructor(private readonly source: IntakeSource<U>) {}

  get pending(): number { return this.queue.size; }

  enqueue(uris: Iterable<[key: string, uri: U]>): void {
    for (const [key, uri] of uris) this.queue.set(key, uri);
  }

  /** Handles up to `batch` queued uris; true when more remain. */
  drain(batch = DIAGNOSTICS_BATCH): boolean {
    let n = 0;
    for (const [key, uri] of this.queue) {
      this.queue.delete(key);
      const cur = this.source.read(uri);
      if (cur) this.source.deliver(cur.file, cur.diagnostics, () => this.source.context(uri), uri);
      if (++n >= batch) break;
    }
    return this.queue.size > 0;
  }

  clear(): void { this.queue.clear(); }
}

/** The diagnostics watcher; `drainNow` reads every queued change at once instead of on later turns. */
export interface DiagnosticsWatch extends vscode.Disposable {
  drainNow(): void;
}

export function watchDiagnostics(sink: DiagnosticsSink): DiagnosticsWatch {
  /** Files whose last delivered set had errors: drainNow re-reads them, so a clear is seen too. */
  const withErrors = new Map<string, vscode.Uri>();
  const intake = new DiagnosticsIntake<vscode.Uri>({
    read: uri => {
      if (!sink.active) return undefined;
      const file = sink.relativeIfCaptured(uri);
      return file ? { file, diagnostics: vscode.languages.getDiagnostics(uri).map(toRaw) } : undefined;
    },
    context: uri => {
      const key = uri.toString();
      const doc = vscode.workspace.textDocuments.find(d => d.uri.toString() === key);
      return { fileOpen: doc !== undefined && !doc.isClosed, serverAlive: serverAlive(doc) };
    },
    deliver: (file, raw, ctx, uri) => {
      const errors = sink.diagnostics(file, raw, ctx);
      if (errors) { if (errors.length) withErrors.set(uri.toString(), uri); else withErrors.delete(uri.toString()); }
      return errors;
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let turn: ReturnType<typeof setImmediate> | undefined;
  const run = () => {
    timer = undefined;
    turn = undefined;
    if (intake.drain()) turn = setImmediate(run);
  };
  const sub = vscode.languages.onDidChangeDiagnostics(e => {
    if (!sink.active) return;
    intake.enqueue(e.uris.map(u => [u.toString(), u] as [string, vscode.Uri]));
    if (!timer && !turn) timer = setTimeout(run, DIAGNOSTICS_COALESCE_MS);
  });
  const cancel = () => {
    if (timer) clearTimeout(timer);
    if (turn) clearImmediate(turn);
    timer = turn = undefined;
  };
  return {
    // A barrier for flush(): what VS Code reports now is in the tracker when it returns. Not only the
    // queue: VS Code fires onDidChangeDiagnostics up to 50 ms after getDiagnostics already shows the
    // change, so every file with diagnostics now, and every file that had errors, is read.
    drainNow: () => {
      cancel();
      intake.enqueue(vscode.languages.getDiagnostics().map(([u]) => [u.toString(), u] as [string, vscode.Uri]));
      intake.enqueue(withErrors);
      while (intake.drain()) { /* all of it, now */ }
    },
    dispose: () => {
      sub.dispose();
      cancel();
      intake.clear();
    },
  };
}
