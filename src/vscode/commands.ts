// The Engram commands owned by the recall surfaces. Every command also takes arguments (ids, Uris,
// `{ confirm: false }`) so tests and other features can run it without any UI, and returns a result.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RecallReason } from '../core/reasons';
import type { FeedbackOutcome, Memory, RecallResult } from '../core/types';
import { memoryTitle } from '../core/types';
import type { ImportReport, OversizedLine } from '../store/index';
import { diagnosticText } from './diagnosticRecall';
import { formatError } from './errors';
import { confidenceLabel, maturityLabel } from './labels';
import { forgetMemory, giveFeedback, shownConfidence, undoForget } from './memoryActions';
import { loadStoreModule } from './storeLoader';
import { newLesson } from '../core/newMemory';
import { reasonLabels } from './uiText';
import type { Services } from './services';
import type { RevealMemory } from './sidebar/register';

export interface ConfirmOption { confirm?: boolean }
export interface RecordLessonArgs { errorText?: string; rootCause?: string; fixApproach?: string; scope?: string[] | string }

/** `reveal` is the sidebar's, undefined when the sidebar did not start (memories then open as documents). */
export function registerCommands(services: Services, reveal: RevealMemory | undefined): void {
  const reg = (id: string, fn: (...args: unknown[]) => unknown) =>
    services.context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        services.logger.error(e instanceof Error ? e : String(e));
        void vscode.window.showErrorMessage(vscode.l10n.t('Engram: {0}', formatError(e)));
        return undefined;
      }
    }));
  reg('engram.recordLesson', a => recordLesson(services, asRecord(a) as RecordLessonArgs));
  reg('engram.search', (q, o) => search(services, reveal, typeof q === 'string' ? q : undefined, asRecord(o)));
  reg('engram.recallForCurrentError', o => recallForCurrentError(services, reveal, asRecord(o)));
  reg('engram.markHelpful', id => feedback(services, 'prevented', idArg(id)));
  reg('engram.markNotHelpful', id => feedback(services, 'still_failed', idArg(id)));
  reg('engram.forget', (id, o) => forget(services, idArg(id), asRecord(o)));
  reg('engram.export', u => exportMemories(services, u instanceof vscode.Uri ? u : undefined));
  reg('engram.import', u => importMemories(services, u instanceof vscode.Uri ? u : undefined));
  reg('engram.rebuildIndex', () => rebuildIndex(services));
  reg('engram.clearWorkspace', o => clearWorkspace(services, asRecord(o)));
  reg('engram.showLog', () => services.logChannel.show());
  reg('engram.downloadModel', o => downloadModel(services, asRecord(o)));
}

function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !(v instanceof vscode.Uri) && !Array.isArray(v) ? v as Record<string, unknown> : {};
}

/** Ids arrive as a string (links, tests) or inside an object from a view ({ id }). */
function idArg(v: unknown): string | undefined {
  if (typeof v === 'string' && v) return v;
  const r = asRecord(v);
  return typeof r.id === 'string' ? r.id : typeof r.memoryId === 'string' ? r.memoryId : undefined;
}

function describe(services: Services, m: Memory): string {
  return [m.kind, maturityLabel(m.maturity), confidenceLabel(shownConfidence(services, m))].join(' · ');
}

interface MemoryItem extends vscode.QuickPickItem { id: string }

function toItem(services: Services, m: Memory, reasons?: readonly RecallReason[]): MemoryItem {
  return { id: m.id, label: memoryTitle(m) || m.id, description: describe(services, m), detail: reasons?.length ? vscode.l10n.t('why: {0}', reasonLabels(reasons).join('; ')) : undefined };
}

/** Lets the user choose a memory: recently shown ones first, then the newest. */
async function pickMemory(services: Services, placeholder: string): Promise<string | undefined> {
  const store = await services.store();
  const recent = services.shownSince(Date.now() - 60 * 60 * 1000).map(id => store.get(id)).filter((m): m is Memory => !!m && !m.deleted);
  const rest = store.list().filter(m => !recent.some(r => r.id === m.id)).sort((a, b) => b.updatedAt - a.updatedAt).slice(0, 200);
  const pick = await vscode.window.showQuickPick([...recent, ...rest].map(m => toItem(services, m)), { placeHolder: placeholder, matchOnDescription: true });
  return pick?.id;
}

/** Shows a memory: in the sidebar when it is there, else as a read-only markdown document. */
async function showMemory(services: Services, reveal: RevealMemory | undefined, m: Memory): Promise<void> {
  if (reveal) return reveal(m.id);
  const lines = [`# ${memoryTitle(m)}`, '', `- ${describe(services, m)}`, `- id: ${m.id}`, `- scope: ${m.scope.join(', ') || 'workspace'}`, ''];
  if (m.kind === 'lesson') lines.push(`**Root cause:** ${m.rootCause}`, '', `**Fix:** ${m.fixApproach}`);
  if (m.kind === 'episode') lines.push(m.summary, '', m.resolution ?? '');
  if (m.kind === 'fact') lines.push(m.content);
  if (m.kind === 'rule') lines.push(m.instruction);
  // A plain text document, not a rendered preview: memory text stays inert.
  const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: lines.join('\n') });
  await vscode.window.showTextDocument(doc, { preview: true });
}

function diagnosticAtCursor(): { uri: vscode.Uri; diagnostic: vscode.Diagnostic } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const errors = vscode.languages.getDiagnostics(editor.document.uri).filter(d => d.severity === vscode.DiagnosticSeverity.Error);
  const pos = editor.selection.active;
  const d = errors.find(x => x.range.contains(pos)) ?? errors.sort((a, b) =>
    Math.abs(a.range.start.line - pos.line) - Math.abs(b.range.start.line - pos.line))[0];
  return d ? { uri: editor.document.uri, diagnostic: d } : undefined;
}

function folderGlob(services: Services, uri: vscode.Uri | undefined): string {
  const rel = uri ? services.workspaceRelative(uri) : undefined;
  if (!rel) return '';
  const dir = path.posix.dirname(rel);
  return dir === '.' ? '**' : `${dir}/**`;
}

function splitScope(s: string[] | string | undefined): string[] {
  if (Array.isArray(s)) return s.filter(x => typeof x === 'string' && x.trim()).map(x => x.trim());
  return (s ?? '').split(',').map(x => x.trim()).filter(Boolean);
}

export async function recordLesson(services: Services, args: RecordLessonArgs): Promise<string | undefined> {
  const at = diagnosticAtCursor();
  let { errorText, rootCause, fixApproach } = args;
  let scope = args.scope !== undefined ? splitScope(args.scope) : undefined;
  const steps = 4;
  const ask = (step: number, prompt: string, value: string | undefined, required: boolean) => vscode.window.showInputBox({
    title: vscode.l10n.t('Record a lesson ({0}/{1})', step, steps),
    prompt, value, ignoreFocusOut: true,
    validateInput: v => required && !v.trim() ? vscode.l10n.t('Required') : undefined,
  });
  if (!errorText) errorText = await ask(1, vscode.l10n.t('The error message'), at ? diagnosticText(at.diagnostic) : '', true);
  if (!errorText) return undefined;
  if (!rootCause) rootCause = await ask(2, vscode.l10n.t('The real root cause (what the message does not tell)'), '', true);
  if (!rootCause) return undefined;
  if (!fixApproach) fixApproach = await ask(3, vscode.l10n.t('What fixed it'), '', true);
  if (!fixApproach) return undefined;
  if (scope === undefined) {
    const s = await ask(4, vscode.l10n.t('Where it applies: comma-separated workspace globs (empty = whole workspace)'), folderGlob(services, at?.uri ?? vscode.window.activeTextEditor?.document.uri), false);
    if (s === undefined) return undefined;
    scope = splitScope(s);
  }
  const lesson = newLesson({ workspace: services.workspaceId, source: 'manual', agent: 'user' }, { errorText, rootCause, fixApproach, scope });
  const store = await services.store();
  const saved = await store.record(lesson);
  services.fireChanged();
  void vscode.window.showInformationMessage(saved.id === lesson.id
    ? vscode.l10n.t('Engram: lesson recorded.')
    : vscode.l10n.t('Engram: this lesson was already known; it gained evidence instead.'));
  return saved.id;
}

export async function search(services: Services, reveal: RevealMemory | undefined, query: string | undefined, opts: Record<string, unknown>): Promise<RecallResult[] | undefined> {
  const file = vscode.window.activeTextEditor ? services.workspaceRelative(vscode.window.activeTextEditor.document.uri) : undefined;
  if (query !== undefined && opts.pick === false) return services.recall({ text: query, file });
  const qp = vscode.window.createQuickPick<MemoryItem>();
  qp.title = vscode.l10n.t('Search Engram memories');
  qp.placeholder = vscode.l10n.t('Describe an error or a question (English or Korean)');
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let results: RecallResult[] = [];
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (text: string) => {
    const mine = ++seq;
    if (!text.trim()) { qp.items = []; return; }
    qp.busy = true;
    void services.recall({ text, file }).then(r => {
      if (mine !== seq) return; // a newer keystroke won
      results = r;
      // Keep every item visible: recall already matched, the quick pick's own filter would hide Korean hits.
      qp.items = r.map(x => ({ ...toItem(services, x.memory, x.reasons), alwaysShow: true }));
      qp.busy = false;
    }, e => { qp.busy = false; services.logger.warn(`search failed: ${formatError(e)}`); });
  };
  qp.onDidChangeValue(v => { if (timer) clearTimeout(timer); timer = setTimeout(() => run(v), 150); });
  if (query) { qp.value = query; run(query); }
  const chosen = await new Promise<MemoryItem | undefined>(resolve => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  if (timer) clearTimeout(timer);
  const m = chosen ? results.find(r => r.memory.id === chosen.id)?.memory : undefined;
  if (m) await showMemory(services, reveal, m);
  return results;
}

export async function recallForCurrentError(services: Services, reveal: RevealMemory | undefined, opts: Record<string, unknown>): Promise<RecallResult[]> {
  const at = diagnosticAtCursor();
  if (!at) {
    if (opts.pick !== false) void vscode.window.showInformationMessage(vscode.l10n.t('Engram: there is no error at the cursor.'));
    return [];
  }
  const results = await services.recall({ text: diagnosticText(at.diagnostic), file: services.workspaceRelative(at.uri) });
  if (opts.pick === false) return results;
  if (!results.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Engram: no memories are relevant to this error yet.'));
    return results;
  }
  const pick = await vscode.window.showQuickPick(results.map(r => toItem(services, r.memory, r.reasons)), {
    title: vscode.l10n.t('Memories for: {0}', at.diagnostic.message.slice(0, 80)), matchOnDetail: true,
  });
  const m = pick ? results.find(r => r.memory.id === pick.id)?.memory : undefined;
  if (m) await showMemory(services, reveal, m);
  return results;
}

export async function feedback(services: Services, outcome: FeedbackOutcome, id: string | undefined): Promise<boolean> {
  const target = id ?? await pickMemory(services, outcome === 'prevented'
    ? vscode.l10n.t('Which memory helped?') : vscode.l10n.t("Which memory didn't help?"));
  if (!target) return false;
  const m = await giveFeedback(services, target, outcome);
  const pct = m ? Math.round(shownConfidence(services, m) * 100) : 0;
  void vscode.window.setStatusBarMessage(outcome === 'prevented'
    ? vscode.l10n.t('Engram: thanks, confidence is now {0}%', pct)
    : vscode.l10n.t('Engram: noted, confidence is now {0}%', pct), 4000);
  return true;
}

/**
 * Forget from the palette: after the confirmation, the same Undo window as the sidebar (the id is kept if
 * undone, pendingForgets.ts). `{ confirm: false }` (chat buttons, tests) forgets at once.
 */
export async function forget(services: Services, id: string | undefined, opts: ConfirmOption): Promise<boolean> {
  const target = id ?? await pickMemory(services, vscode.l10n.t('Which memory should Engram forget?'));
  if (!target) return false;
  const store = await services.store();
  const m = store.get(target);
  if (!m) throw new Error(vscode.l10n.t('No memory with id {0}.', target));
  if (opts.confirm === false) {
    await forgetMemory(services, target, { undoable: false, reason: 'forgotten by the user' });
    return true;
  }
  const yes = vscode.l10n.t('Forget');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Forget "{0}"?', memoryTitle(m)), { modal: true }, yes);
  if (answer !== yes) return false;
  await forgetMemory(services, target, { undoable: true, reason: 'forgotten by the user' });
  const undo = vscode.l10n.t('Undo');
  void vscode.window.showInformationMessage(vscode.l10n.t('Engram forgot "{0}".', memoryTitle(m)), undo).then(a => {
    if (a !== undo) return;
    if (!undoForget(services, target)) void vscode.window.showInformationMessage(vscode.l10n.t('Too late to undo: "{0}" is already forgotten.', memoryTitle(m)));
  });
  return true;
}

export async function exportMemories(services: Services, target: vscode.Uri | undefined): Promise<{ uri: vscode.Uri; count: number } | undefined> {
  const uri = target ?? await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Engram memories'),
    defaultUri: vscode.workspace.workspaceFolders?.[0] ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'engram-memories.jsonl') : undefined,
    filters: { [vscode.l10n.t('Engram memories (JSON Lines)')]: ['jsonl'] },
  });
  if (!uri) return undefined;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting Engram memories'), cancellable: true }, async (progress, token) => {
    const store = await services.store();
    const lines = store.exportLines();
    const chunks: string[] = [];
    for (let i = 0; i < lines.length; i += 1000) {
      if (token.isCancellationRequested) return undefined;
      chunks.push(lines.slice(i, i + 1000).join('\n'));
      progress.report({ increment: 100 * Math.min(1000, lines.length - i) / Math.max(1, lines.length) });
    }
    if (token.isCancellationRequested) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(chunks.join('\n') + (lines.length ? '\n' : ''), 'utf8'));
    if (!target) void vscode.window.showInformationMessage(vscode.l10n.t('Engram exported {0} memories.', lines.length));
    return { uri, count: lines.length };
  });
}

export async function importMemories(services: Services, source: vscode.Uri | undefined): Promise<ImportReport | undefined> {
  const uri = source ?? (await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Import Engram memories'), canSelectMany: false,
    filters: { [vscode.l10n.t('Engram memories (JSON Lines)')]: ['jsonl', 'json', 'txt'] },
  }))?.[0];
  if (!uri) return undefined;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Importing Engram memories'), cancellable: true }, async (progress, token) => {
    // A local file streams through the bounded line reader (store/lineReader.ts): an over-long line is
    // skipped while it passes, and the file is never held whole. Other file systems are read as before.
    let lines: Iterable<string> | AsyncIterable<string | OversizedLine>;
    let total: number | undefined;
    if (uri.scheme === 'file') {
      lines = loadStoreModule().boundedLines(fs.createReadStream(uri.fsPath));
    } else {
      const all = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8').split(/\r?\n/);
      lines = all;
      total = Math.max(1, all.filter(l => l.trim()).length);
    }
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    const store = await services.store();
    let last = 0;
    try {
      const report = await store.importLines(lines, {
        signal: abort.signal,
        onProgress: n => { progress.report(total ? { increment: 100 * (n - last) / total, message: `${n}/${total}` } : { message: `${n}` }); last = n; },
      });
      for (const e of report.errors) services.logger.warn(`import ${path.basename(uri.path)} line ${e.line}: ${e.error}`);
      services.fireChanged();
      // The report lists the first bad lines and counts the rest (MAX_REPORTED_ERRORS).
      const bad = report.errors.length + (report.errorsOmitted ?? 0);
      const summary = vscode.l10n.t('Engram imported {0} memories, skipped {1}, {2} lines had errors.', report.imported, report.skipped, bad);
      if (bad) {
        const show = vscode.l10n.t('Show log');
        void vscode.window.showWarningMessage(summary, show).then(a => { if (a === show) services.logChannel.show(); });
      } else {
        void vscode.window.showInformationMessage(summary);
      }
      return report;
    } finally {
      sub.dispose();
    }
  });
}

export async function rebuildIndex(services: Services): Promise<boolean> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Rebuilding the Engram index'), cancellable: true }, async (progress, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    let last = 0;
    try {
      const store = await services.store();
      await store.rebuildIndex({
        signal: abort.signal,
        onProgress: (done, total) => { const pct = 100 * done / Math.max(1, total); progress.report({ increment: pct - last, message: `${done}/${total}` }); last = pct; },
      });
      return !abort.signal.aborted;
    } finally {
      sub.dispose();
    }
  });
}

export async function clearWorkspace(services: Services, opts: ConfirmOption): Promise<number> {
  const store = await services.store();
  const all = store.list({ includeQuarantined: true });
  if (opts.confirm !== false) {
    const yes = vscode.l10n.t('Forget all');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Forget all {0} memories of this workspace? This cannot be undone.', all.length), { modal: true }, yes);
    if (answer !== yes) return 0;
  }
  for (const m of all) await store.forget(m.id, 'workspace memory cleared by the user');
  // Compaction drops forgotten text from the log file itself, not just from the state.
  await store.compact();
  services.fireChanged();
  if (opts.confirm !== false) void vscode.window.showInformationMessage(vscode.l10n.t('Engram forgot {0} memories.', all.length));
  return all.length;
}

/** Where downloaded models go; the embedder looks in the same folder (Services.modelCacheDir). */
export function modelCacheDir(services: Services): string {
  return services.modelCacheDir;
}

export interface DownloadResult { ok: boolean; error?: string }

export async function downloadModel(services: Services, opts: ConfirmOption): Promise<DownloadResult> {
  const cfg = services.config().embedding;
  const fail = (msg: string): DownloadResult => {
    services.logger.error(msg);
    void vscode.window.showErrorMessage(msg);
    return { ok: false, error: msg };
  };
  if (!cfg.allowDownload) {
    if (opts.confirm === false) return fail(vscode.l10n.t('Engram: downloading models is turned off (engram.embedding.allowDownload).'));
    const yes = vscode.l10n.t('Download');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Download the embedding model {0} from Hugging Face? It is about 120 MB and is stored on this machine.', cfg.model), { modal: true }, yes);
    if (answer !== yes) return { ok: false };
  }
  const { downloadModel: download } = loadStoreModule();
  try {
    const done = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading {0}', cfg.model), cancellable: true }, async (progress, token) => {
      let last = 0;
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        await download({ model: cfg.model, cacheDir: modelCacheDir(services) }, p => {
          const pct = 100 * (p.fileIndex + (p.total ? Math.min(1, p.loaded / p.total) : 0)) / Math.max(1, p.fileCount);
          progress.report({ increment: pct - last, message: `${p.file} ${Math.round(pct)}%` });
          last = pct;
        }, abort.signal);
      } finally {
        sub.dispose();
      }
      return !token.isCancellationRequested;
    });
    if (!done) return { ok: false };
  } catch (e) {
    return fail(vscode.l10n.t('Engram could not download the model: {0}. Recall keeps working without it (words and error signatures).', formatError(e).replace(/\.\s*$/, '')));
  }
  // Reopen the stores so they pick the model up; the open re-indexes every memory with it.
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Engram: indexing memories with the model…') },
    () => services.reopenStores());
  void vscode.window.showInformationMessage(vscode.l10n.t('Engram downloaded the model and now uses it for recall.'));
  return { ok: true };
}
