// The v0.1 deterministic lesson writer (src/core/episodeSummary.ts at f820181), kept as the baseline
// bench/lessons.mjs measures next to the current one. Not part of the product.
// Deterministic templates that turn an ended episode into the Episode and Lesson memories: the summary,
// the root cause and the fix approach are written from what was observed (the error, the diff, the
// command), so they are always available, offline, and never invented. A language model may replace the
// summary later; these stay the fallback. Masking is the caller's job (before anything is written).
import type { Episode, Lesson, Owner, Outcome } from '../../src/core/types';
import type { TrackedEpisode } from '../../src/core/episodeTracker';

export interface FileDiff {
  file: string;
  /** Small unified-style diff (bounded). */
  diff: string;
  added: number;
  removed: number;
  /** First changed lines, for one-line descriptions. */
  firstRemoved?: string;
  firstAdded?: string;
}

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
  return diffs.map(d => `${d.file} (+${d.added} −${d.removed})`).join(', ');
}

function lineChange(d: FileDiff | undefined): string {
  if (!d) return '';
  const before = d.firstRemoved !== undefined ? `\`${clip(d.firstRemoved.trim(), 120)}\`` : undefined;
  const after = d.firstAdded !== undefined ? `\`${clip(d.firstAdded.trim(), 120)}\`` : undefined;
  if (before && after) return `${before} → ${after}`;
  if (after) return `added ${after}`;
  if (before) return `removed ${before}`;
  return '';
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

/** Root cause and fix approach from what changed. Deterministic; says only what was observed. */
export function lessonTemplate(m: EpisodeMaterial): { rootCause: string; fixApproach: string } {
  const t = m.tracked;
  const msg = clip(firstLine(t.error?.message), 200) || 'the error';
  const main = (t.file ? m.diffs.find(d => d.file === t.file) : undefined) ?? m.diffs[0];
  const change = lineChange(main);
  const others = m.diffs.filter(d => d !== main).map(d => d.file);
  const also = others.length ? ` (also changed ${others.join(', ')})` : '';
  if (t.outcome !== 'success') {
    const tried = m.diffs.length ? `Tried changing ${changedFiles(m.diffs)}` : 'No change was recorded';
    return {
      rootCause: t.note ? `Not resolved: ${t.note}` : `Not resolved: "${msg}" remained (${t.resolution ?? t.outcome}).`,
      fixApproach: `${tried}; this did not fix it.`,
    };
  }
  if (t.source === 'terminal') {
    const cmd = t.command?.line ?? '?';
    const passing = t.fixedBy && t.fixedBy.line.trim() !== cmd.trim() ? ` (passing run: \`${t.fixedBy.line}\`)` : '';
    // Files touched without a diff (created/deleted outside an editor) still say where the fix was.
    const touched = t.files.length ? t.files.slice(0, 5).join(', ') : '';
    return {
      rootCause: main
        ? `\`${cmd}\` failed with "${msg}" because of code in ${main.file}${change ? ` that was changed: ${change}` : ''}${also}.`
        : touched
          ? `\`${cmd}\` failed with "${msg}"; it passed after changes to ${touched}.`
          : `\`${cmd}\` failed with "${msg}"; it passed again with no file change recorded (an external cause such as the environment or input).`,
      fixApproach: main
        ? `Changed ${changedFiles(m.diffs)}${change ? `: ${change}` : ''}, then re-ran \`${cmd}\`${passing}.`
        : touched ? `Changed ${touched}, then re-ran \`${cmd}\`${passing}.` : `Re-ran \`${cmd}\`${passing}.`,
    };
  }
  const where = t.file ? `${t.file}${t.error?.line !== undefined ? `:${t.error.line + 1}` : ''}` : 'the file';
  return {
    rootCause: main
      ? `${t.error?.code ?? 'The error'} at ${where} came from code that the fix changed in ${main.file}${change ? `: ${change}` : ''}${also}.`
      : `${t.error?.code ?? 'The error'} at ${where} went away without a recorded edit (another change, e.g. on disk or a dependency).`,
    fixApproach: main ? `Edit ${main.file}${change ? `: ${change}` : ''}${also}.` : 'No edit recorded; the error cleared after related changes.',
  };
}

function tagsOf(t: TrackedEpisode): string[] {
  const tags = ['captured', t.source];
  if (t.error?.tool) tags.push(t.error.tool);
  if (t.error?.code) tags.push(t.error.code);
  return [...new Set(tags)];
}

export function buildEpisode(m: EpisodeMaterial, id: string, summary?: string): Episode {
  const t = m.tracked;
  const outcome: Outcome = t.outcome ?? 'abandoned';
  const endedAt = t.endedAt ?? m.now;
  const lessons = outcome === 'success' || outcome === 'failure' || outcome === 'partial' ? [lessonTemplate(m).fixApproach] : [];
  const ep: Episode = {
    id, kind: 'episode', owner: m.owner, createdAt: m.now, updatedAt: m.now, accessCount: 0,
    importance: IMPORTANCE[outcome], source: 'captured', tags: tagsOf(t), scope: m.scope,
    confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    startedAt: t.startedAt, endedAt, duration: Math.max(0, endedAt - t.startedAt),
    trigger: triggerText(t),
    goal: t.source === 'terminal' ? `make \`${t.command?.line ?? ''}\` pass` : `clear ${t.error?.code ?? 'the error'} in ${t.file ?? 'the file'}`,
    domain: m.domain,
    steps: t.steps.map(s => {
      const d = s.action.startsWith('edit ') ? m.diffs.find(x => `edit ${x.file}` === s.action) : undefined;
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
  if (m.codeBefore !== undefined) ep.codeBefore = m.codeBefore;
  if (m.codeAfter !== undefined) ep.codeAfter = m.codeAfter;
  return ep;
}

/** A lesson for success/failure/partial episodes with a signature; abandoned episodes teach nothing. */
export function buildLesson(m: EpisodeMaterial, episode: Episode, id: string): Lesson | undefined {
  const t = m.tracked;
  if (!t.error || !t.outcome || t.outcome === 'abandoned') return undefined;
  const { rootCause, fixApproach } = lessonTemplate(m);
  return {
    id, kind: 'lesson', owner: m.owner, createdAt: m.now, updatedAt: m.now, accessCount: 0,
    importance: IMPORTANCE[t.outcome], source: 'captured', tags: tagsOf(t), scope: m.scope,
    confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    errorSignature: t.error.key,
    errorText: clip(t.error.message.trim(), 2000),
    errorCategory: t.error.family,
    stack: [...new Set([m.domain.replace(/^terminal:/, ''), t.error.tool].filter(Boolean))],
    rootCause, fixApproach,
    evidence: [episode.id],
    outcome: t.outcome,
  };
}
