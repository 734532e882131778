// Team memory through `engram serve` (engram.team.server): the window keeps a copy of the team's approved
// memories in its own store, kept in step by the server's change feed (GET /v1/changes, held open while
// nothing changes), and merged exactly as the team file's lines are (team.ts mergeTeamMemories: capped
// maturity, prior confidence, injection flags). Recall reads the local store, so it never waits on the
// network and goes on from the last copy when the server cannot be reached; the status bar and the log say
// so. Sharing sends the masked memory to the server. The token lives in SecretStorage, filed under the
// server's origin: a URL a workspace sets never receives a token the user gave another server.
import * as os from 'os';
import * as vscode from 'vscode';
import type { Memory } from '../core/types';
import { ServerError, ServerUnreachable, TeamClient, type ChangePageJson } from '../server/client';
import { onConfigChange } from './config';
import { formatError } from './errors';
import type { Services } from './services';
import { loadStoreModule } from './storeLoader';
import { mergeTeamMemories, NOT_ON_SERVER_REASON, type TeamLoadReport } from './team';

/** How long the server holds a change poll open when nothing changed (its maximum is 30 s). */
const POLL_WAIT_S = 25;
const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

export type TeamServerState =
  | { kind: 'off' }
  | { kind: 'signedOut'; url: string }
  | { kind: 'untrusted'; url: string }
  | { kind: 'connecting'; url: string }
  | { kind: 'online'; url: string; revision: number }
  | { kind: 'offline'; url: string; reason: string }
  | { kind: 'rejected'; url: string; reason: string };

/** The key a token is filed under: one per server origin. */
export function tokenKey(url: string): string {
  return `engram.team.token:${new URL(url).origin}`;
}

/** The setting parsed: an http(s) URL, or undefined with the reason. */
export function parseServerUrl(raw: string): { url?: string; problem?: string } {
  if (!raw) return {};
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { problem: vscode.l10n.t('The team server URL must start with http:// or https://.') };
    return { url: u.toString().replace(/\/+$/, '') };
  } catch {
    return { problem: vscode.l10n.t('The team server URL is not a valid URL.') };
  }
}

export class TeamServerSync implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TeamServerState>();
  readonly onDidChangeState = this.changed.event;
  private current: TeamServerState = { kind: 'off' };
  private abort: AbortController | undefined;
  private generation = 0;
  private wake: (() => void) | undefined;

  constructor(private readonly services: Services) {}

  get state(): TeamServerState { return this.current; }

  /** The server URL when one is set and valid. */
  url(): string | undefined { return parseServerUrl(this.services.config().team.server).url; }

  async token(url: string): Promise<string | undefined> {
    return this.services.context.secrets.get(tokenKey(url));
  }

  /** A client for the set server with the stored token, or undefined when either is missing. */
  async client(signal?: AbortSignal): Promise<TeamClient | undefined> {
    const url = this.url();
    const token = url && await this.token(url);
    return url && token ? new TeamClient({ url, token, signal }) : undefined;
  }

  /** (Re)starts the feed for the current setting and token; the previous one stops first. */
  restart(): void {
    this.abort?.abort();
    this.abort = undefined;
    const gen = ++this.generation;
    const raw = this.services.config().team.server;
    const { url, problem } = parseServerUrl(raw);
    if (!raw) { this.set({ kind: 'off' }); return; }
    if (!url) { this.set({ kind: 'rejected', url: raw, reason: problem ?? '' }); return; }
    if (!vscode.workspace.isTrusted) { this.set({ kind: 'untrusted', url }); return; }
    void this.token(url).then(token => {
      if (gen !== this.generation) return;
      if (!token) { this.set({ kind: 'signedOut', url }); return; }
      const abort = new AbortController();
      this.abort = abort;
      this.set({ kind: 'connecting', url });
      void this.run(gen, new TeamClient({ url, token, signal: abort.signal }), url, abort.signal);
    });
  }

  /** The feed: pages applied in order, then held-open polls; on failure, retries with a growing pause. */
  private async run(gen: number, client: TeamClient, url: string, signal: AbortSignal): Promise<void> {
    const key = `engram.team.server.revision:${new URL(url).origin}`;
    const state = this.services.context.workspaceState;
    let after = state.get<number>(key) ?? 0;
    let pause = RETRY_MIN_MS;
    // From revision 0 the feed is a full copy: what the store has from elsewhere (a team file) is set aside.
    let seen: Set<string> | undefined = after === 0 ? new Set() : undefined;
    while (gen === this.generation && !signal.aborted) {
      try {
        const page = await client.changes(after, this.current.kind === 'online' ? POLL_WAIT_S : 0);
        if (gen !== this.generation) return;
        const report = await this.apply(page, seen);
        if (seen && !page.more) {
          await this.quarantineUnseen(seen, report);
          seen = undefined;
        }
        after = page.revision;
        await state.update(key, after);
        if (this.current.kind !== 'online') this.services.logger.info(`team server ${url}: connected at revision ${after}`);
        this.log(report);
        this.set({ kind: 'online', url, revision: after });
        pause = RETRY_MIN_MS;
      } catch (e) {
        if (gen !== this.generation || signal.aborted) return;
        if (e instanceof ServerError && (e.status === 401 || e.status === 403)) {
          this.services.logger.warn(`team server ${url}: ${e.message}; sign in again`);
          this.set({ kind: 'rejected', url, reason: e.message });
          void vscode.window.showWarningMessage(vscode.l10n.t('The team server refused the token ({0}). Recall goes on from the local copy; sign in again to sync.', e.message));
          return;
        }
        const reason = formatError(e);
        if (this.current.kind !== 'offline') {
          this.services.logger.warn(`team server ${url} unreachable (${reason}); working from the local copy of the team's memories`);
        }
        this.set({ kind: 'offline', url, reason });
        await this.sleep(pause);
        pause = Math.min(RETRY_MAX_MS, pause * 2);
      }
    }
  }

  private async apply(page: ChangePageJson, seen: Set<string> | undefined): Promise<TeamLoadReport> {
    const report: TeamLoadReport = { added: 0, updated: 0, removed: 0, restored: 0, errors: [] };
    // Approved team memories only: a private one stays with its author's server copy, a proposed one waits for review.
    const team = page.memories.filter(x => x.visibility === 'team' && x.status === 'approved').map(x => x.memory as unknown as Memory);
    for (const m of team) seen?.add(m.id);
    await mergeTeamMemories(this.services, team, report, 'changed on the team server');
    const store = await this.services.store();
    for (const id of page.deleted) {
      if (store.get(id)?.owner.scope !== 'team') continue;
      // Forgotten on the server: the text leaves this copy too.
      await store.forget(id, 'forgotten on the team server');
      report.removed++;
    }
    if (report.added || report.updated || report.removed || report.restored) this.services.fireChanged();
    return report;
  }

  private async quarantineUnseen(seen: Set<string>, report: TeamLoadReport): Promise<void> {
    const store = await this.services.store();
    for (const m of store.list()) {
      if (m.owner.scope === 'team' && !seen.has(m.id)) {
        await store.quarantine(m.id, NOT_ON_SERVER_REASON);
        report.removed++;
      }
    }
    if (report.removed) this.services.fireChanged();
  }

  private log(r: TeamLoadReport): void {
    if (!r.added && !r.updated && !r.removed && !r.restored && !r.errors.length) return;
    this.services.logger.info(`team server: ${r.added} added, ${r.updated} updated, ${r.removed} removed, ${r.restored} restored, ${r.errors.length} not taken`);
    for (const e of r.errors.slice(0, 20)) this.services.logger.warn(`team server memory ${e.line}: ${e.error}`);
  }

  /** Sleeps, unless a restart or a retry now (`retryNow`) comes first. */
  private sleep(ms: number): Promise<void> {
    return new Promise(resolve => {
      const t = setTimeout(done, ms);
      function done(): void { clearTimeout(t); resolve(); }
      this.wake = done;
    });
  }

  /** Tries the server again at once (after it came back, or from the status bar). */
  retryNow(): void { this.wake?.(); }

  private set(s: TeamServerState): void {
    this.current = s;
    this.changed.fire(s);
  }

  dispose(): void {
    this.generation++;
    this.abort?.abort();
    this.wake?.();
    this.changed.dispose();
  }
}

/** Sends a masked copy of the memory to the team server; answers what the server did with it. */
export async function shareThroughServer(sync: TeamServerSync, m: Memory): Promise<{ status: string; url: string }> {
  const url = sync.url();
  if (!url) throw new Error(vscode.l10n.t('Set engram.team.server to the team server URL first.'));
  const client = await sync.client();
  if (!client) throw new Error(vscode.l10n.t('Sign in to the team server first (Engram: Sign in to Team Server…).'));
  const { toTeamLine } = loadStoreModule();
  // The same masking as a team-file line (home folder, user and host names, absolute paths); the server
  // masks and flags again and decides owner and review.
  const line = JSON.parse(toTeamLine(m, {
    userName: safe(() => os.userInfo().username),
    hostName: safe(() => os.hostname()),
    homeDir: safe(() => os.homedir()),
    workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.fsPath),
  })) as Record<string, unknown>;
  delete line.owner;
  try {
    const r = await client.record({ ...line, visibility: 'team' });
    sync.retryNow();
    return { status: r.status, url };
  } catch (e) {
    if (e instanceof ServerUnreachable) throw new Error(vscode.l10n.t('The team server at {0} did not answer; the memory was not shared. Try again when it is reachable.', url));
    throw e;
  }
}

function safe(fn: () => string): string | undefined {
  try { return fn() || undefined; } catch { return undefined; }
}

/**
 * Engram: Sign in to Team Server. Asks for the URL (when none is set) and the token, checks the token
 * with the server, stores it in SecretStorage and starts the feed. `arg` ({ url?, token? }) skips the
 * questions (another extension's or a test's call).
 */
export async function signIn(sync: TeamServerSync, services: Services, arg?: unknown): Promise<void> {
  const given = (typeof arg === 'object' && arg ? arg : {}) as { url?: unknown; token?: unknown };
  let raw = typeof given.url === 'string' ? given.url : services.config().team.server;
  if (!raw) {
    raw = (await vscode.window.showInputBox({
      title: vscode.l10n.t('Engram team server'),
      prompt: vscode.l10n.t('The URL engram serve listens on'),
      placeHolder: 'https://engram.example.com',
      ignoreFocusOut: true,
      validateInput: v => parseServerUrl(v.trim()).problem,
    }))?.trim() ?? '';
    if (!raw) return;
  }
  const { url, problem } = parseServerUrl(raw);
  if (!url) throw new Error(problem ?? vscode.l10n.t('The team server URL is not a valid URL.'));
  const token = typeof given.token === 'string' ? given.token.trim() : (await vscode.window.showInputBox({
    title: vscode.l10n.t('Engram team server token'),
    prompt: vscode.l10n.t('A token from engram serve token create (kept in VS Code\'s secret storage)'),
    password: true,
    ignoreFocusOut: true,
  }))?.trim();
  if (!token) return;
  // Checked before it is kept: a typo is caught now, not at the first sync.
  try {
    await new TeamClient({ url, token }).changes(0, 0, 1);
  } catch (e) {
    if (e instanceof ServerError && e.status === 401) throw new Error(vscode.l10n.t('The team server did not accept that token.'));
    throw e;
  }
  await services.context.secrets.store(tokenKey(url), token);
  if (services.config().team.server !== url) {
    await vscode.workspace.getConfiguration('engram').update('team.server', url, vscode.ConfigurationTarget.Global);
  }
  sync.restart();
  services.logger.info(`team server ${url}: signed in`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to the team server at {0}.', url));
}

/** Engram: Sign out of Team Server. Forgets the token; the local copy of team memories stays for recall. */
export async function signOut(sync: TeamServerSync, services: Services): Promise<void> {
  const url = sync.url();
  if (!url) { void vscode.window.showInformationMessage(vscode.l10n.t('No team server is set.')); return; }
  await services.context.secrets.delete(tokenKey(url));
  sync.restart();
  services.logger.info(`team server ${url}: signed out`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Signed out of the team server at {0}.', url));
}

function statusText(s: TeamServerState): string | undefined {
  switch (s.kind) {
    case 'off': return undefined;
    case 'online': return `$(cloud) ${vscode.l10n.t('Team')}`;
    case 'connecting': return `$(sync~spin) ${vscode.l10n.t('Team')}`;
    case 'offline': return `$(cloud-offline) ${vscode.l10n.t('Team offline')}`;
    case 'untrusted': return `$(workspace-untrusted) ${vscode.l10n.t('Team')}`;
    default: return `$(warning) ${vscode.l10n.t('Team signed out')}`;
  }
}

export function statusTooltip(s: TeamServerState): string {
  switch (s.kind) {
    case 'off': return '';
    case 'online': return vscode.l10n.t('Team memories from {0}, in step (revision {1}).', s.url, s.revision);
    case 'connecting': return vscode.l10n.t('Connecting to the team server at {0}…', s.url);
    case 'offline': return vscode.l10n.t('The team server at {0} is unreachable ({1}). Recall works from the local copy of the team\'s memories; Engram keeps trying.', s.url, s.reason);
    case 'untrusted': return vscode.l10n.t('The team server is not used in an untrusted workspace.');
    case 'signedOut': return vscode.l10n.t('Not signed in to the team server at {0}. Click to sign in.', s.url);
    case 'rejected': return vscode.l10n.t('The team server at {0}: {1}. Click to sign in again.', s.url, s.reason);
  }
}

/** The feed, its status bar item and the sign-in commands; the feed restarts on setting and trust changes. */
export function registerTeamServer(services: Services): TeamServerSync {
  const subs = services.context.subscriptions;
  const sync = new TeamServerSync(services);
  const item = vscode.window.createStatusBarItem('engram.team', vscode.StatusBarAlignment.Left, 49);
  item.name = vscode.l10n.t('Engram team server');
  const show = (s: TeamServerState): void => {
    const text = statusText(s);
    if (!text) { item.hide(); return; }
    item.text = text;
    item.tooltip = statusTooltip(s);
    item.command = s.kind === 'online' || s.kind === 'connecting' ? 'engram.showLog' : s.kind === 'offline' ? 'engram.team.retry' : 'engram.team.signIn';
    item.backgroundColor = s.kind === 'offline' || s.kind === 'rejected' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  const guarded = (what: string, fn: (...a: unknown[]) => Promise<void>) => async (...a: unknown[]) => {
    try { await fn(...a); } catch (e) {
      services.logger.warn(`team server: could not ${what}: ${formatError(e)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not {0}: {1}', what, formatError(e)));
    }
  };
  subs.push(
    sync, item,
    sync.onDidChangeState(show),
    vscode.commands.registerCommand('engram.team.signIn', guarded(vscode.l10n.t('sign in to the team server'), a => signIn(sync, services, a))),
    vscode.commands.registerCommand('engram.team.signOut', guarded(vscode.l10n.t('sign out of the team server'), () => signOut(sync, services))),
    vscode.commands.registerCommand('engram.team.retry', () => sync.retryNow()),
    onConfigChange('team.server', () => sync.restart()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => sync.restart()),
    services.context.secrets.onDidChange(e => { const url = sync.url(); if (url && e.key === tokenKey(url)) sync.restart(); }),
  );
  sync.restart();
  return sync;
}
