// Imports JSON lines (see core/importFormat.ts) on top of the write plan (core/writePlan.ts): each line
// is prepared as `record` prepares a memory, repeats become evidence, and the ladder's steps are the
// plan's. What is the importer's own: batching (each batch durable before the next, so an interrupted
// import keeps what it wrote), the report, and a dedup index so a file of thousands of repeats of one
// error is not quadratic (core/lessonDedup.ts).
import { parseImportLine, type ImportOptions } from '../core/importFormat';
import { LessonDedup } from '../core/lessonDedup';
import { defaultOwner, prepareImported, promotionAfter, scopeGrowth, type PlanContext, type StoreView } from '../core/writePlan';
import type { Lesson, MemoryEvent } from '../core/types';
import { oversizedLineError, type OversizedLine } from './lineReader';

export interface ImportReport {
  imported: number;
  skipped: number;
  /** The first MAX_REPORTED_ERRORS bad lines; `errorsOmitted` counts the rest. */
  errors: { line: number; error: string }[];
  errorsOmitted?: number;
  /** Lessons merged as evidence into an existing lesson (same signature, same fix, same scope). */
  merged?: number;
  /** Lines imported with a change worth knowing (evidence not kept); never repeats the line's text. */
  notes?: { line: number; note: string }[];
  notesOmitted?: number;
}

/**
 * Bad lines (and notes) an import report keeps: a file of three million bad lines made a 266 MB report.
 * The rest are counted, not listed.
 */
export const MAX_REPORTED_ERRORS = 1000;

export interface ImportLinesOptions extends ImportOptions {
  batchSize?: number;
  onProgress?(n: number): void;
  signal?: AbortSignal;
}

/** What the importer needs of the store. */
export interface ImportTarget {
  view: StoreView;
  workspace?: string;
  now(): number;
  /** Runs `fn` in the store's write queue. */
  serial<T>(fn: () => Promise<T>): Promise<T>;
  /** Durable append, folded into the state (call inside `serial`). */
  commit(events: MemoryEvent[]): Promise<void>;
}

/**
 * Bad lines are reported and skipped; duplicate ids (within the file, or already in the store) are
 * reported and skipped: the first wins. Lessons without an explicit id that repeat an existing lesson
 * (same signature, same fix, same scope) become evidence on it instead of a copy; lines with an explicit
 * id are always kept as themselves.
 */
export async function importLines(
  target: ImportTarget,
  lines: Iterable<string | OversizedLine> | AsyncIterable<string | OversizedLine>,
  opts: ImportLinesOptions = {},
): Promise<ImportReport> {
  const { view } = target;
  const batchSize = Math.max(1, opts.batchSize ?? 500);
  const report: ImportReport = { imported: 0, skipped: 0, errors: [], merged: 0, notes: [] };
  const recorded = new Set<string>(); // ids this import has written (evidence may name them)
  const seen = new Set<string>();
  let batch: MemoryEvent[] = [];
  // Lessons this import wrote or queued, and the store's own lessons of every signature it met, so a
  // repeat is found by key instead of by comparing it with every earlier lesson of its signature.
  const dedup = new LessonDedup();
  const seededSigs = new Set<string>();
  const evidenceOf = new Map<string, Set<string>>();
  const merged = new Set<string>();
  let lineNo = 0;
  const error = (line: number, text: string) => {
    if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push({ line, error: text });
    else report.errorsOmitted = (report.errorsOmitted ?? 0) + 1;
    report.skipped++;
  };
  const note = (line: number, text: string) => {
    if (report.notes!.length < MAX_REPORTED_ERRORS) report.notes!.push({ line, note: text });
    else report.notesOmitted = (report.notesOmitted ?? 0) + 1;
  };
  const flush = async () => {
    if (!batch.length) return;
    const events = batch;
    batch = [];
    evidenceOf.clear();
    await target.serial(async () => {
      await target.commit(events);
      // Evidence may have earned a promotion; evaluated once per lesson per batch, on the state it built.
      const ctx: PlanContext = { now: target.now(), workspace: target.workspace };
      const steps: MemoryEvent[] = [];
      for (const id of merged) {
        const cur = view.get(id);
        const step = cur && promotionAfter(cur, ctx);
        if (step) steps.push(step);
      }
      merged.clear();
      if (steps.length) await target.commit(steps);
    });
    opts.onProgress?.(report.imported);
  };
  for await (const rawLine of lines as AsyncIterable<string | OversizedLine>) {
    lineNo++;
    if (opts.signal?.aborted) break;
    // A reader that bounds lines before buffering them (store/lineReader.ts) hands over only the size.
    if (typeof rawLine !== 'string') { error(lineNo, oversizedLineError(rawLine.bytes)); continue; }
    const line = rawLine.replace(/^\uFEFF/, '').replace(/\r$/, '');
    if (!line.trim()) continue;
    const now = target.now();
    const parsed = parseImportLine(line, lineNo, now, { ...opts, owner: opts.owner ?? defaultOwner(target.workspace) });
    if (!parsed.ok) { error(lineNo, parsed.error); continue; }
    const id = parsed.memory.id;
    if (seen.has(id) || view.has(id) || view.isTombstoned(id)) {
      error(lineNo, `duplicate id "${id}": ${seen.has(id) ? 'an earlier line has it' : 'already in the store'}; line skipped`);
      continue;
    }
    // The store's own checks run on the masked record (prepareMemory): one that fails there is this
    // line's problem, reported by number, never the end of the import.
    let prepared: ReturnType<typeof prepareImported>;
    try {
      prepared = prepareImported(parsed.memory, opts, { now, workspace: target.workspace });
    } catch (e) {
      error(lineNo, `${(e as Error).message}; line skipped`);
      continue;
    }
    seen.add(id);
    const { memory: m, dropped } = prepared;
    if (dropped) note(lineNo, `${dropped} evidence id(s) not kept: evidence from an untrusted file does not count toward promotion`);
    if (m.kind === 'lesson' && !seededSigs.has(m.errorSignature)) {
      seededSigs.add(m.errorSignature);
      for (const sid of view.idsWithSignature(m.errorSignature)) {
        const other = view.get(sid);
        if (other?.kind === 'lesson') dedup.add(other);
      }
    }
    if (m.kind === 'lesson' && !parsed.explicitId) {
      const found = dedup.find(m);
      // Only a lesson still in the store or queued by this import (one forgotten meanwhile is gone).
      // A merge adds only ids that exist, never the merged line's own id, which does not become a memory.
      const dup = found && (view.has(found.id) || recorded.has(found.id)) ? found : undefined;
      if (dup) {
        let have = evidenceOf.get(dup.id);
        if (!have) {
          const stored = view.get(dup.id);
          have = new Set(stored?.kind === 'lesson' ? (stored as Lesson).evidence : dup.evidence);
          evidenceOf.set(dup.id, have);
        }
        // The same observed fix in another folder: the kept lesson now covers both (writePlan.scopeGrowth).
        const kept = view.get(dup.id);
        const grown = m.fixKey && kept?.kind === 'lesson' ? scopeGrowth(kept, m) : undefined;
        if (grown) batch.push({ type: 'updated', id: dup.id, at: now, patch: grown, reason: 'same error fixed the same way elsewhere (import)' });
        for (const evidenceId of m.evidence.filter(e => view.has(e) || recorded.has(e))) {
          if (have.has(evidenceId)) continue;
          have.add(evidenceId);
          batch.push({ type: 'evidence', id: dup.id, at: now, evidenceId, reason: 'same error fixed the same way (import)' });
        }
        merged.add(dup.id);
        report.merged!++;
        report.skipped++;
        if (batch.length >= batchSize) await flush();
        continue;
      }
    }
    // A line with its own id is kept as itself, but a later id-less repeat merges into it.
    if (m.kind === 'lesson') dedup.add(m);
    batch.push({ type: 'recorded', id: m.id, at: now, memory: m });
    recorded.add(m.id);
    report.imported++;
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return report;
}
