// The window's adapter to the capture session (core/capture/capturePipeline.ts): turns VS Code's
// diagnostics, terminal runs, edits and files into the session's events, and carries out what the session
// reports (the timer for its next deadline, automatic outcomes, finalisation, the views). Every capture
// rule lives in the session, so a trace replayed with `engram replay` gives what the window gave. Event
// handlers only do bookkeeping; writes go through the Finalizer. Implements CaptureApi for the sidebar,
// the status bar and the commands.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { CapturePipeline, type CommandRun, type SessionEffect } from '../../core/capture/capturePipeline';
import type { EndedEpisode } from '../../core/capture/episodeMemories';
import { triggerText } from '../../core/episodeSummary';
import type { TrackedEpisode } from '../../core/episodeTracker';
import { maskDeep, maskSecrets } from '../../core/mask';
import { writeFileAtomicSync } from '../../store/atomicFile';
import { signatureOf } from '../../core/signature';
import { scopeMatches } from '../../core/scope';
import type { Outcome } from '../../core/types';
import type { CaptureApi, OpenEpisodeView } from './captureApi';
import { onConfigChange, readConfig, type EngramConfig } from '../config';
import { formatError } from '../errors';
import { endEpisode } from '../memoryActions';
import type { Services } from '../services';
import { watchDiagnostics, type DiagnosticsWatch } from './diagnostics';
import { DocumentTexts } from './documentTexts';
import { ProactiveRecall, watchEditors } from './editors';
import { EXPLAIN_WINDOW_MS } from '../../core/capture/agentExplanation';
import { followAgentExplanations } from './agentExplanations';
import { Finalizer, type AgentExplanation, type AutomaticFeedback, type FinalizeJob } from './finalize';
import { explainWithModel, summarizeWithModel } from './lmSummary';
import { watchTerminals } from './terminal';
import { severityName, TraceRecorder } from './traceRecorder';

const MAX_URIS = 5000;
const OPEN_EPISODES_FILE = 'open-episodes.json';

/** A saved open episode, checked before it goes back into the tracker (the file could be damaged). */
function isTrackedEpisode(v: unknown): v is TrackedEpisode {
  const e = v as TrackedEpisode;
  return !!e && typeof e === 'object' && typeof e.id === 'string' && typeof e.key === 'string'
    && (e.source === 'diagnostics' || e.source === 'terminal') && typeof e.startedAt === 'number'
    && Array.isArray(e.steps) && Array.isArray(e.files) && Array.isArray(e.sourceIds) && typeof e.recurrences === 'number';
}
/** Step-count changes (every keystroke) refresh the views at most this often. */
const QUIET_REFRESH_MS = 1000;

/** Starts capture; activate() hands the result to the features that show or end episodes. */
export function registerCapture(services: Services): CaptureApi {
  const controller = services.register(new CaptureController(services), 'capture');
  // Agents outside the window (engram mcp) explain errors through the shared log.
  services.register(followAgentExplanations(services, controller), 'agent explanations');
  return controller;
}

/** `capture.exclude` is resource-scoped: read it for the (first) workspace folder. */
function readCapture(): EngramConfig['capture'] {
  return readConfig(vscode.workspace.workspaceFolders?.[0]).capture;
}

/** Workspace paths in terminal output become relative: shorter, and no home or machine layout stored. */
function relativePaths<T extends CommandRun>(run: T): T {
  const roots = (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.fsPath.replace(/[\\/]+$/, '')).filter(r => r.length > 1);
  if (!roots.length) return run;
  const strip = (s: string) => roots.reduce((acc, r) => acc.split(r + '/').join('').split(r).join('.'), s);
  const cwd = run.cwd === undefined ? undefined : strip(run.cwd) || '.';
  return { ...run, cwd, output: run.output === undefined ? undefined : strip(run.output) };
}

/** The subset of the built-in Git extension's API used here, checked at run time. */
interface GitRepositoryLike { state: { HEAD?: { name?: string }; onDidChange(fn: () => void): vscode.Disposable } }

/** A branch switch is a topic change: what was open belongs to the old branch. */
function watchBranch(onSwitch: (branch: string) => void, logger: { debug(msg: string): void }): vscode.Disposable {
  const subs: vscode.Disposable[] = [];
  const git = vscode.extensions.getExtension<{ getAPI(v: 1): { repositories: unknown[]; onDidOpenRepository(fn: (r: unknown) => void): vscode.Disposable } }>('vscode.git');
  const watch = (repo: unknown) => {
    const r = repo as GitRepositoryLike;
    if (!r?.state || typeof r.state.onDidChange !== 'function') return;
    let head = r.state.HEAD?.name;
    subs.push(r.state.onDidChange(() => {
      const now = r.state.HEAD?.name;
      if (now && head && now !== head) onSwitch(now);
      head = now ?? head;
    }));
  };
  // Never activate Git ourselves: it starts on its own at startup; if it is late, look once more later.
  const attach = () => {
    if (!git?.isActive) return false;
    try {
      const api = git.exports?.getAPI?.(1);
      if (!api) return true;
      api.repositories.forEach(watch);
      subs.push(api.onDidOpenRepository(watch));
    } catch (e) {
      logger.debug(`git extension unavailable: ${String(e)}`);
    }
    return true;
  };
  let retry: ReturnType<typeof setTimeout> | undefined;
  if (git && !attach()) retry = setTimeout(attach, 15_000);
  return { dispose: () => { if (retry) clearTimeout(retry); subs.forEach(s => s.dispose()); } };
}

/** A file written outside the editors, for the trace (only while recording; local files only). */
function recordDisk(recorder: TraceRecorder, file: string, uri: vscode.Uri, kind: 'created' | 'changed' | 'deleted'): void {
  if (kind === 'deleted') { recorder.record({ type: 'disk', file, text: null }); return; }
  if (uri.scheme !== 'file') return;
  let text: string;
  try { text = fs.readFileSync(uri.fsPath, 'utf8'); } catch { return; }
  recorder.record(kind === 'created' ? { type: 'disk', file, text, before: null } : { type: 'disk', file, text });
}

/** The episode's one-line title with secrets masked: it reaches logs, views and feedback reasons. */
function maskedTitle(ep: TrackedEpisode): string {
  return maskSecrets(triggerText(ep));
}

/** What the window keeps about an open episode beside the session's view of it. */
interface EpisodeContext {
  /** Memories that already got an automatic outcome in this episode. */
  judged: Set<string>;
  /** An agent's explanation given while the episode was open. */
  explanation?: AgentExplanation;
}

/** Is `errorText` (what an agent says it fixed) the episode's error: the same signature, or its message? */
function sameError(ep: TrackedEpisode, errorText: string): boolean {
  if (!ep.error) return false;
  if (signatureOf(errorText)?.key === ep.error.key) return true;
  const first = ep.error.message.split('\n')[0].trim();
  return first.length >= 8 && errorText.includes(first);
}


export class CaptureController implements CaptureApi, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  private cfg: EngramConfig['capture'];
  private userPaused = false;
  private storageProblem: string | undefined;
  private limitation: string | undefined;
  private readonly session: CapturePipeline;
  private readonly docs = new DocumentTexts();
  private readonly finalizer: Finalizer;
  private readonly proactive: ProactiveRecall;
  private readonly contexts = new Map<string, EpisodeContext>();
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly excluded = new Map<string, boolean>();
  private readonly diagnosticsWatch: DiagnosticsWatch;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt: number | undefined;
  /** uri → workspace-relative path, or '' when not captured (edits ask on every keystroke). */
  private readonly relCache = new Map<string, string>();
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private recorder: TraceRecorder | undefined;
  /** Recently ended episodes that had a lesson, newest last, for agents' explanations. */
  private readonly recent: { episodeId: string; lessonId: string; endedAt: number; errorKey?: string; message?: string }[] = [];

  constructor(private readonly services: Services) {
    this.cfg = readCapture();
    this.session = new CapturePipeline(this.sessionOptions(), {
      text: file => this.docs.text(file),
      languageId: file => this.docs.languageId(file),
      activeFile: () => { const doc = vscode.window.activeTextEditor?.document; return doc ? this.relativeIfCaptured(doc.uri) : undefined; },
    });
    const rel = (uri: vscode.Uri) => this.relativeIfCaptured(uri);
    // Documents open before capture started are open for the session too (their baselines, their domain).
    for (const doc of vscode.workspace.textDocuments) {
      const file = !doc.isClosed ? rel(doc.uri) : undefined;
      if (file) { this.docs.opened(file, doc); this.session.opened(file, Date.now()); }
    }
    this.restoreOpenEpisodes();
    const logger = services.logger;
    this.finalizer = new Finalizer({
      store: () => services.store(),
      owner: () => ({ scope: 'workspace', workspace: services.workspaceId, agent: 'user' }),
      mode: () => services.config().updateMode,
      useLanguageModel: () => services.config().summarize.useLanguageModel,
      summarize: text => summarizeWithModel(text, logger),
      explain: prompt => explainWithModel(prompt, logger),
      readFile: uri => Promise.resolve(vscode.workspace.fs.readFile(uri)),
      onStorageError: e => this.onStorageError(e),
      outcomes: services.outcomes,
      logger,
    });
    this.proactive = new ProactiveRecall({
      enabled: () => !this.paused && this.cfg.editors && services.config().recall.proactive,
      relativeIfCaptured: rel,
      // Automatic recall on a new error is proactive: it speaks only on strong evidence (core/recallGate.ts).
      recall: (text, file) => services.recall({ text, file, proactive: true }),
      changed: () => services.fireChanged(),
      logger,
    });
    this.disposables.push(this.finalizer, this.proactive);

    const self = this;
    this.diagnosticsWatch = watchDiagnostics({
        get active() { return !self.paused && self.cfg.diagnostics; },
        relativeIfCaptured: rel,
        diagnostics: (file, raw, ctx) => {
          const { errors, effects } = this.session.diagnostics(file, raw, Date.now(), ctx);
          // Recorded when the set changed, as the session read it: a replay reads the same sets.
          if (errors) this.recorder?.record({ type: 'diagnostics', file, items: raw.map(d => ({ severity: severityName(d.severity), source: d.source, code: typeof d.code === 'object' && d.code !== null ? d.code.value : d.code, message: d.message, line: d.line })) });
          this.apply(effects);
          return errors;
        },
    });
    this.disposables.push(
      this.diagnosticsWatch,
      watchTerminals({
        get active() { return !self.paused && self.cfg.terminal; },
        maxOutputBytes: () => this.cfg.maxTerminalOutputBytes,
        commandEnded: run => {
          const relRun = relativePaths(run);
          this.recorder?.record({ type: 'command', command: relRun.command, cwd: relRun.cwd, exitCode: relRun.exitCode, output: relRun.output });
          this.apply(this.session.command(relRun, Date.now()));
        },
        setTerminalLimitation: msg => { if (msg !== this.limitation) { this.limitation = msg; this.emitter.fire(); } },
        logger,
      }),
      watchEditors({
        get active() { return !self.paused && self.cfg.editors; },
        relativeIfCaptured: rel,
        opened: (file, doc) => {
          this.docs.opened(file, doc);
          this.recorder?.record({ type: 'open', file, text: doc.getText() });
          this.apply(this.session.opened(file, Date.now()));
        },
        // A change carries no text: the session reads the document only when it needs a baseline.
        changed: (file, doc, n) => {
          this.recorder?.record({ type: 'change', file, text: doc.getText() });
          this.apply(this.session.changed(file, Date.now(), undefined, n), true);
        },
        saved: file => { this.recorder?.record({ type: 'save', file }); this.apply(this.session.saved(file, Date.now())); },
        closed: file => {
          this.docs.closed(file);
          this.recorder?.record({ type: 'close', file });
          this.apply(this.session.closed(file, Date.now()));
        },
        disk: (file, uri, kind) => {
          if (this.recorder) recordDisk(this.recorder, file, uri, kind);
          this.apply(this.session.disk(file, Date.now(), kind === 'deleted' ? null : undefined, kind === 'created' ? null : undefined));
        },
        logger,
      }),
      onConfigChange('capture', () => this.reconfigure()),
      onConfigChange('updateMode', () => { if (services.config().updateMode === 'hotPath') void this.finalizer.flush(); }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.foldersChanged()),
      watchBranch(branch => { this.recorder?.record({ type: 'branch', name: branch }); this.apply(this.session.topicChange(`switched to branch ${branch}`, Date.now())); }, logger),
      vscode.commands.registerCommand('engram.recordTrace', (file?: unknown) => this.toggleRecording(typeof file === 'string' ? file : undefined)),
      vscode.commands.registerCommand('engram.pauseCapture', () => this.setPaused(true)),
      vscode.commands.registerCommand('engram.resumeCapture', () => this.setPaused(false)),
      vscode.commands.registerCommand('engram.toggleCapture', () => this.setPaused(!this.paused)),
      vscode.commands.registerCommand('engram.endEpisode', (id?: unknown) => this.endEpisodeCommand(typeof id === 'string' ? id : undefined)),
    );
    void vscode.commands.executeCommand('setContext', 'engram.capturePaused', this.paused);
    services.beforeShutdown('capture', () => this.shutdown());
  }

  /** Where open episodes wait for the next start when the window closes (masked, 0600). */
  private get openEpisodesFile(): string {
    return path.join(this.services.storeDir, OPEN_EPISODES_FILE);
  }

  private sessionOptions(): { noiseThresholdMs: number; idleGapMs: number } {
    return { noiseThresholdMs: this.cfg.noiseThresholdMs, idleGapMs: this.cfg.idleGapMinutes * 60_000 };
  }

  /** Open episodes saved by the last window, back in the session (the file is removed once read). */
  private restoreOpenEpisodes(): void {
    let episodes: TrackedEpisode[] = [];
    try {
      const raw = fs.readFileSync(this.openEpisodesFile, 'utf8');
      const parsed = JSON.parse(raw) as { version?: number; episodes?: unknown };
      if (parsed.version === 1 && Array.isArray(parsed.episodes)) episodes = parsed.episodes.filter(isTrackedEpisode);
      fs.rmSync(this.openEpisodesFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.services.logger.warn(`open episodes from the last window not restored: ${formatError(e)}`);
      return;
    }
    this.session.restore(episodes, Date.now());
    for (const ep of episodes) this.contexts.set(ep.id, { judged: new Set() });
    if (episodes.length) this.services.logger.info(`restored ${episodes.length} open episode(s) from the last window`);
  }

  private foldersChanged(): void {
    this.relCache.clear();
    this.apply(this.session.topicChange('workspace folders changed', Date.now()));
    // Paths are relative to the folders: the open documents are known again under their new paths.
    this.docs.clear();
    for (const doc of vscode.workspace.textDocuments) {
      const file = !doc.isClosed ? this.relativeIfCaptured(doc.uri) : undefined;
      if (file) { this.docs.opened(file, doc); this.session.opened(file, Date.now()); }
    }
  }

  /**
   * The window is closing: open episodes are saved (masked) for the next start, then every queued write
   * lands. Called by Services.shutdown before the stores close.
   */
  async shutdown(): Promise<void> {
    const open = this.session.openEpisodes();
    if (open.length) {
      try {
        fs.mkdirSync(this.services.storeDir, { recursive: true, mode: 0o700 });
        writeFileAtomicSync(this.openEpisodesFile, JSON.stringify({ version: 1, savedAt: Date.now(), episodes: maskDeep(open) }));
        fs.chmodSync(this.openEpisodesFile, 0o600);
        this.services.logger.info(`saved ${open.length} open episode(s) for the next start`);
      } catch (e) {
        this.services.logger.error(`open episodes not saved: ${formatError(e)}`);
      }
    }
    this.recorder?.dispose();
    this.recorder = undefined;
    await this.finalizer.flush();
  }

  // ---- CaptureApi ----

  get paused(): boolean {
    return this.userPaused || this.storageProblem !== undefined || !this.cfg.enabled;
  }

  get terminalLimitation(): string | undefined {
    return this.limitation;
  }

  /** Why capture is paused, when it is not the user's choice (disk full, setting off). */
  get pauseReason(): string | undefined {
    if (this.storageProblem) return this.storageProblem;
    if (!this.cfg.enabled) return vscode.l10n.t('engram.capture.enabled is off');
    return this.userPaused ? vscode.l10n.t('paused by you') : undefined;
  }

  setPaused(paused: boolean, reason?: string): void {
    this.userPaused = paused;
    if (!paused && this.storageProblem) {
      this.storageProblem = undefined;
      this.finalizer.unblock();
    }
    this.services.logger.info(`capture ${paused ? 'paused' : 'resumed'}${reason ? `: ${reason}` : ''}`);
    void vscode.commands.executeCommand('setContext', 'engram.capturePaused', this.paused);
    this.emitter.fire();
  }

  openEpisodes(): OpenEpisodeView[] {
    return this.session.openEpisodes().map(ep => ({
      id: ep.id, title: maskedTitle(ep), file: ep.file, signature: ep.error?.key, startedAt: ep.startedAt,
      steps: ep.steps.length, source: ep.source,
    }));
  }

  async endEpisode(id: string, outcome: Outcome, note?: string): Promise<void> {
    this.apply(this.session.end(id, outcome, Date.now(), note?.trim() || undefined));
    await this.finalizer.flush();
  }

  pendingFiles(): string[] {
    return this.session.pendingFiles();
  }

  flush(): Promise<void> {
    // Diagnostics VS Code already reported (they wait up to DIAGNOSTICS_COALESCE_MS to be read), then
    // due deadlines (a fix waiting to settle), then the writes.
    this.diagnosticsWatch.drainNow();
    this.apply(this.session.tick(Date.now()));
    return this.finalizer.flush();
  }

  // ---- effects ----

  private apply(effects: SessionEffect[], quiet = false): void {
    let changed = false;
    for (const fx of effects) {
      try {
        switch (fx.type) {
          case 'opened': this.onOpened(fx.episode); changed = true; break;
          case 'ended': this.onEnded(fx.ended); changed = true; break;
          case 'recurred': this.onRecurred(fx.episode); changed = true; break;
          case 'noise': this.services.logger.trace(`noise: ${fx.key} in ${fx.file} lived ${fx.livedMs} ms`); break;
        }
      } catch (e) {
        this.services.logger.error(e instanceof Error ? e : String(e));
      }
    }
    this.schedule();
    if (changed) this.emitter.fire();
    else if (quiet && this.session.openEpisodes().length && !this.quietTimer) {
      this.quietTimer = setTimeout(() => { this.quietTimer = undefined; this.emitter.fire(); }, QUIET_REFRESH_MS);
    }
  }

  private schedule(): void {
    const next = this.session.nextDeadline();
    if (next === this.timerAt && (this.timer || next === undefined)) return; // already set for it (keystrokes land here)
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    this.timerAt = next;
    if (next === undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      this.apply(this.session.tick(Date.now()));
    }, Math.max(0, next - Date.now()) + 5);
  }

  private onOpened(ep: TrackedEpisode): void {
    this.contexts.set(ep.id, { judged: new Set() });
    const uri = ep.source === 'diagnostics' && ep.file ? this.uris.get(ep.file) : undefined;
    const active = vscode.window.activeTextEditor?.document;
    if (uri && active && active.uri.toString() === uri.toString()) this.proactive.schedule(uri);
    this.services.logger.info(`episode opened (${ep.source}): ${maskedTitle(ep)}`);
  }

  private onEnded(ended: EndedEpisode): void {
    const ep = ended.tracked;
    const ctx = this.contexts.get(ep.id) ?? { judged: new Set<string>() };
    this.contexts.delete(ep.id);
    const uris = new Map<string, vscode.Uri>();
    for (const f of ep.files) { const u = this.uris.get(f); if (u) uris.set(f, u); }
    const feedback: AutomaticFeedback[] = [];
    if (ep.outcome === 'success') {
      // Shown while this error was being fixed, not judged by the user since it began; the finaliser
      // writes it only for a memory about this very error (its signature).
      for (const id of this.services.outcomes.candidates(ep.startedAt, ep.file)) {
        if (ctx.judged.has(id)) continue;
        feedback.push({ id, outcome: 'prevented', reason: `shown while ${maskedTitle(ep)} was being fixed; it was fixed`, file: ep.file, signature: ep.error?.key, since: ep.startedAt });
      }
    }
    this.services.logger.info(`episode ended (${ep.outcome}, ${maskSecrets(ep.resolution ?? '')}): ${maskedTitle(ep)}${feedback.length ? `; prevented for those of ${feedback.map(f => f.id).join(', ')} about its error` : ''}`);
    const job: FinalizeJob = {
      tracked: ep, before: ended.before, after: ended.after, uris, codeBefore: ended.codeBefore, domain: ended.domain, feedback, written: { feedback: 0 },
      ...(ctx.explanation ? { explanation: ctx.explanation } : {}),
    };
    this.finalizer.enqueue(job);
    if (job.episodeId && job.lessonId && ep.outcome !== 'abandoned') {
      this.recent.push({ episodeId: job.episodeId, lessonId: job.lessonId, endedAt: Date.now(), errorKey: ep.error?.key, message: ep.error?.message.split('\n')[0].trim() || undefined });
      if (this.recent.length > 5) this.recent.shift();
    }
  }

  /** An open episode, or one that ended with a lesson within the explanation window: an agent may explain it. */
  explainable(now = Date.now()): boolean {
    return this.session.openEpisodes().length > 0 || this.recent.some(r => now - r.endedAt <= EXPLAIN_WINDOW_MS);
  }

  async explainEpisode(input: AgentExplanation & { errorText: string }): Promise<{ episodeId: string; lessonId?: string } | undefined> {
    const { errorText, ...explanation } = input;
    // The episode the agent is working on: an open one with this error (most recently active first)…
    const open = this.session.openEpisodes().filter(ep => sameError(ep, errorText)).sort((x, y) => y.lastActivity - x.lastActivity)[0];
    const ctx = open && this.contexts.get(open.id);
    if (open && ctx) {
      ctx.explanation = explanation;
      this.services.logger.info(`episode ${open.id}: an agent's explanation will write its lesson`);
      return { episodeId: open.id };
    }
    // …or one with this error that just ended.
    const key = signatureOf(errorText)?.key;
    const last = [...this.recent].reverse().find(r => (r.errorKey !== undefined && r.errorKey === key) || (r.message !== undefined && errorText.includes(r.message)));
    if (!last || Date.now() - last.endedAt > EXPLAIN_WINDOW_MS) return undefined;
    if (!this.finalizer.explainQueued(last.episodeId, explanation)) {
      const store = await this.services.store();
      if (store.get(last.lessonId)?.kind !== 'lesson') return undefined; // merged into another or not written
      await store.update(last.lessonId, { ...explanation, author: 'agent' }, 'explained by the agent that fixed it');
    }
    this.services.logger.info(`episode ${last.episodeId}: lesson ${last.lessonId} written from an agent's explanation`);
    return { episodeId: last.episodeId, lessonId: last.lessonId };
  }

  private onRecurred(ep: TrackedEpisode): void {
    const ctx = this.contexts.get(ep.id);
    if (!ctx) return;
    const feedback: AutomaticFeedback[] = [];
    for (const id of this.services.outcomes.candidates(ep.startedAt, ep.file)) {
      if (ctx.judged.has(id)) continue;
      ctx.judged.add(id);
      feedback.push({ id, outcome: 'still_failed', reason: `shown for ${maskedTitle(ep)}, but the same error came back`, signature: ep.error?.key, since: ep.startedAt });
    }
    if (feedback.length) {
      this.services.logger.info(`episode ${ep.id} recurred: still_failed for those of ${feedback.map(f => f.id).join(', ')} about its error`);
      this.finalizer.enqueue({ feedback, written: { feedback: 0 } });
    }
  }

  private onStorageError(e: unknown): void {
    const msg = formatError(e);
    this.storageProblem = msg;
    this.services.logger.error(`capture paused: ${msg} (${this.finalizer.pending} episode write(s) kept in memory)`);
    void vscode.commands.executeCommand('setContext', 'engram.capturePaused', true);
    this.emitter.fire();
    const resume = vscode.l10n.t('Resume Capture');
    void vscode.window.showWarningMessage(msg, resume).then(choice => { if (choice === resume) this.setPaused(false); });
  }

  // ---- helpers ----

  /** Workspace-relative path of a file capture may look at (inside the workspace, not excluded). */
  relativeIfCaptured(uri: vscode.Uri): string | undefined {
    const key = uri.toString();
    const cached = this.relCache.get(key);
    if (cached !== undefined) return cached || undefined;
    const rel = this.computeRelative(uri);
    if (this.relCache.size > MAX_URIS) this.relCache.clear();
    this.relCache.set(key, rel ?? '');
    return rel;
  }

  private computeRelative(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file' && uri.scheme !== 'vscode-remote') return undefined;
    const rel = this.services.workspaceRelative(uri);
    if (!rel || rel.startsWith('..') || rel === '.git' || rel.startsWith('.git/') || rel.includes('/.git/')) return undefined;
    let ex = this.excluded.get(rel);
    if (ex === undefined) {
      ex = this.cfg.exclude.length > 0 && scopeMatches(this.cfg.exclude, rel);
      if (this.excluded.size > MAX_URIS) this.excluded.clear();
      this.excluded.set(rel, ex);
    }
    if (ex) return undefined;
    if (!this.uris.has(rel)) {
      if (this.uris.size > MAX_URIS) this.uris.clear();
      this.uris.set(rel, uri);
    }
    return rel;
  }

  private reconfigure(): void {
    const wasPaused = this.paused;
    this.cfg = readCapture();
    this.excluded.clear();
    this.relCache.clear();
    this.session.setOptions(this.sessionOptions());
    if (wasPaused !== this.paused) void vscode.commands.executeCommand('setContext', 'engram.capturePaused', this.paused);
    this.schedule();
    this.emitter.fire();
  }

  private async endEpisodeCommand(id?: string): Promise<void> {
    // The same pick as the sidebar's End button (memoryActions.endEpisode).
    await endEpisode(this, id);
  }

  /**
   * Starts recording a capture trace (to `file`, or where the user picks), or stops the running one.
   * Returns the trace's path when recording stopped.
   */
  async toggleRecording(file?: string): Promise<string | undefined> {
    if (this.recorder) {
      const r = this.recorder;
      this.recorder = undefined;
      r.record({ type: 'end' });
      r.dispose();
      this.services.logger.info(`trace recording stopped: ${r.events} event(s) in ${r.file}`);
      if (!file) void vscode.window.showInformationMessage(vscode.l10n.t('Engram saved the capture trace ({0} events) to {1}. Replay it with: engram replay FILE', r.events, r.file));
      return r.file;
    }
    let target = file;
    if (!target) {
      const uri = await vscode.window.showSaveDialog({ title: vscode.l10n.t('Record a capture trace to'), filters: { [vscode.l10n.t('Capture trace')]: ['jsonl'] } });
      if (!uri) return undefined;
      target = uri.fsPath;
    }
    try {
      this.recorder = new TraceRecorder(target);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not record to {0}: {1}', target, formatError(e)));
      return undefined;
    }
    // Files already open are part of the starting state: without them a replay would think them closed.
    for (const doc of vscode.workspace.textDocuments) {
      const rel = !doc.isClosed ? this.relativeIfCaptured(doc.uri) : undefined;
      if (rel) this.recorder.record({ type: 'open', file: rel, text: doc.getText() });
    }
    this.services.logger.info(`trace recording started: ${target} (masked; stop with the same command)`);
    if (!file) void vscode.window.showInformationMessage(vscode.l10n.t('Engram is recording a capture trace (masked). Run the command again to stop.'));
    return undefined;
  }

  dispose(): void {
    this.recorder?.dispose();
    if (this.timer) clearTimeout(this.timer);
    if (this.quietTimer) clearTimeout(this.quietTimer);
    for (const d of this.disposables) d.dispose();
  }
}
