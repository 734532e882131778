// Team memory through a file in the repository (engram.team.file, default .engram/team.jsonl): sharing
// writes a masked line for review in a pull request; loading reads the file into the workspace store as
// owner 'team' memories (capped maturity, prior confidence, injection-flagged). Never in an untrusted
// workspace: the file comes from whoever wrote the repository.
import * as os from 'os';
import * as vscode from 'vscode';
import type { Memory } from '../core/types';
import { onConfigChange } from './config';
import { formatError } from './errors';
import type { Services } from './services';
import { loadStoreModule } from './storeLoader';

const RELOAD_DEBOUNCE_MS = 500;

export function teamFileUri(services: Services): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const rel = services.config().team.file.trim();
  if (!folder || !rel) return undefined;
  // The setting is workspace-relative; an absolute or escaping path is refused rather than followed.
  if (/^([a-zA-Z]:)?[\\/]/.test(rel) || rel.split(/[\\/]/).includes('..')) return undefined;
  return vscode.Uri.joinPath(folder.uri, rel);
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try { return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)); } catch { return undefined; }
}

/** Adds (or replaces, by id) the memory's masked line in the team file and returns the file. */
export async function shareWithTeam(services: Services, m: Memory): Promise<vscode.Uri> {
  const uri = teamFileUri(services);
  if (!uri) throw new Error(vscode.l10n.t('Open a folder and set engram.team.file to a workspace-relative path to share memories.'));
  // The team format (core/team.ts, core/importFormat.ts) lives in the store bundle with the check engine.
  const { toTeamLine, MAX_TEAM_FILE_BYTES, teamFileTooLarge } = loadStoreModule();
  const size = await vscode.workspace.fs.stat(uri).then(st => st.size, () => 0);
  if (size > MAX_TEAM_FILE_BYTES) throw new Error(teamFileTooLarge(size));
  const line = toTeamLine(m, {
    userName: safe(() => os.userInfo().username),
    hostName: safe(() => os.hostname()),
    homeDir: safe(() => os.homedir()),
    workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.fsPath),
  });
  const old = (await readText(uri)) ?? '';
  const lines = old.split(/\r?\n/).filter(l => l.trim());
  const at = lines.findIndex(l => lineId(l) === m.id);
  if (at >= 0) lines[at] = line; else lines.push(line);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${lines.join('\n')}\n`));
  return uri;
}

function safe(fn: () => string): string | undefined {
  try { return fn() || undefined; } catch { return undefined; }
}

function lineId(line: string): string | undefined {
  try { const o = JSON.parse(line) as unknown; return typeof o === 'object' && o && typeof (o as { id?: unknown }).id === 'string' ? (o as { id: string }).id : undefined; } catch { return undefined; }
}

export interface TeamLoadReport { added: number; updated: number; removed: number; restored: number; errors: { line: number; error: string }[] }

/**
 * Brings the store's team memories in line with the team file: new lines are added, changed content is
 * updated, lines that disappeared are quarantined (reversible, unlike forgetting) and come back if the
 * line returns. A memory the user forgot locally stays forgotten.
 */
export async function loadTeamFile(services: Services): Promise<TeamLoadReport | undefined> {
  const report: TeamLoadReport = { added: 0, updated: 0, removed: 0, restored: 0, errors: [] };
  if (!vscode.workspace.isTrusted) return undefined;
  // With a team server set, team memories come from it instead (teamServer.ts).
  if (services.config().team.server) return undefined;
  const uri = teamFileUri(services);
  if (!uri) return undefined;
  const { mergeTeamLinesAsync, MAX_TEAM_FILE_BYTES, teamFileTooLarge } = loadStoreModule();
  // Bounded before it is read: the file is whatever the repository holds.
  const size = await vscode.workspace.fs.stat(uri).then(st => st.size, () => undefined);
  if (size !== undefined && size > MAX_TEAM_FILE_BYTES) throw new Error(teamFileTooLarge(size));
  const text = size === undefined ? undefined : await readText(uri);
  // Parsed in turns: the editor stays responsive while a large file is read.
  const parsed = text === undefined ? { memories: [], errors: [] } : await mergeTeamLinesAsync(text);
  report.errors = parsed.errors;
  await mergeTeamMemories(services, parsed.memories, report);
  await quarantineMissing(services, new Set(parsed.memories.map(m => m.id)), REMOVED_REASON, report);
  if (report.added || report.updated || report.removed || report.restored) services.fireChanged();
  return report;
}

/**
 * Adds team memories the store lacks and updates the ones whose content changed (a file's lines, a team
 * server's change feed: one merge for both); one that was set aside for being gone comes back.
 */
export async function mergeTeamMemories(services: Services, memories: Memory[], report: TeamLoadReport, changedIn = 'changed in the team file'): Promise<void> {
  const store = await services.store();
  const { teamEdit, toExportLine } = loadStoreModule();
  const fresh: string[] = [];
  for (const m of memories) {
    const cur = store.get(m.id);
    if (!cur) { fresh.push(toExportLine(m)); continue; }
    if (cur.owner.scope !== 'team') continue; // an id clash with a local memory: the local one wins
    if (cur.quarantined && GONE_REASONS.has(cur.quarantined.reason)) { await store.restore(m.id); report.restored++; }
    // New text drops to the team cap and carries its own injection flags (core/team.ts teamEdit).
    const edit = teamEdit(cur, m);
    if (edit) {
      await store.applyTeamEdit(m.id, edit, changedIn);
      report.updated++;
    }
  }
  if (fresh.length) {
    // Not a trusted backup: the store re-applies the team cap to every line (ImportOptions.team).
    const r = await store.importLines(fresh, { team: true, owner: { scope: 'team' } });
    report.added += r.imported;
    for (const e of r.errors) if (!/duplicate id/.test(e.error)) report.errors.push(e);
  }
}

/** Sets aside (reversibly) the store's team memories that the source no longer has. */
export async function quarantineMissing(services: Services, keep: Set<string>, reason: string, report: TeamLoadReport): Promise<void> {
  const store = await services.store();
  for (const m of store.list({ includeQuarantined: true })) {
    if (m.owner.scope === 'team' && !keep.has(m.id) && !m.quarantined) {
      await store.quarantine(m.id, reason);
      report.removed++;
    }
  }
}

const REMOVED_REASON = 'no longer in the team file';
/** Why a team memory is set aside when the team server no longer has it. */
export const NOT_ON_SERVER_REASON = 'not on the team server';
const GONE_REASONS = new Set([REMOVED_REASON, NOT_ON_SERVER_REASON]);

/** Loads the team file at startup, on change, on setting change, and once the workspace is trusted. */
export function registerTeamSync(services: Services): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: vscode.FileSystemWatcher | undefined;
  const subs = services.context.subscriptions;

  const load = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      loadTeamFile(services).then(r => {
        if (!r) return;
        services.logger.info(`team file: ${r.added} added, ${r.updated} updated, ${r.removed} removed, ${r.restored} restored, ${r.errors.length} bad line(s)`);
        for (const e of r.errors.slice(0, 20)) services.logger.warn(`team file line ${e.line}: ${e.error}`);
        if (r.errors.length) {
          void vscode.window.showWarningMessage(vscode.l10n.t('Engram skipped {0} bad line(s) in the team file; see the Engram log.', r.errors.length));
        }
      }, e => {
        services.logger.warn(`team file not loaded: ${formatError(e)}`);
        void vscode.window.showWarningMessage(vscode.l10n.t('Engram did not load the team file: {0}', formatError(e)));
      });
    }, RELOAD_DEBOUNCE_MS);
  };

  const watch = (): void => {
    watcher?.dispose();
    watcher = undefined;
    const folder = vscode.workspace.workspaceFolders?.[0];
    const rel = services.config().team.file.trim();
    if (!folder || !rel || !vscode.workspace.isTrusted || services.config().team.server || !teamFileUri(services)) return;
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, rel));
    watcher.onDidChange(load);
    watcher.onDidCreate(load);
    watcher.onDidDelete(load);
  };

  const start = (): void => {
    if (!vscode.workspace.isTrusted) return;
    watch();
    // Only touch the store at startup when there is a team file to read.
    const uri = teamFileUri(services);
    if (uri) void vscode.workspace.fs.stat(uri).then(() => load(), () => undefined);
  };

  subs.push(
    vscode.workspace.onDidGrantWorkspaceTrust(start),
    onConfigChange('team.file', () => { watch(); load(); }),
    onConfigChange('team.server', () => { watch(); load(); }),
    { dispose: () => { watcher?.dispose(); if (timer) clearTimeout(timer); } },
  );
  start();
}
