// Memories relevant to the error diagnostics of open files, computed in the background when diagnostics
// or memories change, so the hover and the status bar mostly read a cache instead of recalling on the
// main thread while the user waits. Keyed by (file, diagnostic signature, memory revision).
import * as vscode from 'vscode';
import type { RecallQuery, RecallResult } from '../core/types';
import { signatureKeyOf } from '../core/recall';
import { normaliseSignature } from '../core/signature';
import { formatError } from './errors';
import type { Services } from './services';

const MAX_DIAGNOSTICS_PER_FILE = 20;
const DEBOUNCE_MS = 250;
const MAX_CACHED = 1000;

export interface DiagnosticMemories {
  diagnostic: vscode.Diagnostic;
  signature: string;
  results: RecallResult[];
}

/** The text a diagnostic is recalled by: tsc-like "error TS2322: message" so the signature code survives. */
export function diagnosticText(d: vscode.Diagnostic): string {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  const source = (d.source ?? '').toLowerCase();
  if (code !== undefined && (source === 'ts' || source === 'typescript' || source === 'js')) {
    return `error TS${code}: ${d.message}`;
  }
  return code !== undefined ? `${d.source ?? 'error'} ${code}: ${d.message}` : d.message;
}

const signatures = new Map<string, string>();

export function diagnosticSignature(d: vscode.Diagnostic): string {
  // Memoised by text: the hover asks on every mouse move, and the same error text repeats across files.
  const text = diagnosticText(d);
  let key = signatures.get(text);
  if (key === undefined) {
    // The same key function the recall engine and the store use, so equal errors meet.
    key = signatureKeyOf(text) ?? normaliseSignature(d.message).key;
    if (signatures.size > 2000) signatures.clear();
    signatures.set(text, key);
  }
  return key;
}

/** One per window (activate() builds it), shared by the hover and the relevant-memories status item. */
export class DiagnosticRecall implements vscode.Disposable {
  private revision = 0;
  private readonly cache = new Map<string, RecallResult[]>();
  private readonly pending = new Map<string, Promise<RecallResult[]>>();
  private readonly dirty = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly updated = new vscode.EventEmitter<vscode.Uri>();
  /** Fires when the memories known for a file changed (after background recall). */
  readonly onDidUpdate = this.updated.event;
  private readonly disposables: vscode.Disposable[] = [this.updated];

  constructor(private readonly services: Services) {
    this.disposables.push(
      vscode.languages.onDidChangeDiagnostics(e => this.schedule(e.uris)),
      services.onDidChangeMemories(() => {
        this.revision++;
        this.cache.clear();
        this.schedule(vscode.window.visibleTextEditors.map(e => e.document.uri));
      }),
      vscode.window.onDidChangeVisibleTextEditors(eds => this.schedule(eds.map(e => e.document.uri))),
    );
  }

  errorDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
    return vscode.languages.getDiagnostics(uri)
      .filter(d => d.severity === vscode.DiagnosticSeverity.Error)
      .slice(0, MAX_DIAGNOSTICS_PER_FILE);
  }

  private key(uri: vscode.Uri, signature: string): string {
    return `${this.revision}|${uri.toString()}|${signature}`;
  }

  /** Cached relevant memories for one diagnostic, or undefined when not computed yet. */
  cached(uri: vscode.Uri, d: vscode.Diagnostic): RecallResult[] | undefined {
    return this.cache.get(this.key(uri, diagnosticSignature(d)));
  }

  /** Relevant memories for one diagnostic: from the cache, or recalled now (and cached). */
  resolve(uri: vscode.Uri, d: vscode.Diagnostic): Promise<RecallResult[]> {
    const signature = diagnosticSignature(d);
    const key = this.key(uri, signature);
    const hit = this.cache.get(key);
    if (hit) return Promise.resolve(hit);
    let p = this.pending.get(key);
    if (!p) {
      p = this.recallFor(uri, d)
        .then(results => {
          if (this.cache.size > MAX_CACHED) this.cache.clear(); // bounded: rebuilt cheaply for visible files
          this.cache.set(key, results);
          return results;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  /** Relevant memories for each error in the file that has any. */
  async forFile(uri: vscode.Uri): Promise<DiagnosticMemories[]> {
    const out: DiagnosticMemories[] = [];
    for (const d of this.errorDiagnostics(uri)) {
      const results = await this.resolve(uri, d);
      if (results.length) out.push({ diagnostic: d, signature: diagnosticSignature(d), results });
    }
    return out;
  }

  /** Distinct memory ids relevant to the file's errors, from the cache only (cheap, synchronous). */
  cachedIdsForFile(uri: vscode.Uri): Set<string> {
    const ids = new Set<string>();
    for (const d of this.errorDiagnostics(uri)) for (const r of this.cached(uri, d) ?? []) ids.add(r.memory.id);
    return ids;
  }

  private recallFor(uri: vscode.Uri, d: vscode.Diagnostic): Promise<RecallResult[]> {
    const file = this.services.workspaceRelative(uri);
    // Shown unasked next to an error: only what passes the proactive gate (core/recallGate.ts).
    const q: RecallQuery = { text: diagnosticText(d), file, k: 3, proactive: true };
    return this.services.recall(q, { noteShown: false });
  }

  private schedule(uris: readonly vscode.Uri[]): void {
    if (!this.services.config().hover.enabled && !this.services.config().recall.proactive) return;
    const visible = new Set(vscode.window.visibleTextEditors.map(e => e.document.uri.toString()));
    for (const uri of uris) {
      // Only files someone is looking at: a workspace-wide diagnostics burst must not become recall work.
      if (uri.scheme === 'file' && visible.has(uri.toString())) this.dirty.add(uri.toString());
    }
    if (!this.dirty.size || this.timer) return;
    this.timer = setTimeout(() => { this.timer = undefined; void this.flush(); }, DEBOUNCE_MS);
  }

  private async flush(): Promise<void> {
    const uris = [...this.dirty].map(u => vscode.Uri.parse(u));
    this.dirty.clear();
    for (const uri of uris) {
      if (!this.errorDiagnostics(uri).length) { this.updated.fire(uri); continue; }
      try {
        await this.forFile(uri);
        this.updated.fire(uri);
      } catch (e) {
        this.services.logger.warn(`background recall for ${uri.fsPath} failed: ${formatError(e)}`);
      }
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
