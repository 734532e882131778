// An ended episode → the Episode and Lesson memories, masked. One function for live capture (the
// Finalizer, after it has read the files' end texts) and for replay, so both write the same lessons.
// The episode's material is masked here, once: it is where the outside text (error output, commands,
// file contents) enters the memories. What is built from it afterwards (templates, the model's evidence
// and prompt, the memories) is made of masked parts and our own words, so it is not masked again.
import type { TrackedEpisode } from '../episodeTracker';
import { buildEpisode, buildLesson, lessonTemplate, type EpisodeMaterial, type LessonText } from '../episodeSummary';
import { maskDeep, type Masked, type MaskedDeep } from '../mask';
import { narrowestGlobs } from '../scope';
import { globProblem } from '../scopeCheck';
import type { Episode, Lesson, Owner } from '../types';
import { diffsOf, excerptAround, firstChangedLine, type FileDiff } from './diff';
import { buildOutputDirs, isGenerated } from './fixEvidence';
import { isLockfile, lockfileChange } from './lockfiles';

const MAX_DIFF_FILES = 12;

export interface EndedEpisode {
  tracked: TrackedEpisode;
  /** Text of the touched files when they first mattered to the episode; null = did not exist yet. */
  before: ReadonlyMap<string, string | null>;
  /** Their text at the end; null = deleted. A file missing from either map is not diffed. */
  after: ReadonlyMap<string, string | null>;
  /** The code around the error when the episode opened. */
  codeBefore?: string;
  /** e.g. "typescript", "terminal:node". */
  domain: string;
  /** Files the lesson applies to beside the episode's own (the error's file, the one looked at): scope only, never diffed. */
  scopeFiles?: readonly string[];
}

/** An episode's material after masking: the only material episodeMemories accepts. */
export type MaskedMaterial = MaskedDeep<EpisodeMaterial>;

/** Diffs, excerpts and scope of an ended episode, masked: neither the store nor a model sees a secret. */
export function episodeMaterial(e: EndedEpisode, owner: Owner, now: number): MaskedMaterial {
  // Build output and lockfiles are by-products: never in the episode's files, its scope or a diff. A
  // lockfile's change is kept as one line of what it installed ("package-lock.json: +typescript@7.0.2").
  const outDirs = tsconfigOutDirs(e);
  const all = e.tracked.files;
  const t: TrackedEpisode = { ...e.tracked, files: all.filter(f => !isGenerated(f, outDirs)) };
  const locks = all.filter(f => isLockfile(f) && e.before.has(f) && e.after.has(f) && (e.before.get(f) ?? null) !== (e.after.get(f) ?? null));
  const diffs = [...diffsOf(t.files, e.before, e.after, MAX_DIFF_FILES), ...locks.slice(0, 3).map(f => lockfileDiff(f, e.before.get(f) ?? undefined, e.after.get(f) ?? undefined))];
  let codeAfter: string | undefined;
  if (t.file && t.outcome === 'success') {
    const old = e.before.get(t.file) ?? undefined;
    const now = e.after.get(t.file) ?? undefined;
    if (now !== undefined) {
      const line = (old !== undefined ? firstChangedLine(old, now) : undefined) ?? t.error?.line ?? 0;
      codeAfter = excerptAround(now, line);
    }
  }
  return maskDeep({
    tracked: t, diffs, codeBefore: e.codeBefore, codeAfter,
    // A file name the scope rule refuses (quotes, `|`, `:`) must not cost the episode: that glob is left
    // out, and with none left the memory applies to the whole workspace.
    // The lesson applies where the error was as well as where it was fixed (a header fixed for a .c file).
    scope: narrowestGlobs(e.scopeFiles?.length ? [...t.files, ...e.scopeFiles] : t.files).filter(g => !globProblem(g)), domain: e.domain, owner, now,
  });
}

/** The output folders of the tsconfigs the episode read (tsc's outDir), so their files count as build output. */
function tsconfigOutDirs(e: EndedEpisode): string[] {
  const out: string[] = [];
  for (const map of [e.after, e.before]) {
    for (const [file, text] of map) if (text && /(?:^|\/)tsconfig[\w.-]*\.json$/.test(file)) out.push(...buildOutputDirs(file, text));
  }
  return [...new Set(out)];
}

/** A lockfile's change as a diff of one line: what it says is the packages, not its hundreds of lines. */
function lockfileDiff(file: string, before: string | undefined, after: string | undefined): FileDiff {
  return { file, diff: lockfileChange(file, before, after), added: 0, removed: 0, hunks: [], summary: true, ...(before === undefined ? { created: true } : {}) };
}

/**
 * The memories of a masked material; `summary` (a model's, masked when it came back) replaces the
 * template's. Not masked again: every string in them comes from the masked material, the summary or
 * our templates (the store's maskRecord still runs on record, as the last net).
 */
export function episodeMemories(masked: MaskedMaterial, ids: { episode: string; lesson: string }, summary?: Masked): { episode: Episode; lesson?: Lesson; text: LessonText } {
  // Worked out once: the episode's lessonsLearned, the lesson and the model's evidence all use it.
  const text = lessonTemplate(masked);
  const episode = buildEpisode(masked, ids.episode, summary, text);
  const lesson = buildLesson(masked, episode, ids.lesson, text);
  return { episode, lesson, text };
}

/** Language of a file for the episode's domain, as VS Code names it (replay has no editor to ask). */
export function languageOf(file: string): string {
  const ext = /\.([^./]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';
  return ({
    ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescriptreact', js: 'javascript', mjs: 'javascript', cjs: 'javascript',
    jsx: 'javascriptreact', py: 'python', rs: 'rust', go: 'go', java: 'java', c: 'c', h: 'c', cpp: 'cpp', cc: 'cpp', hpp: 'cpp',
    json: 'json', jsonc: 'jsonc', rb: 'ruby', php: 'php', cs: 'csharp', kt: 'kotlin', swift: 'swift', sh: 'shellscript',
    yaml: 'yaml', yml: 'yaml', toml: 'toml', md: 'markdown', vue: 'vue', svelte: 'svelte',
  } as Record<string, string>)[ext] ?? 'plaintext';
}
