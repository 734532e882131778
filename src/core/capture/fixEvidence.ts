// What actually fixed an episode, from what was observed between the error and its fix: the diff hunks
// that matter (at the error's line, in config files, imports) and the commands that plausibly fixed it
// (installs, generators, config), never the re-run itself. The lesson writer words these; nothing here
// claims a file that did not change or a command that did not run and succeed.
import { normaliseCommand } from '../commandLine';
import type { TrackedEpisode } from '../episodeTracker';
import type { FileDiff, Hunk } from './diff';

const MAX_CHANGE_CHARS = 1500;
const MAX_COMMANDS = 4;

/** Commands that change the environment rather than test it: what fixes "module not found", "no config". */
const FIX_COMMAND = new RegExp([
  String.raw`^(?:npm|pnpm|yarn|bun)\s+(?:i|install|add|ci|remove|rm|uninstall|un|update|up|upgrade|link|rebuild|dedupe|config\s+set|pkg\s+set)\b`,
  String.raw`^(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:[\w:-]*(?:generate|codegen|migrate|prepare|setup|bootstrap)[\w:-]*)\b`,
  String.raw`^(?:npx|pnpx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+[\w@/.-]+\s+(?:generate|migrate|init|push|install|add)\b`,
  String.raw`^(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|pipx)\s+(?:install|uninstall)\b`,
  String.raw`^(?:poetry|uv|pdm|pipenv)\s+(?:add|install|remove|sync|lock)\b`,
  String.raw`^(?:cargo)\s+(?:add|remove|update|install|fetch|generate-lockfile)\b`,
  String.raw`^go\s+(?:get|install|mod\s+(?:tidy|download|vendor))\b`,
  String.raw`^(?:gem|bundle|bundler)\s+(?:install|add|update)\b`,
  String.raw`^(?:composer)\s+(?:require|install|update|dump-autoload)\b`,
  String.raw`^(?:mvn|gradle|\.\/gradlew|gradlew)\b.*\b(?:install|dependency:resolve|--refresh-dependencies)\b`,
  String.raw`^(?:sudo\s+)?(?:apt|apt-get|dnf|yum|apk|brew|pacman)\s+(?:install|add|-S)\b`,
  String.raw`^git\s+(?:config|submodule\s+(?:update|init)|checkout\s+--|restore|lfs\s+pull|stash)\b`,
  String.raw`^(?:touch|mkdir|cp|mv|ln|chmod|chown|rm|unzip|tar\s+-?x)\b`,
  String.raw`^(?:export|set|setx)\s+\w+=`,
  String.raw`^[\w./-]*(?:prisma|drizzle-kit|sequelize|knex|alembic|flyway|typeorm|protoc|buf|openapi-generator|graphql-codegen)\b`,
  String.raw`^(?:python3?\s+)?manage\.py\s+(?:migrate|makemigrations|collectstatic)\b`,
  String.raw`^(?:docker|podman)\s+(?:compose\s+)?(?:up|start|pull|build)\b`,
  String.raw`^(?:createdb|dropdb|psql\s.*-c\s)`,
].join('|'));

/** Strip leading env assignments and `sudo`, for classification. */
function commandBody(line: string): string {
  let tokens = line.trim().split(/\s+/).filter(Boolean);
  while (tokens.length > 1 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0]) || tokens[0] === 'sudo')) tokens = tokens.slice(1);
  return tokens.join(' ');
}

/** Does this command change the environment in a way that can fix an error (install, generate, config)? */
export function isFixCommand(line: string): boolean {
  return FIX_COMMAND.test(commandBody(line));
}

/** Words of an error message that can tie a command to it: module and package names, file names. */
function errorAnchors(t: TrackedEpisode): Set<string> {
  const out = new Set<string>();
  const text = [t.error?.message ?? '', t.command?.output ?? ''].join('\n').slice(0, 4000);
  for (const m of text.matchAll(/['"`‘’“”]([@\w./-]{2,80})['"`‘’“”]/g)) {
    const spec = m[1];
    out.add(spec.toLowerCase());
    // "@scope/pkg/sub" and "pkg/sub" are installed as "@scope/pkg" and "pkg"; "a.b" (Python) as "a".
    const parts = spec.split('/');
    out.add((spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]).toLowerCase());
    out.add(spec.split('.')[0].toLowerCase());
    const base = parts[parts.length - 1];
    if (base) out.add(base.toLowerCase());
  }
  for (const m of text.matchAll(/\b([\w-]+\.(?:py|ts|tsx|js|jsx|mjs|cjs|json|toml|ya?ml|rs|go|java|c|h|cpp|rb|env|cfg|ini|lock))\b/g)) out.add(m[1].toLowerCase());
  for (const f of t.files) out.add(f.split('/').pop()!.toLowerCase());
  out.delete('');
  return out;
}

const MODULE_FAMILY = /module|import|package|dependency|not[- ]found|cannot find|no such|unresolved|E0432|E0433|TS2307|ERR_MODULE/i;

/** Is `line` plausibly about this episode? Used both to attach steps and to credit a command as the fix. */
export function commandConcerns(t: TrackedEpisode, line: string): boolean {
  const body = commandBody(line).toLowerCase();
  if (t.source === 'terminal' && t.command) {
    // Anything run in between the failure and the passing re-run is part of the attempt.
    return true;
  }
  const words = body.split(/[\s=:'"]+/).map(w => w.replace(/^[./]+/, '').replace(/@[\d^~<>=.*x-]+$/, ''));
  const anchors = errorAnchors(t);
  if (words.some(w => w.length > 1 && (anchors.has(w) || anchors.has(w.split('/').pop()!)))) return true;
  // A bare install ("npm install", "pip install -r requirements.txt") concerns missing-module errors.
  const family = `${t.error?.family ?? ''} ${t.error?.code ?? ''} ${t.error?.message ?? ''}`;
  return isFixCommand(line) && /\b(?:install|i|add|ci|sync|get|fetch|tidy)\b/.test(body) && MODULE_FAMILY.test(family);
}

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

/** Same line but for trailing commas, semicolons and whitespace: a by-product of an edit next to it. */
function cosmetic(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/[,;]+$/, '').trim();
  return norm(a) === norm(b);
}

/** The hunk's meaningful removed/added lines: cosmetic pairs and blank lines dropped. */
export function meaningfulLines(h: Hunk): { removed: string[]; added: string[] } {
  const removed = [...h.removed];
  const added = [...h.added];
  for (let i = removed.length - 1; i >= 0; i--) {
    const j = added.findIndex(x => cosmetic(x, removed[i]));
    if (j >= 0) { removed.splice(i, 1); added.splice(j, 1); }
  }
  const keep = (l: string) => l.trim() !== '';
  return { removed: removed.filter(keep), added: added.filter(keep) };
}

/** Says something: not only braces, brackets and punctuation. */
function telling(lines: readonly string[]): boolean {
  return lines.some(l => /[\p{L}\p{N}]/u.test(l));
}

export interface RankedHunk { diff: FileDiff; hunk: Hunk; score: number }

/** Hunks in the order they matter for this error: at its line, in its file, config, imports. */
export function rankHunks(t: TrackedEpisode, diffs: readonly FileDiff[]): RankedHunk[] {
  const out: RankedHunk[] = [];
  diffs.forEach((d, fileOrder) => {
    for (const h of d.hunks) {
      const m = meaningfulLines(h);
      if (!telling(m.removed) && !telling(m.added)) continue; // whitespace or punctuation only
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
      out.push({ diff: d, hunk: h, score });
    }
  });
  return out.sort((a, b) => b.score - a.score);
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
export function describeHunk(d: FileDiff, h: Hunk): string {
  const { removed, added } = meaningfulLines(h);
  const where = h.keyPath ? ` to \`${h.keyPath}\` in ${d.file}` : ` in ${d.file}`;
  const line = ` (line ${h.newFrom + 1})`;
  if (removed.length && added.length) return `changed ${codeSpan(removed)} to ${codeSpan(added)} in ${d.file}${h.keyPath ? ` (\`${h.keyPath}\`)` : line}`;
  if (added.length) return `added ${codeSpan(added)}${where}${h.keyPath ? '' : line}`;
  return `removed ${codeSpan(removed)} from ${d.file}${h.keyPath ? ` (\`${h.keyPath}\`)` : line}`;
}

/** A file-level change in words, for created/deleted files. */
function describeFile(d: FileDiff): string | undefined {
  if (d.deleted) return `deleted ${d.file}`;
  if (d.created) {
    const body = d.hunks.flatMap(h => meaningfulLines(h).added);
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
}

/** Normalised identity of what was done: two lessons merge only when this matches. */
function fixKeyOf(commands: readonly string[], ranked: readonly RankedHunk[]): string | undefined {
  if (commands.length) return 'cmd:' + commands.map(c => commandBody(c).replace(/\s+/g, ' ').toLowerCase()).sort().join(' && ');
  const top = ranked[0];
  if (!top) return undefined;
  const { removed, added } = meaningfulLines(top.hunk);
  // Identifiers vary between projects; the shape of the change (what kind of line was added) does not.
  const shape = (ls: string[]) => ls.map(l => l.trim().toLowerCase().replace(/\s+/g, ' ')).join('\n');
  return `edit:${top.diff.file.split('/').pop()}:${top.hunk.keyPath ?? ''}:${shape(removed)}=>${shape(added)}`;
}

/**
 * Files that commands write as a consequence (lockfiles, build output, caches): a by-product of the fix or
 * of the passing re-run, never the fix itself.
 */
const GENERATED = /(^|\/)(?:node_modules|dist|build|out|target|coverage|\.next|\.nuxt|\.turbo|\.cache|__pycache__|\.pytest_cache|\.mypy_cache|\.venv|venv|\.gradle|bin|obj)\/|(^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|composer\.lock|Gemfile\.lock|go\.sum)$|\.(?:o|obj|a|so|dylib|class|pyc|pyo|tsbuildinfo|map|log)$/;

export function isGenerated(file: string): boolean {
  return GENERATED.test(file);
}

/** Package manifests an install command edits itself (npm install x adds x to package.json). */
const MANIFEST = /(^|\/)(?:package\.json|requirements[\w.-]*\.txt|pyproject\.toml|Pipfile|Cargo\.toml|go\.mod|Gemfile|composer\.json)$/;
const INSTALLS = /\b(?:i|install|add|remove|rm|uninstall|un|update|up|upgrade|get|require|sync|tidy)\b/;

export function fixEvidence(t: TrackedEpisode, allDiffs: readonly FileDiff[]): FixEvidence {
  const commands = t.outcome === 'success' || t.outcome === 'partial' ? fixCommands(t) : [];
  // When an install ran, the manifest's new entry is its consequence: the command is the fix.
  const installed = commands.some(c => INSTALLS.test(commandBody(c)));
  const diffs = allDiffs.filter(d => !isGenerated(d.file) && !(installed && MANIFEST.test(d.file)));
  const ranked = rankHunks(t, diffs);
  const changedFiles = diffs.filter(d => d.hunks.length || d.created || d.deleted).map(d => d.file);
  const actions: string[] = [];
  if (commands.length) actions.push(`ran ${commands.map(c => '`' + clip(c, 120) + '`').join(', then ')}`);
  const fileLevel = diffs.map(describeFile).filter((s): s is string => !!s);
  const seenFiles = new Set<string>();
  for (const s of fileLevel) if (actions.length < 3) actions.push(s);
  for (const d of diffs) if (d.created || d.deleted) seenFiles.add(d.file);
  for (const r of ranked) {
    if (actions.length >= 3) break;
    if (seenFiles.has(r.diff.file) && (r.diff.created || r.diff.deleted)) continue;
    actions.push(describeHunk(r.diff, r.hunk));
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
  return { change, commands, actions, changedFiles, explained, ...(fixKey ? { fixKey } : {}) };
}
