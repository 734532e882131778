// Deterministic templates that turn an ended episode into the Episode and Lesson memories: the summary,
// the root cause and the fix approach are written from what was observed (the error, the diff, the
// command), so they are always available, offline, and never invented. A language model may replace the
// summary later; these stay the fallback. Masking is the caller's job (before anything is written).
import type { Episode, Lesson, Owner, Outcome } from './types';
import type { TrackedEpisode } from './episodeTracker';
import type { FileDiff } from './capture/diff';
import { fixEvidence, type FixEvidence } from './capture/fixEvidence';
import { extractErrors } from './extract';
import { normaliseSignature } from './signature';

export type { FileDiff } from './capture/diff';

export interface EpisodeMaterial {
  tracked: TrackedEpisode;
  diffs: FileDiff[];
  codeBefore?: string;
  codeAfter?: string;
  /** Workspace-relative globs (narrowestGlobs of the files). */
  scope: string[];
  /** e.g. "typescript", "terminal:node". */
  domain: string;
  owner: Owner;
  now: number;
}

const IMPORTANCE: Record<Outcome, number> = { success: 0.6, failure: 0.5, partial: 0.4, abandoned: 0.2 };

export function describeDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n').map(l => l.trim()).find(Boolean) ?? '';
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/** What the error was, in one line: "TS2322 in src/a.ts: Type … " or "`npm test` failed: …". */
export function triggerText(t: TrackedEpisode): string {
  const msg = clip(firstLine(t.error?.message), 200);
  if (t.source === 'terminal') {
    const exit = t.command?.exitCode !== undefined ? ` (exit ${t.command.exitCode})` : '';
    return `\`${t.command?.line ?? '?'}\` failed${exit}${msg ? `: ${msg}` : ''}`;
  }
  const code = t.error?.code ? `${t.error.code} ` : '';
  const where = t.file ? `${t.file}${t.error?.line !== undefined ? `:${t.error.line + 1}` : ''}` : '';
  return `${code}in ${where}: ${msg}`.trim();
}

/** One line per changed file: "src/a.ts (+1 −1)". */
function changedFiles(diffs: FileDiff[]): string {
  return diffs.map(d => (d.summary ? d.diff : `${d.file} (+${d.added} −${d.removed})`)).join(', ');
}

export function summaryTemplate(m: EpisodeMaterial): string {
  const t = m.tracked;
  const took = describeDuration((t.endedAt ?? m.now) - t.startedAt);
  const trigger = triggerText(t);
  const changed = m.diffs.length ? `; changed ${changedFiles(m.diffs)}` : '';
  switch (t.outcome) {
    case 'success':
      return t.source === 'terminal'
        ? `${trigger} — passed again after ${took}${changed}.`
        : `Fixed ${trigger} in ${took}${changed}.`;
    case 'partial':
      return `Partly resolved ${trigger} after ${took}${t.resolution ? ` (${t.resolution})` : ''}${changed}.`;
    case 'failure':
      return `Could not fix ${trigger} (${took})${t.note ? `: ${t.note}` : ''}${changed}.`;
    default:
      return `Left ${trigger} after ${took}${t.resolution ? ` (${t.resolution})` : ''}.`;
  }
}

function capitalise(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** The error in one clause: "`python app.py` failed with "…"" or "TS2307 at src/a.ts:3 ("…")". */
function errorClause(t: TrackedEpisode): string {
  const first = clip(firstLine(t.error?.message), 200) || 'the error';
  // Which test failed tells one assertion failure from another (extract.ts appends it as "test: …").
  const test = /^test: (.+)$/m.exec(t.error?.message ?? '')?.[1];
  const msg = test ? `${first}" in test "${clip(test, 160)}` : first;
  if (t.source === 'terminal') return `\`${t.command?.line ?? '?'}\` failed with ${t.error?.code && !msg.includes(t.error.code) ? `${t.error.code} ` : ''}"${msg}"`;
  const where = t.file ? `${t.file}${t.error?.line !== undefined ? `:${t.error.line + 1}` : ''}` : 'the file';
  // The errors that went with it in the same update are part of what the lesson is about (their rules too).
  const also = (t.alsoCleared ?? []).slice(0, 3).map(e => `${e.code ? `${e.code} ` : ''}"${clip(firstLine(e.message), 120)}"`);
  return `${t.error?.code ? `${t.error.code} ` : ''}"${msg}" at ${where}${also.length ? ` (with ${also.join(', ')})` : ''}`;
}

/** The error an episode's error turned into: `TS2322 "Type 'string' is not assignable …"`. */
function changedClause(e: { code?: string; message: string }): string {
  const first = clip(firstLine(e.message), 160);
  return `${e.code && !first.includes(e.code) ? `${e.code} ` : ''}"${first}"`;
}

export interface LessonText {
  rootCause: string;
  fixApproach: string;
  evidence: FixEvidence;
}

/**
 * Root cause and fix approach from what was observed (fixEvidence): the commands that fixed it and the
 * hunks that matter. Deterministic and never false: where the why is unknown it says what was seen; a
 * file is named only when it really changed. Nothing observed → an unexplained lesson.
 */
export function lessonTemplate(m: EpisodeMaterial): LessonText {
  const t = m.tracked;
  const ev = fixEvidence(t, m.diffs);
  const error = errorClause(t);
  if (t.outcome !== 'success') {
    const tried = ev.actions.length ? `Tried: ${ev.actions.join('; ')}` : 'No change was recorded';
    return {
      rootCause: t.note ? `Not resolved: ${t.note}` : `Not resolved: ${error} remained (${t.resolution ?? t.outcome}).`,
      fixApproach: `${tried}; this did not fix it.`,
      evidence: ev,
    };
  }
  // The error turned into a different one: what ran in between resolved this one, and says so.
  if (t.changedTo && ev.explained) {
    const then = `${t.source === 'terminal' ? `\`${t.command?.line ?? '?'}\`` : 'it'} then failed with ${changedClause(t.changedTo)} instead`;
    return {
      rootCause: `${error}; it cleared after Engram saw: ${ev.actions.join('; ')}; ${then} (a different error: the next episode).`,
      fixApproach: `${capitalise(ev.actions.join('; '))}; ${then}.`,
      evidence: ev,
    };
  }
  // The passing re-run belongs to the story (root cause), not to the fix: it changed nothing.
  const rerun = t.source === 'terminal' ? t.fixedBy?.line ?? t.command?.line : undefined;
  if (!ev.explained) {
    // A README edit before a flaky test passed is not its fix: say what changed and that it cannot explain it.
    const seen = ev.inert.length ? `with only ${clip(ev.inert.join(', '), 160)} changed (documentation or comments, which cannot fix it)` : 'with no edit or command observed (fixed outside the editor, or by a change elsewhere)';
    return {
      rootCause: `${error}; it cleared ${seen}${rerun ? `, and \`${rerun}\` passed` : ''}.`,
      fixApproach: 'Unexplained: no fix was observed.',
      evidence: ev,
    };
  }
  return {
    rootCause: `${error}; it cleared after Engram saw: ${ev.actions.join('; ')}${rerun ? `; then \`${rerun}\` passed` : ''}.`,
    fixApproach: `${capitalise(ev.actions.join('; '))}.`,
    evidence: ev,
  };
}

/** Signatures a lesson is found by besides its own: the errors met on the way and the ones cleared with it. */
const MAX_OTHER_SIGNATURES = 8;

/**
 * The other errors the failing run printed, when the re-run then passed: one fix cleared them all, and
 * the one that names the fix may not be the first (`Cannot find name 'process'` beside `Cannot find
 * module 'fs'`, both cleared by `@types/node`). Not when the error turned into another one: what that
 * run still printed is not known here, so nothing is claimed for it.
 */
export function clearedWith(t: TrackedEpisode): { key: string; message: string }[] {
  if (t.alsoCleared?.length) return t.alsoCleared.slice(0, MAX_OTHER_SIGNATURES).map(e => ({ key: e.key, message: e.message }));
  if (t.source !== 'terminal' || t.outcome !== 'success' || t.changedTo || !t.command?.output || !t.error) return [];
  const out: { key: string; message: string }[] = [];
  const seen = new Set([t.error.key]);
  // What the passing run still printed (a warning it prints every time) was not cleared by the fix.
  const after = t.fixedBy?.output ?? '';
  for (const e of extractErrors(t.command.output, { command: t.command.line, limit: 40 })) {
    if (e.wrapper || e.guess || (after && after.includes(e.message.split('\n')[0]))) continue;
    const key = normaliseSignature(e.message, e.tool, e.code).key;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, message: e.message });
    if (out.length >= MAX_OTHER_SIGNATURES) break;
  }
  return out;
}

function tagsOf(t: TrackedEpisode): string[] {
  const tags = ['captured', t.source];
  if (t.error?.tool) tags.push(t.error.tool);
  if (t.error?.code) tags.push(t.error.code);
  return [...new Set(tags)];
}

/** `lesson`: the material's lessonTemplate when the caller has it already (it is worked out once). */
export function buildEpisode(m: EpisodeMaterial, id: string, summary?: string, lesson?: LessonText): Episode {
  const t = m.tracked;
  const outcome: Outcome = t.outcome ?? 'abandoned';
  const endedAt = t.endedAt ?? m.now;
  const text = outcome === 'success' || outcome === 'failure' || outcome === 'partial' ? lesson ?? lessonTemplate(m) : undefined;
  const lessons = text ? [text.fixApproach] : [];
  const ep: Episode = {
    id, kind: 'episode', owner: m.owner, createdAt: m.now, updatedAt: m.now, accessCount: 0,
    importance: IMPORTANCE[outcome], source: 'captured', tags: tagsOf(t), scope: m.scope,
    confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    startedAt: t.startedAt, endedAt, duration: Math.max(0, endedAt - t.startedAt),
    trigger: triggerText(t),
    goal: t.source === 'terminal' ? `make \`${t.command?.line ?? ''}\` pass` : `clear ${t.error?.code ?? 'the error'} in ${t.file ?? 'the file'}`,
    domain: m.domain,
    // A file's whole diff goes on its last edit step only: two runs of edits to one file show it once.
    steps: t.steps.map((s, i) => {
      const d = s.action.startsWith('edit ') && !t.steps.slice(i + 1).some(x => x.action === s.action) ? m.diffs.find(x => `edit ${x.file}` === s.action) : undefined;
      return d ? { ...s, detail: d.diff } : { ...s };
    }),
    toolsUsed: [...new Set([t.source === 'terminal' ? 'terminal' : 'editor', ...(t.error?.tool ? [t.error.tool] : [])])],
    outcome,
    resolution: t.resolution,
    lessonsLearned: lessons,
    files: [...t.files],
    sourceIds: [...t.sourceIds],
    summary: summary ?? summaryTemplate(m),
    errorSignature: t.error?.key,
  };
  if (text && outcome === 'success' && text.evidence.explained) {
    ep.fixAction = text.fixApproach;
    if (text.evidence.fixKey) ep.fixKey = text.evidence.fixKey;
  }
  if (t.nextEpisodeId) ep.nextEpisodeId = t.nextEpisodeId;
  if (m.codeBefore !== undefined) ep.codeBefore = m.codeBefore;
  if (m.codeAfter !== undefined) ep.codeAfter = m.codeAfter;
  return ep;
}

/** A lesson for success/failure/partial episodes with a signature; abandoned episodes teach nothing. */
export function buildLesson(m: EpisodeMaterial, episode: Episode, id: string, lesson?: LessonText): Lesson | undefined {
  const t = m.tracked;
  // An error that vanished with another one is in that one's lesson (clearedWith), not a lesson of its own.
  if (!t.error || !t.outcome || t.outcome === 'abandoned' || t.foldedInto) return undefined;
  const { rootCause, fixApproach, evidence: ev } = lesson ?? lessonTemplate(m);
  const unexplained = t.outcome === 'success' && !ev.explained;
  const cleared = clearedWith(t);
  const others = [...new Set([...(t.variants ?? []).map(v => v.key), ...cleared.map(c => c.key)])].filter(k => k !== t.error!.key).slice(0, MAX_OTHER_SIGNATURES);
  return {
    id, kind: 'lesson', owner: m.owner, createdAt: m.now, updatedAt: m.now, accessCount: 0,
    // An unexplained lesson is kept (the error happened and cleared) but ranks low and never climbs.
    importance: unexplained ? 0.1 : IMPORTANCE[t.outcome], source: 'captured', tags: unexplained ? [...tagsOf(t), 'unexplained'] : tagsOf(t), scope: m.scope,
    confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    errorSignature: t.error.key,
    // The errors met on the way belong to the lesson too: the next person may meet the later one first.
    errorText: clip([t.error.message.trim(), ...(t.variants ?? []).map(v => `then: ${firstLine(v.message)}`), ...cleared.map(c => `also: ${firstLine(c.message)}`)].join('\n'), 2000),
    errorCategory: t.error.family,
    stack: [...new Set([m.domain.replace(/^terminal:/, ''), t.error.tool].filter(Boolean))],
    rootCause, fixApproach,
    evidence: [episode.id],
    outcome: t.outcome,
    author: 'template',
    ...(ev.change ? { change: ev.change } : {}),
    ...(ev.commands.length ? { commands: ev.commands } : {}),
    ...(ev.fixKey ? { fixKey: ev.fixKey } : {}),
    ...(unexplained ? { unexplained: true } : {}),
    ...(others.length ? { variantSignatures: others } : {}),
  };
}
