// One capture session, for live capture and replay alike: the only owner of the tracker, the diagnostics
// book, the command errors, the baselines and of what happens between the tracker and an episode (its
// domain and code excerpt when it opens, its texts when it ends, which files may be steps, how a
// command's output is cleaned and cut, the noise and settle defaults). `engram replay`, `engram ingest`
// and the Claude Code hook feed it a trace's events (handle); the window's CaptureController turns VS
// Code's events into the same calls and only carries out the effects (timers, finaliser, UI). What is
// tested headlessly is therefore what runs in the editor.
import { EpisodeTracker, type DiagnosticsContext, type TrackedEpisode, type TrackerEffect, type TrackerOptions } from '../episodeTracker';
import { newId } from '../ids';
import type { Outcome } from '../types';
import { Baselines, type TextSource } from './baselines';
import { CommandErrors } from './commandErrors';
import { commandOutput, outputExcerpt } from './commandOutput';
import { DiagnosticsBook, type RawDiagnostic } from './diagnosticErrors';
import { excerptAround } from './diff';
import type { EndedEpisode } from './episodeMemories';
import { languageOf } from './episodeMemories';
import { isGenerated } from './fixEvidence';
import { rewritesWorktree } from './commandKinds';
import type { TraceDiagnostic, TraceEvent } from './trace';

const SEVERITY: Record<TraceDiagnostic['severity'], number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** The default noise threshold: how long a file must be quiet before its error counts. */
export const NOISE_THRESHOLD_MS = 4000;

/** How long a vanished error must stay gone: long enough to ride out a keystroke, short enough to feel immediate. */
export function settleFor(noiseThresholdMs: number): number {
  return Math.min(2000, Math.max(300, Math.round(noiseThresholdMs / 2)));
}

/** The window's side of a session: open documents' texts, their languages, the file the user looks at. */
export interface SessionHost extends TextSource {
  languageId?(file: string): string | undefined;
  activeFile?(): string | undefined;
}

/** What the session knows about an open episode besides the tracker's view of it. */
export interface EpisodeContext { codeBefore?: string; domain: string; activeFile?: string }

export type SessionEffect =
  | { type: 'opened'; episode: TrackedEpisode; context: EpisodeContext }
  | { type: 'ended'; ended: EndedEpisode }
  | { type: 'recurred'; episode: TrackedEpisode }
  | { type: 'noise'; file: string; key: string; livedMs: number };

/** A finished command as an adapter delivers it: the whole (bounded) output, not yet cleaned. */
export interface CommandRun { command: string; cwd?: string; exitCode?: number; output?: string; id?: string }

export interface SessionOptions { noiseThresholdMs?: number; idleGapMs?: number; settleMs?: number }

export class CapturePipeline {
  private readonly tracker: EpisodeTracker;
  private readonly book = new DiagnosticsBook();
  private readonly commandErrors = new CommandErrors();
  private readonly baselines: Baselines;
  private readonly open = new Set<string>();
  private readonly contexts = new Map<string, EpisodeContext>();
  private active: string | undefined;
  /** Files written outside the editor since the last command ended, and when: a git command's own writes. */
  private diskSince: { file: string; at: number }[] = [];
  /** Editor edits since the last command ended: a file the user edited meanwhile keeps its steps. */
  private editorEdits: { file: string; at: number }[] = [];
  /** When a command last ended: the writes after it were made while the next one ran, or by an agent. */
  private lastCommandAt = -Infinity;
  /** The trace clock (replay): never goes back. */
  private now = 0;
  /** Episodes that ended while a trace was handled (replay); live capture takes the effects instead. */
  readonly ended: EndedEpisode[] = [];

  constructor(opts: SessionOptions & Partial<TrackerOptions> = {}, private readonly host?: SessionHost) {
    const noise = opts.noiseThresholdMs ?? NOISE_THRESHOLD_MS;
    this.tracker = new EpisodeTracker({ newId: () => newId('ep'), ...opts, noiseThresholdMs: noise, settleMs: opts.settleMs ?? settleFor(noise) });
    this.baselines = new Baselines(host);
  }

  setOptions(opts: SessionOptions): void {
    const noise = opts.noiseThresholdMs ?? NOISE_THRESHOLD_MS;
    this.tracker.setOptions({ ...opts, noiseThresholdMs: noise, settleMs: opts.settleMs ?? settleFor(noise) });
  }

  // ---- replay: a trace's events, on its own clock ----

  handle(ev: TraceEvent): void {
    this.now = Math.max(this.now, ev.t);
    const now = this.now;
    const fx = this.tick(now);
    switch (ev.type) {
      case 'open': fx.push(...this.opened(ev.file, now, ev.text)); break;
      case 'change': fx.push(...this.changed(ev.file, now, ev.text)); break;
      case 'save': fx.push(...this.saved(ev.file, now)); break;
      case 'close': fx.push(...this.closed(ev.file, now)); break;
      case 'disk': fx.push(...this.disk(ev.file, now, ev.text, ev.before)); break;
      case 'diagnostics': {
        const raw: RawDiagnostic[] = ev.items.map(d => ({ severity: SEVERITY[d.severity] ?? 0, message: d.message, source: d.source, code: d.code, line: d.line }));
        fx.push(...this.diagnostics(ev.file, raw, now).effects);
        break;
      }
      case 'command': fx.push(...this.command({ command: ev.command, cwd: ev.cwd, exitCode: ev.exitCode, output: ev.output }, now)); break;
      case 'branch': fx.push(...this.topicChange(`switched to branch ${ev.name}`, now)); break;
      case 'end': fx.push(...this.drain()); break;
    }
    for (const e of fx) if (e.type === 'ended') this.ended.push(e.ended);
  }

  /** Let pending errors open and fixes settle, as the live timers would after the last event. */
  finish(): void {
    for (const e of this.drain()) if (e.type === 'ended') this.ended.push(e.ended);
  }

  private drain(): SessionEffect[] {
    this.now += 60_000;
    return this.tick(this.now);
  }

  // ---- the events, for live capture and replay alike ----

  /** A file opened in an editor (`text` when the event carries it; else the host has it). */
  opened(file: string, now: number, text?: string): SessionEffect[] {
    if (text !== undefined) this.baselines.set(file, text);
    this.open.add(file);
    this.active = file;
    this.baselines.note(file);
    return this.tick(now);
  }

  /** An editor edit (`text`: the full text after it, when the event carries it). */
  changed(file: string, now: number, text?: string, changes = 1): SessionEffect[] {
    this.baselines.note(file);
    this.baselines.set(file, text);
    this.active = file;
    // Build output and lockfiles change because a command ran; they are never steps or touched files.
    if (isGenerated(file)) return this.tick(now);
    if (this.editorEdits.length < 200) this.editorEdits.push({ file, at: now });
    return this.apply(this.tracker.edited(file, now, changes));
  }

  saved(file: string, now: number): SessionEffect[] {
    return this.apply(this.tracker.saved(file, now));
  }

  closed(file: string, now: number): SessionEffect[] {
    this.open.delete(file);
    this.book.forget(file);
    // Replay keeps what the trace said the file holds; live reads it from disk when it needs it.
    if (this.host) this.baselines.set(file, undefined);
    return this.apply(this.tracker.closed(file, now));
  }

  /**
   * A file written (text) or deleted (null) outside the editor. `before: null` = it was created; no
   * `before` for an unknown file = its past is unknown, so nothing is claimed about it.
   */
  disk(file: string, now: number, text: string | null | undefined, before?: string | null): SessionEffect[] {
    if (!this.baselines.has(file) && before !== undefined) this.baselines.set(file, before);
    this.baselines.note(file);
    this.baselines.set(file, text);
    if (isGenerated(file)) return this.tick(now);
    if (text !== null && this.diskSince.length < 200) this.diskSince.push({ file, at: now });
    return this.apply(text === null ? this.tracker.deleted(file, now) : this.tracker.edited(file, now, 1));
  }

  /**
   * A file's current diagnostics (all severities). Returns its errors when the set changed (undefined:
   * nothing changed, nothing done). `ctx` is asked only then; without it the file counts as open when an
   * open event said so and the server as alive.
   */
  diagnostics(file: string, raw: readonly RawDiagnostic[], now: number, ctx?: () => DiagnosticsContext): { errors?: ReturnType<DiagnosticsBook['update']>; effects: SessionEffect[] } {
    const errors = this.book.update(file, raw);
    if (!errors) return { effects: this.tick(now) };
    const context = ctx ? ctx() : { fileOpen: this.open.has(file), serverAlive: true };
    return { errors, effects: this.apply(this.tracker.diagnostics(file, errors, now, context)) };
  }

  /** A shell-integrated command that ended. */
  command(run: CommandRun, now: number): SessionEffect[] {
    // What the watcher saw written while a command that rewrites the working tree ran (`git stash`
    // reverting a file) is that command's doing, not an edit: it never becomes a step or the fix.
    if (rewritesWorktree(run.command)) {
      const edited = new Set(this.editorEdits.filter(e => e.at > this.lastCommandAt).map(e => e.file));
      for (const w of this.diskSince) if (!edited.has(w.file)) this.tracker.writtenByCommand(w.file, w.at);
    }
    this.diskSince = [];
    this.editorEdits = [];
    this.lastCommandAt = now;
    const output = commandOutput(run.output ?? '');
    const error = this.commandErrors.fromOutput(output, run.exitCode, run.command, run.cwd);
    const id = run.id ?? `trace:${now}:${run.command}`;
    return this.apply(this.tracker.commandEnded({ id, line: run.command, cwd: run.cwd, exitCode: run.exitCode, error, output: outputExcerpt(output) }, now));
  }

  /** Workspace folders changed, or a branch switch: what was open belongs to the old topic. */
  topicChange(reason: string, now: number): SessionEffect[] {
    return this.apply(this.tracker.topicChange(now, reason));
  }

  /** The user ends an episode. */
  end(id: string, outcome: Outcome, now: number, note?: string): SessionEffect[] {
    return this.apply(this.tracker.end(id, outcome, now, note));
  }

  /** Deadlines that are due (a pending error that settled, a fix that stayed fixed, an idle attempt). */
  tick(now: number): SessionEffect[] {
    return this.apply(this.tracker.tick(now));
  }

  /** Open episodes saved by the last window; their files' next diagnostics count even when empty. */
  restore(episodes: readonly TrackedEpisode[], now: number): void {
    this.tracker.restore(episodes, now);
    for (const ep of episodes) {
      if (!this.tracker.get(ep.id) || this.contexts.has(ep.id)) continue;
      this.baselines.begin(ep.id, []);
      this.contexts.set(ep.id, { domain: ep.source === 'terminal' ? `terminal:${ep.error?.tool ?? 'shell'}` : ep.error?.tool ?? 'unknown' });
      if (ep.source === 'diagnostics' && ep.file) this.book.markUnknown(ep.file);
    }
  }

  nextDeadline(): number | undefined { return this.tracker.nextDeadline(); }
  openEpisodes(): TrackedEpisode[] { return this.tracker.open(); }
  pendingFiles(): string[] { return this.tracker.pendingFiles(); }
  episode(id: string): TrackedEpisode | undefined { return this.tracker.get(id); }

  private apply(effects: TrackerEffect[]): SessionEffect[] {
    const out: SessionEffect[] = [];
    for (const fx of effects) {
      if (fx.type === 'opened') out.push({ type: 'opened', episode: fx.episode, context: this.onOpened(fx.episode) });
      else if (fx.type === 'ended') out.push({ type: 'ended', ended: this.onEnded(fx.episode) });
      else out.push(fx);
    }
    return out;
  }

  private onOpened(ep: TrackedEpisode): EpisodeContext {
    // The baseline of every file open when the episode begins.
    this.baselines.begin(ep.id, this.open);
    const ctx: EpisodeContext = { domain: 'unknown', activeFile: this.host?.activeFile ? this.host.activeFile() : this.active };
    if (ep.source === 'diagnostics' && ep.file) {
      const text = this.baselines.text(ep.file);
      ctx.domain = this.open.has(ep.file) ? this.host?.languageId?.(ep.file) ?? languageOf(ep.file) : ep.error?.tool ?? 'unknown';
      if (typeof text === 'string' && ep.error?.line !== undefined) ctx.codeBefore = excerptAround(text, ep.error.line);
    } else {
      ctx.domain = `terminal:${ep.error?.tool ?? 'shell'}`;
    }
    this.contexts.set(ep.id, ctx);
    return ctx;
  }

  private onEnded(ep: TrackedEpisode): EndedEpisode {
    const ctx = this.contexts.get(ep.id) ?? { domain: 'unknown' };
    this.contexts.delete(ep.id);
    const { before, after } = this.baselines.end(ep.id, ep.files);
    // The lesson's scope beyond the files of its fix: the file a terminal error names, but only when the
    // session knows a file by that path (a path relative to another folder than the workspace's, from a
    // command run in a subfolder, would scope the lesson to the wrong place); and, for a command episode
    // without edits, the file the user was looking at. Neither is diffed: what changed in them outside the
    // episode's steps (a file `git stash` rewrote) is no part of its fix.
    const named = ep.error?.file;
    const scopeFiles = [
      ...(named && !ep.files.includes(named) && !isGenerated(named) && this.baselines.has(named) ? [named] : []),
      ...(!ep.files.length && ctx.activeFile && !isGenerated(ctx.activeFile) ? [ctx.activeFile] : []),
    ];
    return { tracked: ep, before, after, codeBefore: ctx.codeBefore, domain: ctx.domain, ...(scopeFiles.length ? { scopeFiles: [...new Set(scopeFiles)] } : {}) };
  }
}
