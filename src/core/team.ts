// Team sharing through a reviewed file in the repository (.engram/team.jsonl). Export masks secrets, absolute
// paths, user and host names and strips who wrote it; import treats every line as untrusted: team memories
// load as owner 'team', start with the prior confidence (trust is earned here), are capped at `pattern`
// (never a rule or a constraint, and above observation only with evidence), and are scanned for injection.
import { parseImportLine, toExportLine } from './importFormat';
import { maskDeep, maskRecord, type MaskOptions } from './mask';
import { detectMemoryInjection } from './poison';
import { LessonDedup } from './lessonDedup';
import { LADDER, PRIOR, teamMaturityCap } from './trust';
import type { MemoryPatch, TeamEdit } from './memoryPatch';
import type { Lesson, Maturity, Memory } from './types';

export type TeamLineOptions = MaskOptions;

/** Local state that means nothing to a teammate (or says who and where). */
const LOCAL_FIELDS = ['lastAccessedAt', 'quarantined', 'pinned', 'flagged', 'perWorkspace', 'deleted'] as const;

/** The masked, ownerless line that goes into the team file for review. */
export function toTeamLine(m: Memory, opts: TeamLineOptions = {}): string {
  const copy: Record<string, unknown> = { ...m, owner: { scope: 'team' }, accessCount: 0 };
  for (const k of LOCAL_FIELDS) delete copy[k];
  const masked = maskDeep(copy as unknown as Memory, { genericHome: true, absolutePaths: true, ...opts });
  return toExportLine(masked);
}

export { teamMaturityCap };

export interface TeamMergeResult {
  memories: Memory[];
  errors: { line: number; error: string }[];
  /** Lines merged into another (same id, or the same lesson under another id). */
  merged: number;
}

function asTeam(m: Memory): Memory {
  // Maturity is capped after merging, when all the evidence for a memory is known.
  const next = { ...m, owner: { scope: 'team' as const }, source: 'team' as const, confidence: { ...PRIOR } } as Memory;
  for (const k of LOCAL_FIELDS) delete (next as unknown as Record<string, unknown>)[k];
  const flags = detectMemoryInjection(next);
  if (flags.length) next.flagged = flags;
  return next;
}

/**
 * Parses a team file. Lines are merged by id (the newest `updatedAt` wins; lesson evidence is united), the
 * same lesson under two ids becomes one, and bad lines are reported with their number without stopping
 * the rest. Result is ordered by id.
 */
export function mergeTeamLines(text: string, now = Date.now()): TeamMergeResult {
  const steps = mergeSteps(text, now);
  for (;;) { const r = steps.next(); if (r.done) return r.value; }
}

/** Lines parsed between two yields of mergeTeamLinesAsync (a few tens of milliseconds of work). */
export const TEAM_LINES_PER_TURN = 250;

/**
 * mergeTeamLines for the extension host: the same work, handing the thread back every
 * TEAM_LINES_PER_TURN lines, so a large team file (up to MAX_TEAM_FILE_BYTES, tens of thousands of lines)
 * never holds the editor for its whole parse.
 */
export async function mergeTeamLinesAsync(text: string, now = Date.now(), yieldTurn: () => Promise<void> = () => new Promise(r => setImmediate(r))): Promise<TeamMergeResult & { turns: number }> {
  const steps = mergeSteps(text, now);
  let turns = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { ...r.value, turns };
    turns++;
    await yieldTurn();
  }
}

function* mergeSteps(text: string, now: number): Generator<void, TeamMergeResult> {
  const byId = new Map<string, Memory>();
  const errors: { line: number; error: string }[] = [];
  let errorsOmitted = 0;
  const fail = (line: number, error: string) => { if (errors.length < MAX_TEAM_ERRORS) errors.push({ line, error }); else errorsOmitted++; };
  let merged = 0;
  if ((text || '').length > MAX_TEAM_FILE_BYTES) {
    return { memories: [], errors: [{ line: 0, error: teamFileTooLarge(text.length) }], merged: 0 };
  }
  const lines = (text || '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (i && i % TEAM_LINES_PER_TURN === 0) yield;
    const line = lines[i].trim();
    if (!line) continue;
    const r = parseImportLine(line, i + 1, now, { team: true, owner: { scope: 'team' } });
    if (!r.ok) { fail(i + 1, r.error); continue; }
    if (!r.explicitId) { fail(i + 1, 'a team line needs an "id", so reloading the file does not duplicate it'); continue; }
    const m = asTeam(r.memory);
    const prev = byId.get(m.id);
    if (!prev) { byId.set(m.id, m); continue; }
    merged++;
    if (prev.kind !== m.kind) { fail(i + 1, `id ${m.id} is used by a ${prev.kind} and a ${m.kind}; kept the first`); continue; }
    const newer = m.updatedAt >= prev.updatedAt ? m : prev;
    byId.set(m.id, withEvidence(newer, prev, m));
  }
  // The same lesson under another id: evidence on the first (by id), not a second copy. Found by key
  // (core/lessonDedup.ts), not by comparing every pair: 8k lines took 68 s that way.
  const lessons = [...byId.values()].filter((m): m is Lesson => m.kind === 'lesson').sort((a, b) => (a.id < b.id ? -1 : 1));
  const dedup = new LessonDedup(false);
  for (const b of lessons) {
    const found = dedup.find(b);
    const a = found && byId.get(found.id) as Lesson | undefined;
    if (!a) { dedup.add(b); continue; }
    const evidence = [...new Set([...a.evidence, ...b.evidence, b.id])];
    byId.set(a.id, { ...a, evidence, maturity: higher(a.maturity, b.maturity) });
    byId.delete(b.id);
    merged++;
  }
  if (errorsOmitted) errors.push({ line: 0, error: `${errorsOmitted} more bad line(s) not listed` });
  const memories = [...byId.values()].map(m => ({ ...m, maturity: teamMaturityCap(m) }) as Memory).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { memories, errors, merged };
}

/** Fields whose change in the team file is carried into an already loaded team memory. */
export const TEAM_CONTENT_FIELDS = ['errorText', 'rootCause', 'fixApproach', 'content', 'instruction', 'summary', 'scope', 'tags', 'check', 'topic', 'type', 'key'] as const satisfies readonly (keyof MemoryPatch)[];

function contentOf(m: Memory): string {
  const o = m as unknown as Record<string, unknown>;
  return JSON.stringify(TEAM_CONTENT_FIELDS.map(k => o[k] ?? null));
}

/**
 * What a changed team line does to the memory already loaded from it (`next` comes from mergeTeamLines:
 * capped and scanned). The new content, the injection flags of the new content, and never more maturity
 * than the line may bring: a teammate's edit of a rule or constraint the user promoted here (a new check,
 * glob or fix text) is new, unreviewed text, so it drops back to the cap and earns its way up again.
 * Undefined when nothing the user sees changed.
 */
export function teamEdit(cur: Memory, raw: Memory): TeamEdit | undefined {
  // Compared as the store keeps it (masked), so a line holding something masking changes is not "changed"
  // (and demoted again) at every reload.
  const next = maskRecord(raw);
  if (contentOf(cur) === contentOf(next)) return undefined;
  const patch: Record<string, unknown> = {};
  const src = next as unknown as Record<string, unknown>;
  const old = cur as unknown as Record<string, unknown>;
  for (const k of TEAM_CONTENT_FIELDS) if (k in src || k in old) patch[k] = src[k] ?? null;
  const flagged = next.flagged?.length ? next.flagged : null;
  const cap = next.maturity;
  const demoteTo = LADDER.indexOf(cur.maturity) > LADDER.indexOf(cap) ? cap : undefined;
  // Every TEAM_CONTENT_FIELDS key is a MemoryPatch key (its `satisfies` checks that).
  return { patch: patch as MemoryPatch, flagged, ...(demoteTo ? { demoteTo } : {}) };
}

/** A team file larger than this is not read (it is a reviewed file of lessons, not a dump). */
export const MAX_TEAM_FILE_BYTES = 8 * 1024 * 1024;
/** Bad lines listed per load; the rest are counted. */
const MAX_TEAM_ERRORS = 200;

export function teamFileTooLarge(bytes: number): string {
  return `the team file is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${MAX_TEAM_FILE_BYTES / 1024 / 1024} MB limit, so Engram does not read it`;
}

function higher(a: Maturity, b: Maturity): Maturity { return LADDER.indexOf(a) >= LADDER.indexOf(b) ? a : b; }

function withEvidence(newer: Memory, a: Memory, b: Memory): Memory {
  if (newer.kind !== 'lesson' || a.kind !== 'lesson' || b.kind !== 'lesson') return newer;
  return { ...newer, evidence: [...new Set([...a.evidence, ...b.evidence])], maturity: higher(a.maturity, b.maturity) };
}
