// The capture state machine: turns diagnostics, saves, edits, closes and terminal executions into
// episodes. Pure and synchronous (no VS Code, no I/O, no clock of its own) so every rule is unit-tested
// and each call costs O(errors of the changed file + open episodes). Adapters feed it plain data and act
// on the effects it returns.
// One file although it is over 400 lines: the rules (pending → open → settling → ended, idle gaps,
// twins between the editor and a terminal) act on the same few maps and deadline, and each method is
// one event's whole rule; split by event, every part would need the whole state. Its vocabulary
// (core/trackedEpisode.ts) and what a command line is about (core/capture/commandLines.ts) live apart.
import type { EpisodeStep, Outcome } from './types';
import type { CommandInfo, DiagnosticsContext, ErrorInfo, TrackedEpisode, TrackerEffect, TrackerOptions } from './trackedEpisode';
import { commandConcerns, normaliseCommand } from './capture/commandLines';
import { concludesStopped, isReadOnlyCommand, relatedToAttempt, testRun, testsCover } from './capture/commandKinds';
import { fixedPart, stillFailing } from './capture/sameProblem';

// Both live in leaf modules so that fixEvidence and types.ts need not import the tracker; its callers
// still find them here.
export { normaliseCommand };
export { isAutomaticResolution } from './resolution';

export type { CommandInfo, DiagnosticsContext, ErrorInfo, TrackedEpisode, TrackerEffect, TrackerOptions } from './trackedEpisode';

interface Pending {
  error: ErrorInfo;
  firstSeen: number;
}

interface FileState {
  present: Map<string, ErrorInfo>;
  pending: Map<string, Pending>;
}

/**
 * When a file last changed, for "has the edit settled": the user's last edit, the last change of its
 * error set (a language server still catching up with the typing), and the last save (after that edit).
 */
interface FileActivity { editedAt?: number; changedAt?: number; savedAt?: number }

/** Files whose activity is remembered (the ones being worked on); the oldest is forgotten first. */
const MAX_ACTIVITY_FILES = 500;

/** Commands kept for an episode that opens after they ran (its error appeared before them). */
const RECENT_COMMANDS = 20;

/** Exit codes that mean "the user stopped it", not "it failed". */
const INTERRUPTED = new Set([130, 131, 143]);

export class EpisodeTracker {
  private readonly files = new Map<string, FileState>();
  private readonly episodes = new Map<string, TrackedEpisode>();
  private readonly byKey = new Map<string, string>();
  /** Diagnostics episodes per file, so a diagnostics event costs O(that file), not O(all episodes). */
  private readonly byFile = new Map<string, Set<TrackedEpisode>>();
  /** No deadline falls before this (it may be early after removals; `tick` then rescans and corrects it). */
  private hint = Infinity;
  private opts: TrackerOptions;
  private readonly recentCommands: { line: string; result: string; at: number }[] = [];
  private readonly activity = new Map<string, FileActivity>();

  constructor(opts: Partial<TrackerOptions> & { newId: () => string }) {
    this.opts = { noiseThresholdMs: 4000, idleGapMs: 30 * 60_000, settleMs: 1500, maxSteps: 60, maxFiles: 50, ...opts };
  }

  setOptions(patch: Partial<TrackerOptions>): void {
    this.opts = { ...this.opts, ...patch };
    this.hint = this.exactDeadline();
  }

  open(): TrackedEpisode[] {
    return [...this.episodes.values()];
  }

  /** Files with an error that has not yet lasted the noise threshold (not an episode yet). */
  pendingFiles(): string[] {
    return [...this.files].filter(([, s]) => s.pending.size > 0).map(([file]) => file);
  }

  /**
   * Open episodes saved when the window closed, back on the next start. A diagnostics episode's error
   * must be seen again or seen gone; nothing that happened in between is claimed (no baselines survive).
   */
  restore(episodes: readonly TrackedEpisode[], now: number): void {
    for (const ep of episodes) {
      if (this.episodes.has(ep.id) || this.byKey.has(ep.key)) continue;
      this.register({ ...ep, steps: [...ep.steps], files: [...ep.files], sourceIds: [...ep.sourceIds], resolvingSince: undefined, restored: true, lastActivity: now });
    }
  }

  get(id: string): TrackedEpisode | undefined {
    return this.episodes.get(id);
  }

  /** Current error-level diagnostics of one file (the whole set, not a delta). */
  diagnostics(file: string, errors: readonly ErrorInfo[], now: number, ctx: DiagnosticsContext): TrackerEffect[] {
    const effects: TrackerEffect[] = [];
    const state = this.fileState(file);
    const next = new Map<string, ErrorInfo>();
    for (const e of errors) if (!next.has(e.key)) next.set(e.key, e);
    const act = this.noteActivity(file, 'changedAt', now);

    for (const [key, error] of next) {
      const ep = this.episodeFor(diagKey(file, key));
      if (ep) {
        if (ep.resolvingSince !== undefined) {
          // Gone and back while the file was being typed in: the line was half-written, not a failed fix.
          const typing = act.editedAt !== undefined && act.editedAt >= ep.resolvingSince;
          ep.resolvingSince = undefined;
          if (!typing) {
            // Came back before the fix was confirmed: the attempt did not work.
            ep.recurrences++;
            this.addStep(ep, { action: 'error returned', result: error.message.split('\n')[0], wasEffective: false, at: now });
            effects.push({ type: 'recurred', episode: ep });
          }
        }
        continue;
      }
      if (!state.pending.has(key)) {
        const p = { error, firstSeen: now };
        state.pending.set(key, p);
        this.noteDeadline(this.pendingDeadline(file, p));
      }
    }

    for (const [key, p] of state.pending) {
      if (!next.has(key)) {
        state.pending.delete(key);
        // Gone quickly, but not while the file was typed in: a command (an install, a generator) cleared
        // it. That is a fix worth keeping, not typing noise.
        const typed = act.editedAt !== undefined && act.editedAt >= p.firstSeen;
        const byCommand = this.recentCommands.some(c => c.at >= p.firstSeen && /^passed\b/.test(c.result));
        if (!typed && byCommand && ctx.fileOpen && ctx.serverAlive) {
          const opened = this.openDiagnostic(file, p, now);
          effects.push(opened);
          if (opened.type === 'opened') { opened.episode.resolvingSince = now; this.noteDeadline(this.resolveDeadline(opened.episode)); }
        } else {
          effects.push({ type: 'noise', file, key, livedMs: now - p.firstSeen });
        }
      }
    }

    for (const ep of [...(this.byFile.get(file) ?? [])]) {
      if (!ep.error || next.has(ep.error.key)) continue;
      if (!ctx.fileOpen) {
        effects.push(this.finish(ep, ep.resolvingSince !== undefined ? 'success' : 'abandoned', now, ep.resolvingSince !== undefined ? 'error gone' : 'file closed'));
      } else if (ctx.serverAlive && ep.resolvingSince === undefined) {
        ep.resolvingSince = now;
        this.noteDeadline(this.resolveDeadline(ep));
      }
      // A stopped language server says nothing about the error: keep waiting.
    }

    state.present = next;
    if (!state.present.size && !state.pending.size) this.files.delete(file);
    effects.push(...this.tick(now));
    return effects;
  }

  /** A save: errors still there shortly after it (and after no further edit) are real, whatever the threshold. */
  saved(file: string, now: number): TrackerEffect[] {
    this.noteActivity(file, 'savedAt', now);
    const state = this.files.get(file);
    if (state) for (const p of state.pending.values()) this.noteDeadline(this.pendingDeadline(file, p));
    for (const ep of this.byFile.get(file) ?? []) {
      ep.lastActivity = now;
      if (ep.resolvingSince !== undefined) this.noteDeadline(this.resolveDeadline(ep)); // a save confirms sooner
    }
    return this.tick(now);
  }

  /** The user (or an agent) changed a file: a step for every open episode, and the idle-gap boundary. */
  edited(file: string, now: number, changes = 1): TrackerEffect[] {
    const effects = this.splitIdle(now);
    // Pending errors of this file wait for the typing to settle: their deadlines only move later, so the
    // hint (a lower bound) stays valid and a keystroke costs no rescan.
    this.noteActivity(file, 'editedAt', now);
    for (const ep of this.episodes.values()) {
      const last = ep.steps[ep.steps.length - 1];
      if (last && last.action === `edit ${file}`) {
        // One step per run of edits to one file; the diff is attached when the episode is finalised.
        const n = Number(/^(\d+)/.exec(last.result)?.[1] ?? '1') + changes;
        last.result = `${n} change${n === 1 ? '' : 's'}`;
        last.at = now;
      } else {
        this.addStep(ep, { action: `edit ${file}`, result: `${changes} change${changes === 1 ? '' : 's'}`, at: now });
      }
      this.touch(ep, file);
      ep.lastActivity = now;
    }
    effects.push(...this.tick(now));
    return effects;
  }

  /**
   * A command wrote `file` itself (git stash put back its last commit's text) at or after `since`: that write
   * was no edit. Its steps go, and the file is no longer the episode's unless an earlier step touched it.
   */
  writtenByCommand(file: string, since: number): void {
    for (const ep of this.episodes.values()) {
      const action = `edit ${file}`;
      const kept = ep.steps.filter(s => !(s.action === action && (s.at ?? 0) >= since));
      if (kept.length === ep.steps.length) continue;
      ep.steps = kept;
      if (!kept.some(s => s.action === action || s.action === `delete ${file}`)) ep.files = ep.files.filter(f => f !== file);
    }
  }

  /** The file was closed: its open episodes end (abandoned unless the fix was already seen). */
  closed(file: string, now: number): TrackerEffect[] {
    return this.dropFile(file, now, false);
  }

  /** A deleted file ends its own episodes and is a step (a touched file) for the others. */
  deleted(file: string, now: number): TrackerEffect[] {
    const effects = this.dropFile(file, now, true);
    for (const ep of this.episodes.values()) {
      this.addStep(ep, { action: `delete ${file}`, result: 'deleted', at: now });
      this.touch(ep, file);
      ep.lastActivity = now;
    }
    return effects;
  }

  /**
   * A terminal command finished. Non-zero opens (or continues) an episode, unless the command only looks
   * at things (echo, which, ls …); zero closes the same command's episode, or the one of a different
   * command line that runs the same tests. A command is a step only of the episodes it concerns.
   */
  commandEnded(cmd: CommandInfo, now: number): TrackerEffect[] {
    const effects = this.splitIdle(now);
    const normalised = normaliseCommand(cmd.line);
    if (!normalised) return effects;
    const key = termKey(normalised);
    const failed = cmd.exitCode !== undefined && cmd.exitCode !== 0 && !INTERRUPTED.has(cmd.exitCode);
    const own = this.episodeFor(key) ?? this.sameTests(cmd, failed) ?? (cmd.exitCode === 0 ? this.stoppedConcludedBy(cmd.line) : undefined);
    const firstLine = cmd.error?.message.split('\n')[0];
    this.recentCommands.push({ line: cmd.line, result: exitText(cmd.exitCode, firstLine), at: now });
    if (this.recentCommands.length > RECENT_COMMANDS) this.recentCommands.shift();

    for (const ep of this.episodes.values()) {
      if (ep === own) continue;
      // A command is a step of the episodes it concerns: for a terminal attempt, what belongs to it
      // (commandKinds.relatedToAttempt); for an editor error, a command that names its module or file or
      // installs for a missing one. Only that keeps an episode alive: other work is the user moving on.
      const concerns = ep.source === 'terminal' ? relatedToAttempt(ep, cmd.line) : commandConcerns(ep, cmd.line);
      if (!concerns) continue;
      this.addStep(ep, { action: `run ${cmd.line}`, result: exitText(cmd.exitCode, firstLine), wasEffective: undefined, at: now, detail: cmd.line });
      ep.lastActivity = now;
    }

    if (own) {
      own.lastActivity = now;
      own.sourceIds.push(cmd.id);
      if (cmd.exitCode === 0) {
        this.addStep(own, { action: `run ${cmd.line}`, result: 'passed', wasEffective: true, at: now, detail: cmd.line });
        own.fixedBy = cmd;
        effects.push(this.finish(own, 'success', now, `\`${cmd.line}\` passed`));
      } else if (failed) {
        if (cmd.error && own.error && !stillFailing(own.error, cmd.error, cmd.output, cmd.line)) {
          // Another problem, and the first is nowhere in the output: what was done since the last run
          // fixed it (`tsc: not found` → install → TS2322; TestSlug fixed, TestTitle still failing). The
          // run itself failed, so its step is not a success.
          this.addStep(own, { action: `run ${cmd.line}`, result: exitText(cmd.exitCode, firstLine), wasEffective: false, at: now, detail: cmd.line });
          own.error = fixedPart(own.error, cmd.error);
          const ended = this.finish(own, 'success', now, `the error changed to: ${firstLine ?? ''}`.trim());
          const next = this.openTerminal(cmd, normalised, now);
          own.changedTo = cmd.error;
          own.nextEpisodeId = next.episode.id;
          effects.push(ended, next);
        } else {
          own.recurrences++;
          this.addStep(own, { action: `run ${cmd.line}`, result: exitText(cmd.exitCode, firstLine), wasEffective: false, at: now, detail: cmd.line });
          if (!own.error && cmd.error) own.error = cmd.error;
          else if (cmd.error && own.error && cmd.error.key !== own.error.key) {
            own.variants ??= [];
            if (own.variants.length < 3 && !own.variants.some(v => v.key === cmd.error!.key)) own.variants.push(cmd.error);
          }
          effects.push({ type: 'recurred', episode: own });
        }
      }
    } else if (failed && !isReadOnlyCommand(cmd.line)) {
      // The same error the editor already shows (a build printing what the language server reported):
      // one episode, the editor's, with this run as a step.
      const twin = cmd.error && this.openWithError(cmd.error.key, 'diagnostics');
      if (twin) {
        if (!commandConcerns(twin, cmd.line)) this.addStep(twin, { action: `run ${cmd.line}`, result: exitText(cmd.exitCode, firstLine), wasEffective: false, at: now, detail: cmd.line });
        twin.sourceIds.push(cmd.id);
        twin.lastActivity = now;
      } else {
        effects.push(this.openTerminal(cmd, normalised, now));
      }
    }
    effects.push(...this.tick(now));
    return effects;
  }

  /**
   * The open terminal episode of another command line that runs the same tests (`npm test` failed,
   * `npx jest src/cart.test.js` ran next): a pass that covers the failure closes it, a failure of the
   * same kind is its recurrence.
   */
  private sameTests(cmd: CommandInfo, failed: boolean): TrackedEpisode | undefined {
    const run = testRun(cmd.line);
    if (!run || (!failed && cmd.exitCode !== 0)) return undefined;
    let best: TrackedEpisode | undefined;
    for (const ep of this.episodes.values()) {
      if (ep.source !== 'terminal' || !ep.command) continue;
      const theirs = testRun(ep.command.line);
      if (!theirs || theirs.suite !== run.suite) continue;
      const same = failed
        ? !!cmd.error && !!ep.error && cmd.error.family === ep.error.family
        : testsCover(run, `${ep.error?.message ?? ''}\n${ep.command.output ?? ''}`);
      if (same && (!best || ep.lastActivity > best.lastActivity)) best = ep;
    }
    return best;
  }

  /**
   * The open episode of a git operation that stopped on a conflict (`git merge feature`) which this passing
   * command finishes (`git commit`, `git rebase --continue`): a stopped merge is never run again, so its
   * conclusion is its success. Only a stop on a conflict: a refusal (unstaged changes) is retried instead.
   */
  private stoppedConcludedBy(line: string): TrackedEpisode | undefined {
    let best: TrackedEpisode | undefined;
    for (const ep of this.episodes.values()) {
      if (ep.source !== 'terminal' || !ep.command || !ep.error) continue;
      const conflict = ep.error.code === 'CONFLICT' || /conflict/i.test(`${ep.error.family} ${ep.error.message}`);
      if (conflict && concludesStopped(ep.command.line, line) && (!best || ep.lastActivity > best.lastActivity)) best = ep;
    }
    return best;
  }

  /** The user ends an episode (engram.endEpisode). */
  end(id: string, outcome: Outcome, now: number, note?: string): TrackerEffect[] {
    const ep = this.episodes.get(id);
    if (!ep) return [];
    if (note) ep.note = note;
    return [this.finish(ep, outcome, now, note ? `ended by the user: ${note}` : 'ended by the user')];
  }

  /** A topic change (workspace folders, branch switch): everything open is abandoned. */
  topicChange(now: number, reason: string): TrackerEffect[] {
    for (const state of this.files.values()) state.pending.clear();
    return [...this.episodes.values()].map(ep => this.finish(ep, 'abandoned', now, reason));
  }

  /**
   * Opens errors that outlived the threshold with the file settled (or a save), confirms fixes that
   * stayed fixed, and ends terminal attempts nothing related has touched for the idle gap.
   */
  tick(now: number): TrackerEffect[] {
    if (now < this.hint) return [];
    const effects: TrackerEffect[] = [];
    for (const [file, state] of this.files) {
      for (const [key, p] of state.pending) {
        if (now >= this.pendingDeadline(file, p)) {
          state.pending.delete(key);
          // A terminal episode is already about this error (the build failed first): the editor's view
          // of it is part of that episode, not a second one.
          const twin = this.openWithError(p.error.key, 'terminal');
          if (twin) {
            this.addStep(twin, { action: `error in ${file}`, result: p.error.message.split('\n')[0], at: p.firstSeen });
            this.touch(twin, file);
            continue;
          }
          effects.push(this.openDiagnostic(file, p, now));
        }
      }
    }
    this.foldCleared(now);
    for (const ep of [...this.episodes.values()]) {
      if (ep.resolvingSince !== undefined && now >= this.resolveDeadline(ep)) {
        effects.push(this.finish(ep, 'success', now, 'the error is gone'));
      } else if (ep.source === 'terminal' && now >= this.idleDeadline(ep)) {
        // A diagnostics episode waits for the next event (splitIdle): its error may still be there, and a
        // window left open overnight must not end and reopen it every idle gap.
        effects.push(this.finish(ep, 'abandoned', now, 'idle gap'));
      }
    }
    this.hint = this.exactDeadline();
    return effects;
  }

  /**
   * Errors of one file that vanished in the same update went with one fix (SC1020 and the parse errors it
   * sets off): one lesson, found by all of them. It is written for the error that is not a follow-up of
   * the others ("Couldn't parse this test expression. Fix to allow more checks." only says an error above
   * stopped the tool), else for the first that opened; the others are its alsoCleared.
   */
  private foldCleared(now: number): void {
    const groups = new Map<string, TrackedEpisode[]>();
    for (const ep of this.episodes.values()) {
      if (ep.source !== 'diagnostics' || !ep.file || !ep.error || ep.resolvingSince === undefined || now < this.resolveDeadline(ep)) continue;
      const key = `${ep.file}\u0000${ep.resolvingSince}`;
      const g = groups.get(key);
      if (g) g.push(ep); else groups.set(key, [ep]);
    }
    for (const g of groups.values()) {
      if (g.length < 2) continue;
      const primary = g.find(ep => !FOLLOW_UP.test(ep.error!.message)) ?? g[0];
      for (const ep of g) {
        if (ep === primary) continue;
        (primary.alsoCleared ??= []).push(ep.error!);
        ep.foldedInto = primary.id;
      }
    }
  }

  /** When `tick` next has something to do, so the adapter can run a single timer. */
  nextDeadline(): number | undefined {
    return this.hint === Infinity ? undefined : this.hint;
  }

  private noteDeadline(d: number): void {
    if (d < this.hint) this.hint = d;
  }

  private exactDeadline(): number {
    let next = Infinity;
    for (const [file, state] of this.files) for (const p of state.pending.values()) next = Math.min(next, this.pendingDeadline(file, p));
    for (const ep of this.episodes.values()) {
      if (ep.resolvingSince !== undefined) next = Math.min(next, this.resolveDeadline(ep));
      else if (ep.source === 'terminal') next = Math.min(next, this.idleDeadline(ep));
    }
    return next;
  }

  /**
   * When a pending error counts: once the file has been quiet (no edit, no change of its error set) for
   * the noise threshold — edit-idle time, not time since the error appeared, so slow typing on a busy
   * machine never turns a half-written line into an episode — or a settle after a save that no edit
   * followed.
   */
  private pendingDeadline(file: string, p: Pending): number {
    const a = this.activity.get(file);
    const byIdle = Math.max(p.firstSeen, this.quietSince(a)) + this.opts.noiseThresholdMs;
    const saved = a?.savedAt;
    if (saved === undefined || saved < (a?.editedAt ?? -Infinity)) return byIdle;
    return Math.min(byIdle, Math.max(saved, p.firstSeen, a?.changedAt ?? -Infinity) + this.opts.settleMs);
  }

  /**
   * A vanished error is fixed once it stayed gone with the file quiet for the settle time and, while the
   * last edit is not saved, the noise threshold has passed since that edit (edit-idle time, as an error
   * must to count). A pause between two keys is not a fix: typed at 200-400 ms a key,
   * `Number(process.env.PORT ?? 80` had cleared TS2322 for 1.5 s and became the lesson's fix.
   */
  private resolveDeadline(ep: TrackedEpisode): number {
    const a = ep.file ? this.activity.get(ep.file) : undefined;
    const settled = Math.max(ep.resolvingSince ?? -Infinity, this.quietSince(a)) + this.opts.settleMs;
    const unsavedEdit = a?.editedAt !== undefined && !(a.savedAt !== undefined && a.savedAt >= a.editedAt) ? a.editedAt : undefined;
    return unsavedEdit === undefined ? settled : Math.max(settled, unsavedEdit + this.opts.noiseThresholdMs);
  }

  private idleDeadline(ep: TrackedEpisode): number {
    return ep.lastActivity + this.opts.idleGapMs + 1;
  }

  private quietSince(a: FileActivity | undefined): number {
    return Math.max(a?.editedAt ?? -Infinity, a?.changedAt ?? -Infinity);
  }

  private noteActivity(file: string, kind: keyof FileActivity, now: number): FileActivity {
    let a = this.activity.get(file);
    if (a) this.activity.delete(file); // re-inserted last: the map's order is least recently active first
    else a = {};
    a[kind] = now;
    this.activity.set(file, a);
    if (this.activity.size > MAX_ACTIVITY_FILES) {
      for (const f of this.activity.keys()) {
        if (this.files.has(f) || this.byFile.has(f)) continue; // still needed by a pending error or an episode
        this.activity.delete(f);
        break;
      }
    }
    return a;
  }

  private openDiagnostic(file: string, p: Pending, now: number): TrackerEffect {
    const ep: TrackedEpisode = {
      id: this.opts.newId(), source: 'diagnostics', key: diagKey(file, p.error.key), file, error: p.error,
      startedAt: p.firstSeen, lastActivity: now, steps: [], files: [file], sourceIds: [`diagnostic:${file}:${p.error.key}`],
      recurrences: 0,
    };
    this.addStep(ep, { action: `error in ${file}`, result: p.error.message.split('\n')[0], at: p.firstSeen });
    // Commands that ran after the error appeared but before it counted as an episode are its steps too.
    for (const c of this.recentCommands) {
      if (c.at >= p.firstSeen && commandConcerns(ep, c.line)) this.addStep(ep, { action: `run ${c.line}`, result: c.result, at: c.at, detail: c.line });
    }
    this.register(ep);
    return { type: 'opened', episode: ep };
  }

  private openTerminal(cmd: CommandInfo, normalised: string, now: number): Extract<TrackerEffect, { type: 'opened' }> {
    const ep: TrackedEpisode = {
      id: this.opts.newId(), source: 'terminal', key: termKey(normalised), error: cmd.error,
      command: { ...cmd, normalised }, startedAt: now, lastActivity: now, steps: [], files: [], sourceIds: [cmd.id],
      recurrences: 0,
    };
    this.addStep(ep, { action: `run ${cmd.line}`, result: exitText(cmd.exitCode, cmd.error?.message.split('\n')[0]), wasEffective: false, at: now, detail: [cmd.line, cmd.cwd ? `(cwd: ${cmd.cwd})` : '', cmd.output ?? ''].filter(Boolean).join('\n') });
    this.register(ep);
    return { type: 'opened', episode: ep };
  }

  private register(ep: TrackedEpisode): void {
    this.episodes.set(ep.id, ep);
    this.byKey.set(ep.key, ep.id);
    if (ep.source === 'terminal') this.noteDeadline(this.idleDeadline(ep));
    if (ep.file && ep.source === 'diagnostics') {
      let set = this.byFile.get(ep.file);
      if (!set) this.byFile.set(ep.file, set = new Set());
      set.add(ep);
    }
  }

  private finish(ep: TrackedEpisode, outcome: Outcome, now: number, resolution: string): TrackerEffect {
    this.episodes.delete(ep.id);
    if (this.byKey.get(ep.key) === ep.id) this.byKey.delete(ep.key);
    const set = ep.file ? this.byFile.get(ep.file) : undefined;
    if (set) { set.delete(ep); if (!set.size) this.byFile.delete(ep.file!); }
    ep.outcome = outcome;
    ep.resolution = resolution;
    ep.endedAt = now;
    ep.resolvingSince = undefined;
    return { type: 'ended', episode: ep };
  }

  /** After a long idle gap the old episodes end; errors still present start fresh ones. */
  private splitIdle(now: number): TrackerEffect[] {
    const effects: TrackerEffect[] = [];
    for (const ep of [...this.episodes.values()]) {
      if (now - ep.lastActivity <= this.opts.idleGapMs) continue;
      effects.push(this.finish(ep, 'abandoned', now, 'idle gap'));
      const still = ep.file && ep.error ? this.files.get(ep.file)?.present.get(ep.error.key) : undefined;
      if (ep.file && still) effects.push(this.openDiagnostic(ep.file, { error: still, firstSeen: now }, now));
    }
    return effects;
  }

  private dropFile(file: string, now: number, deleted: boolean): TrackerEffect[] {
    const effects: TrackerEffect[] = [];
    this.files.delete(file);
    for (const ep of [...(this.byFile.get(file) ?? [])]) {
      const fixed = !deleted && ep.resolvingSince !== undefined;
      effects.push(this.finish(ep, fixed ? 'success' : 'abandoned', now, fixed ? 'the error is gone' : deleted ? 'file deleted' : 'file closed'));
    }
    return effects;
  }

  /** An open episode of `source` whose error has this signature key. */
  private openWithError(key: string, source: TrackedEpisode['source']): TrackedEpisode | undefined {
    for (const ep of this.episodes.values()) if (ep.source === source && ep.error?.key === key) return ep;
    return undefined;
  }

  private episodeFor(key: string): TrackedEpisode | undefined {
    const id = this.byKey.get(key);
    return id ? this.episodes.get(id) : undefined;
  }

  private fileState(file: string): FileState {
    let s = this.files.get(file);
    if (!s) this.files.set(file, s = { present: new Map(), pending: new Map() });
    return s;
  }

  private addStep(ep: TrackedEpisode, step: EpisodeStep): void {
    if (step.wasEffective === undefined) delete step.wasEffective;
    if (step.detail === undefined) delete step.detail;
    ep.steps.push(step);
    // Keep the first step (the trigger) and the most recent ones.
    if (ep.steps.length > this.opts.maxSteps) ep.steps.splice(1, ep.steps.length - this.opts.maxSteps);
  }

  private touch(ep: TrackedEpisode, file: string): void {
    if (!ep.files.includes(file) && ep.files.length < this.opts.maxFiles) ep.files.push(file);
  }
}

/** A message that only says another error stopped the tool: "Fix any mentioned problems", "after previous errors". */
const FOLLOW_UP = /\b(?:mentioned|previous|preceding|earlier|above) (?:syntax )?(?:errors?|problems?)\b|\bfix (?:any|the) mentioned\b|to allow more checks|\b(?:couldn'?t|could not|cannot|unable to) parse\b/i;

function diagKey(file: string, key: string): string { return `d|${file}|${key}`; }
function termKey(normalised: string): string { return `t|${normalised}`; }

function exitText(code: number | undefined, firstLine: string | undefined): string {
  const head = code === undefined ? 'finished (exit code unknown)' : code === 0 ? 'passed' : `exit ${code}`;
  return firstLine ? `${head}: ${firstLine}` : head;
}
