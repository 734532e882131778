// Trace events → ended episodes, with the same tracker, diagnostics book, command extraction and
// baselines rules as live capture: the text a file had when it first mattered to an episode, and its
// text at the end. `engram replay` drives it with a trace's clock; the live controller produces the
// same events (and can record them: engram.recordTrace).
import { EpisodeTracker, type TrackedEpisode, type TrackerEffect, type TrackerOptions } from '../episodeTracker';
import { newId } from '../ids';
import { CommandErrors } from './commandErrors';
import { DiagnosticsBook, type RawDiagnostic } from './diagnosticErrors';
import { excerptAround } from './diff';
import type { EndedEpisode } from './episodeMemories';
import { languageOf } from './episodeMemories';
import type { TraceDiagnostic, TraceEvent } from './trace';

const SEVERITY: Record<TraceDiagnostic['severity'], number> = { error: 0, warning: 1, information: 2, hint: 3 };
const MAX_BASELINE_FILES = 25;
const MAX_BASELINE_CHARS = 256 * 1024;

interface Context { codeBefore?: string; domain: string; activeFile?: string }

export class CapturePipeline {
  readonly tracker: EpisodeTracker;
  private readonly book = new DiagnosticsBook();
  private readonly commandErrors = new CommandErrors();
  /** Current text of every file seen (editor or disk); null = known not to exist. */
  private readonly texts = new Map<string, string | null>();
  private readonly open = new Set<string>();
  private readonly baselines = new Map<string, Map<string, string | null>>();
  private readonly contexts = new Map<string, Context>();
  private active: string | undefined;
  private now = 0;
  readonly ended: EndedEpisode[] = [];
  readonly warnings: string[] = [];

  constructor(opts: Partial<TrackerOptions> = {}) {
    this.tracker = new EpisodeTracker({ noiseThresholdMs: 4000, settleMs: 2000, newId: () => newId('ep'), ...opts });
  }

  handle(ev: TraceEvent): void {
    this.now = Math.max(this.now, ev.t);
    const now = this.now;
    this.apply(this.tracker.tick(now));
    switch (ev.type) {
      case 'open':
        this.noteText(ev.file, ev.text);
        this.open.add(ev.file);
        this.active = ev.file;
        break;
      case 'change':
        this.noteBefore(ev.file);
        this.texts.set(ev.file, ev.text);
        this.active = ev.file;
        this.apply(this.tracker.edited(ev.file, now, 1));
        break;
      case 'save':
        this.apply(this.tracker.saved(ev.file, now));
        break;
      case 'close':
        this.open.delete(ev.file);
        this.book.forget(ev.file);
        this.apply(this.tracker.closed(ev.file, now));
        break;
      case 'disk': {
        // `before: null` = the file was created; no `before` for an unknown file = its past is unknown,
        // so nothing is claimed about it (as live capture, which cannot read a file's past from disk).
        if (!this.texts.has(ev.file) && ev.before !== undefined) this.texts.set(ev.file, ev.before);
        this.noteBefore(ev.file);
        this.texts.set(ev.file, ev.text);
        this.apply(ev.text === null ? this.tracker.deleted(ev.file, now) : this.tracker.edited(ev.file, now, 1));
        break;
      }
      case 'diagnostics': {
        const raw: RawDiagnostic[] = ev.items.map(d => ({ severity: SEVERITY[d.severity] ?? 0, message: d.message, source: d.source, code: d.code, line: d.line }));
        const errors = this.book.update(ev.file, raw);
        if (errors) this.apply(this.tracker.diagnostics(ev.file, errors, now, { fileOpen: this.open.has(ev.file), serverAlive: true }));
        break;
      }
      case 'command': {
        const output = ev.output ?? '';
        const error = this.commandErrors.fromOutput(output, ev.exitCode, ev.command, ev.cwd);
        this.apply(this.tracker.commandEnded({ id: `trace:${now}:${ev.command}`, line: ev.command, cwd: ev.cwd, exitCode: ev.exitCode, error, output: output.slice(-1500) }, now));
        break;
      }
      case 'branch':
        this.apply(this.tracker.topicChange(now, `switched to branch ${ev.name}`));
        break;
      case 'end':
        this.finish();
        break;
    }
  }

  /** Let pending errors open and fixes settle, as the live timers would after the last event. */
  finish(): void {
    this.now += 60_000;
    this.apply(this.tracker.tick(this.now));
  }

  openEpisodes(): TrackedEpisode[] {
    return this.tracker.open();
  }

  private apply(effects: TrackerEffect[]): void {
    for (const fx of effects) {
      if (fx.type === 'opened') this.onOpened(fx.episode);
      else if (fx.type === 'ended') this.onEnded(fx.episode);
    }
  }

  private noteText(file: string, text: string): void {
    this.texts.set(file, text);
    for (const map of this.baselines.values()) this.addBaseline(map, file);
  }

  /** Before a file changes, every open episode that has not seen it yet keeps its current text. */
  private noteBefore(file: string): void {
    for (const map of this.baselines.values()) this.addBaseline(map, file);
  }

  private addBaseline(map: Map<string, string | null>, file: string): void {
    if (map.has(file) || map.size >= MAX_BASELINE_FILES || !this.texts.has(file)) return;
    const text = this.texts.get(file)!;
    if (text !== null && text.length > MAX_BASELINE_CHARS) return;
    map.set(file, text);
  }

  private onOpened(ep: TrackedEpisode): void {
    // As live capture does: the baseline of every file known (open) when the episode begins.
    const map = new Map<string, string | null>();
    for (const f of this.open) this.addBaseline(map, f);
    this.baselines.set(ep.id, map);
    const ctx: Context = { domain: 'unknown', activeFile: this.active };
    if (ep.source === 'diagnostics' && ep.file) {
      const text = this.texts.get(ep.file);
      ctx.domain = this.open.has(ep.file) ? languageOf(ep.file) : ep.error?.tool ?? 'unknown';
      if (typeof text === 'string' && ep.error?.line !== undefined) ctx.codeBefore = excerptAround(text, ep.error.line);
    } else {
      ctx.domain = `terminal:${ep.error?.tool ?? 'shell'}`;
    }
    this.contexts.set(ep.id, ctx);
  }

  private onEnded(ep: TrackedEpisode): void {
    const ctx = this.contexts.get(ep.id) ?? { domain: 'unknown' };
    this.contexts.delete(ep.id);
    if (!ep.files.length && ctx.activeFile) ep.files.push(ctx.activeFile);
    const before = this.baselines.get(ep.id) ?? new Map<string, string | null>();
    this.baselines.delete(ep.id);
    const after = new Map<string, string | null>();
    for (const f of ep.files) if (this.texts.has(f)) after.set(f, this.texts.get(f)!);
    this.ended.push({ tracked: ep, before, after, codeBefore: ctx.codeBefore, domain: ctx.domain });
  }
}
