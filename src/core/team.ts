// Team sharing through a reviewed file in the repository (.engram/team.jsonl). Export masks secrets, absolute
// paths, user and host names and strips who wrote it; import treats every line as untrusted: team memories
// load as owner 'team', start with the prior confidence (trust is earned here), are capped at `pattern`
// (never a rule or a constraint, and above observation only with evidence), and are scanned for injection.
import { parseImportLine, toExportLine } from './importFormat';
import { maskDeep, type MaskOptions } from './mask';
import { detectMemoryInjection } from './poison';
import { isDuplicateLesson, PATTERN_MIN_EVIDENCE, PRIOR } from './trust';
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

/** Highest maturity a team memory may load with. */
export function teamMaturityCap(m: Memory): Maturity {
  if (m.maturity === 'observation') return 'observation';
  return m.kind === 'lesson' && m.evidence.length >= PATTERN_MIN_EVIDENCE ? 'pattern' : 'observation';
}

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
  const byId = new Map<string, Memory>();
  const errors: { line: number; error: string }[] = [];
  let merged = 0;
  const lines = (text || '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const r = parseImportLine(line, i + 1, now, { trusted: true, owner: { scope: 'team' } });
    if (!r.ok) { errors.push({ line: i + 1, error: r.error }); return; }
    if (!r.explicitId) { errors.push({ line: i + 1, error: 'a team line needs an "id", so reloading the file does not duplicate it' }); return; }
    const m = asTeam(r.memory);
    const prev = byId.get(m.id);
    if (!prev) { byId.set(m.id, m); return; }
    merged++;
    if (prev.kind !== m.kind) { errors.push({ line: i + 1, error: `id ${m.id} is used by a ${prev.kind} and a ${m.kind}; kept the first` }); return; }
    const newer = m.updatedAt >= prev.updatedAt ? m : prev;
    byId.set(m.id, withEvidence(newer, prev, m));
  });
  // The same lesson under another id: evidence on the first (by id), not a second copy.
  const lessons = [...byId.values()].filter((m): m is Lesson => m.kind === 'lesson').sort((a, b) => (a.id < b.id ? -1 : 1));
  for (let i = 0; i < lessons.length; i++) {
    const a = byId.get(lessons[i].id) as Lesson | undefined;
    if (!a) continue;
    for (let j = i + 1; j < lessons.length; j++) {
      const b = byId.get(lessons[j].id) as Lesson | undefined;
      if (!b || !isDuplicateLesson(a, b)) continue;
      const evidence = [...new Set([...a.evidence, ...b.evidence, b.id])];
      byId.set(a.id, { ...a, evidence, maturity: higher(a.maturity, b.maturity) });
      byId.delete(b.id);
      merged++;
    }
  }
  const memories = [...byId.values()].map(m => ({ ...m, maturity: teamMaturityCap(m) }) as Memory).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { memories, errors, merged };
}

const ORDER: Maturity[] = ['observation', 'pattern', 'rule', 'constraint'];
function higher(a: Maturity, b: Maturity): Maturity { return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b; }

function withEvidence(newer: Memory, a: Memory, b: Memory): Memory {
  if (newer.kind !== 'lesson' || a.kind !== 'lesson' || b.kind !== 'lesson') return newer;
  return { ...newer, evidence: [...new Set([...a.evidence, ...b.evidence])], maturity: higher(a.maturity, b.maturity) };
}
