// Constraints as gates: a constraint (a rule the user turned into a check) raises a Warning wherever its
// pattern matches an open file inside both its scope and its check's glob, with a quick fix that opens
// the memory. Nothing is reported outside its scope. Setting: engram.constraints.enabled.
import * as vscode from 'vscode';
import { scopeMatches } from '../core/scope';
import type { Lesson, Memory } from '../core/types';
import { onConfigChange } from './config';
import { formatError } from './errors';
import type { Services } from './services';
import { loadStoreModule } from './storeLoader';

export const DIAGNOSTIC_SOURCE = 'Engram';
const CHANGE_DEBOUNCE_MS = 500;

type Constraint = Lesson & { check: NonNullable<Lesson['check']> };

export function isActiveConstraint(m: Memory): m is Constraint {
  return m.kind === 'lesson' && m.maturity === 'constraint' && !!m.check && !m.quarantined && !m.deleted && !m.flagged?.length;
}

function oneLine(s: string, max = 200): string {
  const t = (s || '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** What the last check of each open document saw: its version and the constraints it was checked against. */
export interface ConstraintChecks {
  lastCheck(uri: vscode.Uri): { version: number; constraintIds: readonly string[] } | undefined;
}

export function registerConstraints(services: Services): ConstraintChecks {
  const collection = vscode.languages.createDiagnosticCollection('engram');
  // Kept so a caller (the integration tests) can wait for a document to have been checked instead of
  // sleeping; bounded by the open documents (entries go when a document closes).
  // The list is replaced on reload, never changed in place, so a reference says what a check saw.
  const lastChecks = new Map<string, { version: number; against: readonly Constraint[] }>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let constraints: Constraint[] = [];
  let loaded: Promise<void> | undefined;
  let allTimer: ReturnType<typeof setTimeout> | undefined;
  const subs = services.context.subscriptions;

  const enabled = (): boolean => services.config().constraints.enabled;

  const reload = async (): Promise<void> => {
    try {
      const store = await services.store();
      constraints = store.list({ kinds: ['lesson'] }).filter(isActiveConstraint);
      // A check saved before checks ran on RE2 (a lookahead, a backreference) matches nothing now: say so.
      const { validateCheck } = loadStoreModule();
      for (const c of constraints) {
        const problem = validateCheck(c.check);
        if (problem) services.logger.warn(`constraint ${c.id} is not checked: ${problem}`);
      }
    } catch (e) {
      services.logger.warn(`constraints unavailable: ${formatError(e)}`);
      constraints = [];
    }
  };

  const check = (doc: vscode.TextDocument): void => {
    if (doc.isClosed) return;
    lastChecks.set(doc.uri.toString(), { version: doc.version, against: enabled() ? constraints : [] });
    if (!enabled()) { collection.delete(doc.uri); return; }
    const rel = services.workspaceRelative(doc.uri);
    const applicable = rel ? constraints.filter(c => scopeMatches(c.scope, rel) && scopeMatches([c.check.glob], rel)) : [];
    if (!applicable.length) { collection.delete(doc.uri); return; }
    // Checks run on RE2 (linear in the text, core/checkPattern.ts), which lives in the store bundle: the
    // store is loaded by now (the constraints came from it). A document past the scan bound is not checked.
    const { checkMatches, MAX_SCAN_CHARS } = loadStoreModule();
    const text = doc.getText();
    if (text.length > MAX_SCAN_CHARS) { collection.delete(doc.uri); return; }
    const diagnostics: vscode.Diagnostic[] = [];
    for (const c of applicable) {
      const message = vscode.l10n.t('Engram constraint: {0} ({1})', oneLine(c.fixApproach || c.errorText), oneLine(c.rootCause || c.errorText));
      for (const h of checkMatches(c.check, text)) {
        const d = new vscode.Diagnostic(new vscode.Range(doc.positionAt(h.start), doc.positionAt(h.end)), message, vscode.DiagnosticSeverity.Warning);
        d.source = DIAGNOSTIC_SOURCE;
        d.code = { value: c.id, target: vscode.Uri.parse(`command:engram.openMemory?${encodeURIComponent(JSON.stringify([c.id]))}`) };
        diagnostics.push(d);
      }
    }
    collection.set(doc.uri, diagnostics);
  };

  const checkAll = async (): Promise<void> => {
    if (!enabled()) { collection.clear(); return; }
    await (loaded ??= reload());
    for (const doc of vscode.workspace.textDocuments) check(doc);
  };

  const schedule = (doc: vscode.TextDocument, delay = CHANGE_DEBOUNCE_MS): void => {
    const key = doc.uri.toString();
    const t = timers.get(key);
    if (t) clearTimeout(t);
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      void (loaded ??= reload()).then(() => check(doc));
    }, delay));
  };

  subs.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(d => schedule(d, 0)),
    vscode.workspace.onDidChangeTextDocument(e => { if (e.contentChanges.length) schedule(e.document); }),
    vscode.workspace.onDidSaveTextDocument(d => schedule(d, 0)),
    vscode.workspace.onDidCloseTextDocument(d => { collection.delete(d.uri); lastChecks.delete(d.uri.toString()); }),
    services.onDidChangeMemories(() => {
      // Memories change in bursts while capture writes: re-read the constraints once the burst is over.
      if (allTimer) clearTimeout(allTimer);
      allTimer = setTimeout(() => { allTimer = undefined; loaded = reload(); void checkAll(); }, CHANGE_DEBOUNCE_MS);
    }),
    onConfigChange('constraints', () => { void checkAll(); }),
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, new OpenMemoryActions(), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    { dispose: () => { for (const t of timers.values()) clearTimeout(t); timers.clear(); if (allTimer) clearTimeout(allTimer); } },
  );
  // Open editors are checked once the window has settled; the store is not opened earlier than that.
  const initial = setTimeout(() => { if (vscode.workspace.textDocuments.length) void checkAll(); }, 1500);
  subs.push({ dispose: () => clearTimeout(initial) });
  return {
    lastCheck: uri => {
      const last = lastChecks.get(uri.toString());
      return last && { version: last.version, constraintIds: last.against.map(c => c.id) };
    },
  };
}

/** "Open memory" on every Engram constraint warning. */
class OpenMemoryActions implements vscode.CodeActionProvider {
  provideCodeActions(_doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== DIAGNOSTIC_SOURCE || typeof d.code !== 'object' || d.code === null) continue;
      const id = String(d.code.value);
      const action = new vscode.CodeAction(vscode.l10n.t('Open memory'), vscode.CodeActionKind.QuickFix);
      action.command = { command: 'engram.openMemory', title: vscode.l10n.t('Open memory'), arguments: [id] };
      action.diagnostics = [d];
      out.push(action);
    }
    return out;
  }
}
