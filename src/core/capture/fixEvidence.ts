// What actually fixed an episode, from what was observed between the error and its fix: the diff hunks
// that matter (at the error's line, in config files, imports) and the commands that plausibly fixed it
// (installs, generators, config), never the re-run itself. The lesson writer words these; nothing here
// claims a file that did not change or a command that did not run and succeed.
import type { TrackedEpisode } from '../episodeTracker';
import { commandBody, commandConcerns, isFixCommand, normaliseCommand } from './commandLines';
import type { FileDiff, Hunk } from './diff';
import { errorConcerns, isCommentOnly, isDocsFile } from './inertChange';
import { isLockfile } from './lockfiles';
import { isInstallCommand } from './packageManagers';

const MAX_CHANGE_CHARS = 1500;
const MAX_COMMANDS = 4;

export interface CommandRun { line: string; at?: number }

/**
 * Commands that ran successfully between the failure and the fix, concern this episode and change the
 * environment. The episode's own command (its re-run) is never one of them.
 */
export function fixCommands(t: TrackedEpisode): string[] {
  const own = t.command?.normalised;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of t.steps) {
    if (!s.action.startsWith('run ') || !/^passed\b/.test(s.result)) continue;
    const line = s.action.slice(4).trim();
    // The same normalisation the tracker pairs a failure with its re-run by.
    const norm = normaliseCommand(line);
    if (own && norm === own) continue;
    if (seen.has(norm) || !isFixCommand(line) || !commandConcerns(t, line)) continue;
    seen.add(norm);
    out.push(line);
  }
  return out.slice(-MAX_COMMANDS);
}

const CONFIG_FILE = /(^|\/)(?:tsconfig[\w.-]*\.json|jsconfig\.json|package\.json|\.?eslintrc[\w.]*|eslint\.config\.\w+|babel\.config\.\w+|\.babelrc|vite\.config\.\w+|vitest\.config\.\w+|jest\.config\.\w+|webpack\.config\.\w+|pyproject\.toml|setup\.cfg|setup\.py|requirements[\w.-]*\.txt|Pipfile|tox\.ini|pytest\.ini|Cargo\.toml|go\.mod|pom\.xml|build\.gradle(?:\.kts)?|Makefile|CMakeLists\.txt|\.env[\w.]*|[\w.-]+\.ya?ml|[\w.-]+\.toml|\.npmrc|\.nvmrc)$/i;
const IMPORT_LINE = /^\s*(?:import\b|export\s+\{[^}]*\}\s+from\b|from\s+[\w.]+\s+import\b|(?:const|let|var)\s+.*=\s*require\(|use\s+[\w:]+|#include\b|require\s|using\s+[\w.]+;|package\s)/;

/**
 * Languages whose indentation is syntax (Python's blocks, YAML's nesting, a Makefile's recipe tab, Haskell's
 * layout): there a line moved left or right is a real change, and can be the fix of an IndentationError.
 */
const INDENTATION_IS_SYNTAX = /\.(?:py|pyi|pyw|ya?ml|coffee|pug|jade|haml|sass|styl|nim|hs|lhs|elm|fs|fsx|mk)$|(?:^|\/)(?:GNU)?[Mm]akefile$/;

/**
 * Same line but for trailing commas, semicolons and whitespace (and indentation where it means nothing).
 * `punctuation`: a trailing comma or semicolon counts, for an episode where nothing else changed (the
 * comma a JSON parse error was about).
 */
function cosmetic(a: string, b: string, indentation: boolean, punctuation = false): boolean {
  const norm = (s: string) => (punctuation ? (indentation ? s.trimEnd() : s.trim()) : (indentation ? s.trimEnd() : s.trim()).replace(/[,;]+$/, '').trimEnd());
  return norm(a) === norm(b);
}

/** Only the indentation differs between the two sides, line by line. */
function reindented(removed: readonly string[], added: readonly string[]): boolean {
  return removed.length > 0 && removed.length === added.length && removed.every((l, i) => l.trim() === added[i].trim() && l !== added[i]);
}

/** The hunk's meaningful removed/added lines: cosmetic pairs and blank lines dropped. */
export function meaningfulLines(h: Pick<Hunk, 'removed' | 'added'>, file = '', punctuation = false): { removed: string[]; added: string[] } {
  const removed = [...h.removed];
  const added = [...h.added];
  const indentation = INDENTATION_IS_SYNTAX.test(file);
  for (let i = removed.length - 1; i >= 0; i--) {
    const j = added.findIndex(x => cosmetic(x, removed[i], indentation, punctuation));
    if (j >= 0) { removed.splice(i, 1); added.splice(j, 1); }
  }
  const keep = (l: string) => l.trim() !== '';
  return { removed: removed.filter(keep), added: added.filter(keep) };
}

/** Says something: not only braces, brackets and punctuation. */
function telling(lines: readonly string[]): boolean {
  return lines.some(l => /[\p{L}\p{N}]/u.test(l));
}

export interface RankedHunk { diff: FileDiff; hunk: Hunk; score: number; punctuation?: boolean }

/**
 * Hunks in the order they matter for this error: at its line, in its file, config, imports. A change of
 * trailing punctuation only counts when no hunk says more (`punctuation`): then it is all that changed, and
 * a missing comma is a fix.
 */
export function rankHunks(t: TrackedEpisode, diffs: readonly FileDiff[], punctuation = false): RankedHunk[] {
  const out: RankedHunk[] = [];
  diffs.forEach((d, fileOrder) => {
    for (const h of d.hunks) {
      const m = meaningfulLines(h, d.file, punctuation);
      if (!telling(m.removed) && !telling(m.added)) continue; // whitespace or punctuation only
      // A plain comment changes no behaviour, unless the error is that very line (a lint rule on comments).
      if (isCommentOnly(d.file, m) && !atErrorLine(t, d, h)) continue;
      let score = 0;
      if (t.file && d.file === t.file) {
        score += 3;
        const line = t.error?.line;
        if (line !== undefined && line >= h.newFrom - 3 && line <= h.newTo + 3) score += 4;
      }
      if (CONFIG_FILE.test(d.file)) score += 3;
      if ([...m.added, ...m.removed].some(l => IMPORT_LINE.test(l))) score += 2;
      if (d.created) score += 1;
      score -= fileOrder * 0.01; // stable: earlier-touched files first among equals
      out.push({ diff: d, hunk: h, score, ...(punctuation ? { punctuation } : {}) });
    }
  });
  return out.sort((a, b) => b.score - a.score);
}

function atErrorLine(t: TrackedEpisode, d: FileDiff, h: Hunk): boolean {
  const line = t.error?.line;
  return t.file === d.file && line !== undefined && line >= h.newFrom - 1 && line <= h.newTo + 1;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/** Lines joined into one code span: `"paths": { "@lib/*": ["src/lib/*"] }`. */
export function codeSpan(lines: readonly string[], max = 160): string {
  const text = lines.map(l => l.trim()).filter(Boolean).join(' ').replace(/\s+/g, ' ');
  return '`' + clip(text, max).replace(/`/g, "'") + '`';
}

/** One hunk in words: "added `…` to `compilerOptions` in tsconfig.json", "changed `a` to `b` in x.ts". */
export function describeHunk(d: FileDiff, h: Hunk, punctuation = false): string {
  const { removed, added } = meaningfulLines(h, d.file, punctuation);
  const where = h.keyPath ? ` to \`${h.keyPath}\` in ${d.file}` : ` in ${d.file}`;
  const line = ` (line ${h.newFrom + 1})`;
  if (reindented(removed, added)) return `changed the indentation of ${codeSpan(added)} (${indentOf(removed[0])} → ${indentOf(added[0])}) in ${d.file}${line}`;
  if (removed.length && added.length) return `changed ${codeSpan(removed)} to ${codeSpan(added)} in ${d.file}${h.keyPath ? ` (\`${h.keyPath}\`)` : line}`;
  if (added.length) return `added ${codeSpan(added)}${where}${h.keyPath ? '' : line}`;
  return `removed ${codeSpan(removed)} from ${d.file}${h.keyPath ? ` (\`${h.keyPath}\`)` : line}`;
}

/** A line's indentation in words: "8 spaces", "1 tab", "none". */
function indentOf(line: string): string {
  const lead = /^[ \t]*/.exec(line)![0];
  if (!lead) return 'none';
  const tabs = [...lead].filter(c => c === '\t').length;
  const spaces = lead.length - tabs;
  const parts = [tabs ? `${tabs} tab${tabs === 1 ? '' : 's'}` : '', spaces ? `${spaces} space${spaces === 1 ? '' : 's'}` : ''];
  return parts.filter(Boolean).join(' + ');
}

/** A file-level change in words, for created/deleted files. */
function describeFile(d: FileDiff): string | undefined {
  if (d.deleted) return `deleted ${d.file}`;
  if (d.created) {
    const body = d.hunks.flatMap(h => meaningfulLines(h, d.file).added);
    // A short file is quoted; a longer one is counted (its text is in the change), so the sentence never
    // reads as if the paths inside the new file were part of the fix.
    const telling = body.filter(l => /[\p{L}\p{N}]/u.test(l));
    if (!body.length) return `created ${d.file} (empty)`;
    return telling.length <= 2 ? `created ${d.file} with ${codeSpan(body, 120)}` : `created ${d.file} (${body.length} lines)`;
  }
  return undefined;
}

export interface FixEvidence {
  /** Bounded unified diff of the hunks that matter, most important first. */
  change: string;
  /** Fix commands, in the order they ran. */
  commands: string[];
  /** What was done, in words, most important first (at most 3 parts). */
  actions: string[];
  /** Files that really changed (diff, created or deleted). */
  changedFiles: string[];
  /** Something was observed that can explain the fix. */
  explained: boolean;
  /** Identity of the fix for merging: the same commands or the same changed lines. */
  fixKey?: string;
  /** Files that changed but cannot explain the fix (documentation, plain comments): never claimed. */
  inert: string[];
}

/** Words, numbers, quoted strings and single marks: the units a change inside a line is cut at. */
const TOKEN = /[\p{L}\p{N}_$]+|\s+|[^\p{L}\p{N}_$\s]/gu;

/**
 * What an edit changed, without the code around it that stayed: `count` → `str(count)` in
 * `return 'billing: items ' + count`. The common tokens at both ends are the place, not the change.
 */
export function changeCore(removed: readonly string[], added: readonly string[]): { removed: string; added: string } {
  const text = (ls: readonly string[]) => ls.map(l => l.trim().replace(/\s+/g, ' ')).join('\n');
  const a = text(removed).match(TOKEN) ?? [];
  const b = text(added).match(TOKEN) ?? [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  return { removed: a.slice(start, endA).join('').trim(), added: b.slice(start, endB).join('').trim() };
}

/**
 * Normalised identity of what was done: two lessons merge only when this matches. The same change is the
 * same fix whatever the file's path or name (src/config.ts, src/server/config.ts) and whatever code
 * surrounds it (`+ count` → `+ str(count)` in the billing and in the shipping report): the changed part of
 * the hunk that matters most and, in a config file, the key it went under.
 */
function fixKeyOf(commands: readonly string[], ranked: readonly RankedHunk[]): string | undefined {
  if (commands.length) return 'cmd:' + commands.map(c => commandBody(c).replace(/\s+/g, ' ').toLowerCase()).sort().join(' && ');
  const top = ranked[0];
  if (!top) return undefined;
  const { removed, added } = meaningfulLines(top.hunk, top.diff.file, top.punctuation);
  const core = changeCore(removed, added);
  // A change of indentation alone keeps its lines: without them nothing would be left to tell it by.
  const shape = core.removed || core.added ? core : { removed: removed.map(l => l.trim()).join('\n'), added: added.map(l => l.trim()).join('\n') };
  return `edit:${top.hunk.keyPath ?? ''}:${shape.removed.toLowerCase()}=>${shape.added.toLowerCase()}`;
}

/**
 * Files that commands write as a consequence (build output, caches, lockfiles): a by-product of the fix or
 * of the passing re-run, never the fix itself, never in a lesson's scope or files. The one decision of
 * what is build output: capture calls it to keep such files out of an episode's steps, the lesson writer
 * out of its fix. `outDirs`: the project's own output folders when known (tsc's outDir, buildOutputDirs).
 */
// `bin/` holds a project's own scripts as often as a build's output (bin/slugify.pl, bin/rails, bin/cli.js):
// it is output only in the configuration folders a .NET or Visual Studio build writes (bin/Debug/…).
const GENERATED = /(^|\/)(?:node_modules|dist|build|out|target|coverage|\.next|\.nuxt|\.svelte-kit|\.turbo|\.parcel-cache|\.cache|__pycache__|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.tox|\.venv|venv|\.gradle|obj|bin\/(?:Debug|Release|x64|x86|ARM64)|\.eggs|[\w.-]+\.egg-info)\/|\.(?:o|obj|a|so|dylib|dll|exe|pdb|class|pyc|pyo|tsbuildinfo|map|log)$/;

export function isGenerated(file: string, outDirs: readonly string[] = []): boolean {
  if (GENERATED.test(file) || isLockfile(file)) return true;
  return outDirs.some(d => d && (file === d.replace(/\/$/, '') || file.startsWith(d.endsWith('/') ? d : `${d}/`)));
}

/**
 * The output folders a tsconfig names (`outDir`, `declarationDir`), workspace-relative to the tsconfig's
 * folder: `build/` for `"outDir": "./build"`. The file is JSON with comments and trailing commas.
 */
export function buildOutputDirs(tsconfigPath: string, text: string): string[] {
  const base = tsconfigPath.includes('/') ? tsconfigPath.replace(/\/[^/]*$/, '/') : '';
  const out: string[] = [];
  for (const m of text.matchAll(/"(?:outDir|declarationDir)"\s*:\s*"([^"\n]{1,200})"/g)) {
    const dir = m[1].replace(/^\.\//, '').replace(/\/+$/, '');
    if (!dir || dir === '.' || dir.startsWith('..') || dir.startsWith('/')) continue;
    out.push(`${base}${dir}/`);
  }
  return out;
}

/** Package manifests an install command edits itself (npm install x adds x to package.json). */
const MANIFEST = /(^|\/)(?:package\.json|requirements[\w.-]*\.txt|pyproject\.toml|Pipfile|Cargo\.toml|go\.mod|Gemfile|composer\.json)$/;

export function fixEvidence(t: TrackedEpisode, allDiffs: readonly FileDiff[]): FixEvidence {
  const commands = t.outcome === 'success' || t.outcome === 'partial' ? fixCommands(t) : [];
  // When an install ran, the manifest's new entry is its consequence: the command is the fix.
  const installed = commands.some(isInstallCommand);
  // Documentation never fixes a compile, test or runtime error, unless the error is about that file.
  const diffs = allDiffs.filter(d => !isGenerated(d.file) && !(installed && MANIFEST.test(d.file)) && !(isDocsFile(d.file) && !errorConcerns(t, d.file)));
  const strict = rankHunks(t, diffs);
  const ranked = strict.length ? strict : rankHunks(t, diffs, true);
  const rankedFiles = new Set(ranked.map(r => r.diff.file));
  const changedFiles = diffs.filter(d => rankedFiles.has(d.file) || d.created || d.deleted).map(d => d.file);
  const inert = allDiffs.filter(d => !isGenerated(d.file) && !changedFiles.includes(d.file) && (d.hunks.length || d.created || d.deleted) && !(installed && MANIFEST.test(d.file))).map(d => d.file);
  const actions: string[] = [];
  if (commands.length) actions.push(`ran ${commands.map(c => '`' + clip(c, 120) + '`').join(', then ')}`);
  const fileLevel = diffs.map(describeFile).filter((s): s is string => !!s);
  const seenFiles = new Set<string>();
  for (const s of fileLevel) if (actions.length < 3) actions.push(s);
  for (const d of diffs) if (d.created || d.deleted) seenFiles.add(d.file);
  for (const r of ranked) {
    if (actions.length >= 3) break;
    if (seenFiles.has(r.diff.file) && (r.diff.created || r.diff.deleted)) continue;
    actions.push(describeHunk(r.diff, r.hunk, r.punctuation));
  }
  let change = '';
  for (const r of ranked) {
    const h = r.hunk;
    const block = `--- ${r.diff.file}\n+++ ${r.diff.file}\n@@ -${h.oldStart} +${h.newStart} @@${h.keyPath ? ` ${h.keyPath}` : ''}\n${h.lines.join('\n')}`;
    if (change && change.length + block.length > MAX_CHANGE_CHARS) break;
    change += (change ? '\n' : '') + block;
  }
  if (change.length > MAX_CHANGE_CHARS) change = change.slice(0, MAX_CHANGE_CHARS) + '\n…';
  const explained = commands.length > 0 || ranked.length > 0 || fileLevel.length > 0;
  const fixKey = fixKeyOf(commands, ranked);
  return { change, commands, actions, changedFiles, explained, inert, ...(fixKey ? { fixKey } : {}) };
}
