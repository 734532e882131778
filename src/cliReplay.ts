// `engram replay TRACE.jsonl`: runs a capture trace through the code live capture runs (tracker,
// diagnostics book, command extraction, baselines, lesson writer, masking, the store's merge rules)
// with the trace's clock, stores what it produces and reports it. A trace is read as a stream, line by
// line (each bounded before it is buffered), so its length costs time, not memory.
import * as fs from 'fs';
import { CapturePipeline } from './core/capture/capturePipeline';
import { episodeMaterial, episodeMemories, type EndedEpisode } from './core/capture/episodeMemories';
import { TRACE_EVENT_TYPES, type TraceEvent } from './core/capture/trace';
import { newId } from './core/ids';
import type { Lesson, Owner } from './core/types';
import { boundedLines, OversizedLine } from './store/lineReader';
import type { MemoryStore } from './store/memoryStore';
import { runPatternPass } from './store/patternPass';

/** One trace line at most (an `open` event carries a whole file's text); a longer one is skipped unread. */
const MAX_TRACE_LINE_BYTES = 8 * 1024 * 1024;
/** Warnings a report lists; the rest are counted in one last line (a trace of bad lines is not a report). */
const MAX_WARNINGS = 1000;

/** One line → a TraceEvent, or the reason it is not one (never echoing the line: it may hold secrets). */
export function parseTraceLine(line: string): TraceEvent | string {
  let o: unknown;
  try { o = JSON.parse(line); } catch { return 'not valid JSON'; }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return 'not a JSON object';
  const e = o as Record<string, unknown>;
  if (typeof e.t !== 'number' || !Number.isFinite(e.t) || e.t < 0) return '"t" must be a non-negative number';
  if (!TRACE_EVENT_TYPES.includes(e.type as typeof TRACE_EVENT_TYPES[number])) return `"type" must be one of ${TRACE_EVENT_TYPES.join(', ')}`;
  const needFile = e.type !== 'command' && e.type !== 'branch' && e.type !== 'end';
  if (needFile && (typeof e.file !== 'string' || !e.file)) return `a ${String(e.type)} event needs "file"`;
  if ((e.type === 'open' || e.type === 'change') && typeof e.text !== 'string') return `a ${e.type} event needs "text"`;
  if (e.type === 'disk' && e.text !== null && typeof e.text !== 'string') return 'a disk event needs "text" (a string, or null for a deletion)';
  if (e.type === 'diagnostics') {
    if (!Array.isArray(e.items)) return 'a diagnostics event needs "items"';
    for (const d of e.items as unknown[]) {
      const x = d as Record<string, unknown>;
      if (!x || typeof x.message !== 'string' || typeof x.line !== 'number') return 'each diagnostic needs "message" and "line"';
      if (x.severity !== undefined && !['error', 'warning', 'information', 'hint'].includes(x.severity as string)) return 'a diagnostic "severity" is error, warning, information or hint';
      if (x.code !== undefined && typeof x.code !== 'string' && typeof x.code !== 'number') return 'a diagnostic "code" is a string or a number';
    }
    e.items = (e.items as Record<string, unknown>[]).map(x => ({ ...x, severity: x.severity ?? 'error' }));
  }
  if (e.type === 'command' && (typeof e.command !== 'string' || !e.command.trim())) return 'a command event needs "command"';
  if (e.type === 'command' && e.exitCode !== undefined && typeof e.exitCode !== 'number') return '"exitCode" must be a number';
  if (e.type === 'branch' && typeof e.name !== 'string') return 'a branch event needs "name"';
  return e as unknown as TraceEvent;
}

export interface ReplayReport {
  episodes: { id: string; outcome?: string; trigger: string; files: string[]; resolution?: string; errorSignature?: string; summary: string }[];
  lessons: Pick<Lesson, 'id' | 'errorSignature' | 'errorText' | 'rootCause' | 'fixApproach' | 'change' | 'commands' | 'scope' | 'maturity' | 'source' | 'evidence' | 'author' | 'unexplained'>[];
  open: number;
  /** Pattern lessons the pattern pass made from the store's episodes after this replay (store/patternPass.ts). */
  patterns: string[];
  warnings: string[];
}

export async function replayTrace(store: MemoryStore, file: string, owner: Owner): Promise<ReplayReport> {
  if (!fs.statSync(file).isFile()) throw new Error(`${file} is not a file`);
  return replayLines(store, boundedLines(fs.createReadStream(file), MAX_TRACE_LINE_BYTES), owner);
}

/** An ended episode, the same on every replay of the same lines (tracker ids are random). */
export const episodeKey = (e: EndedEpisode): string => `${e.tracked.startedAt}:${e.tracked.key}`;

export interface ReplayOptions {
  /** false: episodes still open after the last line stay open and are not stored (a session that goes on). */
  finish?: boolean;
  /** Keys (episodeKey) of episodes an earlier replay of the same session already stored: skipped. */
  stored?: ReadonlySet<string>;
}

/** Lines of a trace: a file or stdin as a stream (`engram replay`, `ingest`), or a session's lines (`engram hook`). */
export type TraceLines = Iterable<string | OversizedLine> | AsyncIterable<string | OversizedLine>;

/** `engram replay`, `ingest` and `hook`: trace lines through the capture pipeline, one at a time. */
export async function replayLines(store: MemoryStore, lines: TraceLines, owner: Owner, opts: ReplayOptions = {}): Promise<ReplayReport & { stored: string[] }> {
  const pipeline = new CapturePipeline();
  const warnings: string[] = [];
  let omitted = 0;
  const warn = (w: string) => { if (warnings.length < MAX_WARNINGS) warnings.push(w); else omitted++; };
  let last = -1;
  let ended = false;
  let i = 0;
  for await (const line of lines) {
    i++;
    if (line instanceof OversizedLine) { warn(`line ${i}: larger than ${MAX_TRACE_LINE_BYTES / 1024 / 1024} MB (${line.bytes} bytes); skipped without reading it`); continue; }
    if (!line.trim()) continue;
    const ev = parseTraceLine(line);
    if (typeof ev === 'string') { warn(`line ${i}: ${ev}; skipped`); continue; }
    if (ev.t < last) warn(`line ${i}: "t" went back in time (${ev.t} < ${last}); replayed at ${last}`);
    last = Math.max(last, ev.t);
    pipeline.handle(ev);
    if (ev.type === 'end') ended = true;
  }
  if (omitted) warnings.push(`${omitted} more warning(s) not listed`);
  if (!ended && opts.finish !== false) pipeline.finish();
  const report: ReplayReport & { stored: string[] } = { episodes: [], lessons: [], open: pipeline.openEpisodes().length, patterns: [], warnings, stored: [] };
  const seen = new Set<string>();
  for (const e of pipeline.ended) {
    const key = episodeKey(e);
    if (opts.stored?.has(key)) continue;
    report.stored.push(key);
    const masked = episodeMaterial(e, owner, e.tracked.endedAt ?? Date.now());
    const { episode, lesson } = episodeMemories(masked, { episode: e.tracked.id, lesson: newId('lesson') });
    await store.record(episode);
    report.episodes.push({ id: episode.id, outcome: episode.outcome, trigger: episode.trigger, files: episode.files, resolution: episode.resolution, errorSignature: episode.errorSignature, summary: episode.summary });
    if (!lesson) continue;
    const stored = await store.record(lesson);
    if (stored.kind !== 'lesson' || seen.has(stored.id)) continue;
    seen.add(stored.id);
    const { id, errorSignature, errorText, rootCause, fixApproach, change, commands, scope, maturity, source, evidence, author, unexplained } = stored;
    report.lessons.push({ id, errorSignature, errorText, rootCause, fixApproach, change, commands, scope, maturity, source, evidence, author, unexplained });
  }
  // New episodes may complete a pattern with the ones already stored, as the window's background pass finds.
  if (report.episodes.length) report.patterns = (await runPatternPass(store, { owner })).created;
  // A lesson merged into an earlier one reports the merged state (its evidence grew).
  report.lessons = report.lessons.map(l => { const s = store.get(l.id); return s?.kind === 'lesson' ? { ...l, evidence: s.evidence, maturity: s.maturity } : l; });
  return report;
}

export function readableReplay(r: ReplayReport): string {
  const lines = [`${r.episodes.length} episode(s), ${r.lessons.length} lesson(s)${r.patterns.length ? `, ${r.patterns.length} new pattern(s)` : ''}${r.open ? `, ${r.open} still open at the end` : ''}`];
  for (const l of r.lessons) {
    lines.push('', `lesson ${l.id} (${l.maturity}${l.unexplained ? ', unexplained' : ''}, evidence ${l.evidence.length})`, `  error: ${l.errorText.split('\n')[0]}`, `  cause: ${l.rootCause}`, `  fix:   ${l.fixApproach}`);
    if (l.commands?.length) lines.push(`  commands: ${l.commands.join(' ; ')}`);
  }
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n') + '\n';
}
