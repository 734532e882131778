// Stale guard (pure part): a memory that names files, folders or symbols which no longer exist describes
// code that is gone, and recalling it would mislead. The probe is supplied by the caller (the extension's
// workspace file system and symbol provider, or plain fs in the CLI), with a time budget.
import type { HistoryEntry, Memory } from './types';
import { workspaceRelativePath } from './workspacePath';

export interface StaleProbe {
  fileExists(rel: string): Promise<boolean>;
  globHasMatch(glob: string): Promise<boolean>;
  /** undefined = cannot tell (no symbol provider, not indexed yet): never counts as missing. */
  symbolExists?(name: string): Promise<boolean | undefined>;
}

export interface StaleRefs {
  /** Workspace-relative file paths named in the memory's text or scope. */
  files: string[];
  /** Scope globs with wildcards. */
  globs: string[];
  /** Code identifiers the memory's explanation relies on. */
  symbols: string[];
}

const EXT = 'ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonc|py|rs|go|java|kt|kts|scala|c|h|cc|cpp|hpp|cs|rb|php|swift|vue|svelte|astro|css|scss|less|html|md|yml|yaml|toml|sh|sql|proto|graphql|gradle|xml';
// A relative path with at least one folder, ending in a known extension; `(3,5)` or `:3:5` may follow.
const PATH_RE = new RegExp(String.raw`(?:^|[\s'"\`(\[<=,])((?:\.{1,2}/)?(?:[\w@$+-][\w@$.+-]*/)+[\w@$+.-]*\.(?:${EXT}))(?=$|[\s'"\`)\]>:,;(])`, 'gm');
const BACKTICK_RE = /`([A-Za-z_$][\w$]*)`/g;
const DECL_RE = /\b(?:function\*?|class|interface|enum|def|fn|func|struct|trait)\s+([A-Za-z_$][\w$]*)|\b(?:export\s+)?(?:const|let|var|type)\s+([A-Za-z_$][\w$]*)\s*[=:<]/g;
const KEYWORDS = new Set(['constructor', 'undefined', 'function', 'return', 'string', 'number', 'boolean', 'Promise', 'Array', 'Object', 'String', 'Number', 'Boolean', 'Error', 'TypeError', 'JSON', 'Math', 'Date', 'Map', 'Set', 'RegExp', 'Symbol', 'console', 'process', 'require', 'module', 'exports', 'default', 'async', 'await', 'import', 'export']);

function cleanPath(p: string): string | undefined {
  const f = workspaceRelativePath(p); // undefined: it could point outside the workspace
  if (f === undefined) return undefined;
  if (/(^|\/)node_modules\//.test(f)) return undefined; // depends on installs, not on the code
  if (/[<>]/.test(f)) return undefined; // a masked placeholder
  return f;
}

/** A symbol worth checking: compound identifiers (camelCase, PascalCase words, snake_case), never keywords. */
function looksLikeSymbol(name: string): boolean {
  if (name.length < 4 || KEYWORDS.has(name)) return false;
  return /[a-z][A-Z]/.test(name) || /^[A-Z][a-z]+[A-Z]/.test(name) || /[A-Za-z]_[A-Za-z]/.test(name);
}

/**
 * Text whose file mentions make a memory depend on those files: its explanation. Paths in error output,
 * triggers and code excerpts are incidental (a temp file, a build output, one of many files with the same
 * error, or relative to another file): deleting one of them does not make the cause and fix wrong. When
 * the code a memory is about is gone as a whole, its scope stops matching, and that is checked.
 */
function textsOf(m: Memory): { prose: string[]; code: string[] } {
  switch (m.kind) {
    case 'lesson': return { prose: [m.rootCause, m.fixApproach], code: [] };
    case 'episode': return { prose: [m.resolution ?? '', ...m.lessonsLearned], code: [m.codeBefore ?? ''] };
    case 'fact': return { prose: [m.content], code: [] };
    case 'rule': return { prose: [m.instruction], code: [] };
  }
}

/** Files, globs and symbols a memory depends on: its scope, paths and `backticked` identifiers in its
 * explanation, and declarations in its code excerpt. Error text can name missing symbols and incidental
 * files by nature, so it is not used. */
export function extractRefs(m: Memory): StaleRefs {
  // State never mutates a memory in place (every event makes a new object), so the object is the revision.
  const cached = refsCache.get(m);
  if (cached) return cached;
  const refs = computeRefs(m);
  refsCache.set(m, refs);
  return refs;
}

const refsCache = new WeakMap<Memory, StaleRefs>();

function computeRefs(m: Memory): StaleRefs {
  const files = new Set<string>();
  const globs = new Set<string>();
  const symbols = new Set<string>();
  for (const g of m.scope) {
    const s = g.trim().replace(/\\/g, '/').replace(/^\.\//, '');
    if (!s || s === '**' || s === '**/*') continue;
    if (/[*?[{]/.test(s)) globs.add(s);
    else globs.add(s.replace(/\/$/, '')); // a bare file or folder: "has a match" covers both
  }
  const { prose, code } = textsOf(m);
  for (const t of prose) {
    for (const match of (t || '').matchAll(PATH_RE)) { const c = cleanPath(match[1]); if (c) files.add(c); }
  }
  for (const t of prose) for (const match of (t || '').matchAll(BACKTICK_RE)) if (looksLikeSymbol(match[1])) symbols.add(match[1]);
  for (const t of code) for (const match of (t || '').matchAll(DECL_RE)) { const n = match[1] ?? match[2]; if (n && looksLikeSymbol(n)) symbols.add(n); }
  return { files: [...files].sort(), globs: [...globs].sort(), symbols: [...symbols].sort() };
}

class BudgetExceeded extends Error {}

/**
 * Why the memory is stale, or undefined (fresh, or could not tell within `budgetMs`). Stale when its scope
 * matches no file, when every file it names is gone, or when every symbol it relies on is known to be gone.
 * Unknowns never count: a slow disk or a missing symbol provider never quarantines anything.
 */
export async function checkStale(m: Memory, probe: StaleProbe, budgetMs: number, now: () => number = Date.now): Promise<string | undefined> {
  const refs = extractRefs(m);
  if (!refs.files.length && !refs.globs.length && !refs.symbols.length) return undefined;
  const deadline = now() + Math.max(0, budgetMs);
  const within = async <T>(p: Promise<T>): Promise<T> => {
    const left = deadline - now();
    if (left <= 0) throw new BudgetExceeded();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new BudgetExceeded()), left); });
    try { return await Promise.race([p, timeout]); } finally { clearTimeout(timer); }
  };
  try {
    if (refs.globs.length) {
      const dead: string[] = [];
      for (const g of refs.globs) if (!(await within(probe.globHasMatch(g)))) dead.push(g);
      if (dead.length === refs.globs.length) return `its scope ${dead.join(', ')} matches no file any more`;
    }
    if (refs.files.length) {
      const gone: string[] = [];
      for (const f of refs.files) if (!(await within(probe.fileExists(f)))) gone.push(f);
      if (gone.length === refs.files.length) return gone.length === 1 ? `${gone[0]} no longer exists` : `none of the files it names exist any more (${gone.slice(0, 3).join(', ')}${gone.length > 3 ? ', …' : ''})`;
    }
    if (refs.symbols.length && probe.symbolExists) {
      const missing: string[] = [];
      for (const s of refs.symbols) {
        const exists = await within(probe.symbolExists(s));
        if (exists !== false) return undefined; // present or unknown
        missing.push(s);
      }
      return `the symbol${missing.length > 1 ? 's' : ''} ${missing.join(', ')} no longer exist${missing.length > 1 ? '' : 's'}`;
    }
  } catch (e) {
    if (e instanceof BudgetExceeded) return undefined;
    throw e;
  }
  return undefined;
}

/**
 * Results per memory revision (id + updatedAt), for `ttlMs`; `invalidate(file)` drops the entries of
 * memories that name a deleted file so they are checked again at once.
 */
export class StaleCache {
  private readonly entries = new Map<string, { key: string; reason: string | undefined; at: number; files: string[] }>();
  constructor(private readonly ttlMs = 5 * 60_000, private readonly max = 5000) {}

  private static key(m: Memory): string { return `${m.id}@${m.updatedAt}`; }

  get(m: Memory, now = Date.now()): { hit: true; reason: string | undefined } | { hit: false } {
    const e = this.entries.get(m.id);
    if (!e || e.key !== StaleCache.key(m) || now - e.at > this.ttlMs) return { hit: false };
    return { hit: true, reason: e.reason };
  }

  set(m: Memory, reason: string | undefined, now = Date.now()): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(m.id, { key: StaleCache.key(m), reason, at: now, files: extractRefs(m).files });
  }

  /** Drops every entry (or those naming `file`); returns the ids dropped. */
  invalidate(file?: string): string[] {
    const dropped: string[] = [];
    for (const [id, e] of this.entries) {
      if (file === undefined || e.files.some(f => f === file || f.startsWith(`${file}/`))) { this.entries.delete(id); dropped.push(id); }
    }
    return dropped;
  }
}

/** Memories whose references include `file` (or something under the folder `file`). */
export function memoriesNaming(memories: Iterable<Memory>, file: string): Memory[] {
  const f = file.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '');
  const out: Memory[] = [];
  for (const m of memories) {
    const refs = extractRefs(m);
    if (refs.files.some(x => x === f || x.startsWith(`${f}/`)) || refs.globs.some(g => g === f || g.startsWith(`${f}/`))) out.push(m);
  }
  return out;
}

/**
 * The user restored this revision of a quarantined memory (a `restored` event since its last edit): it
 * is not quarantined again for the same reason. Read from the store's history, so every process that
 * shares the store (the window, `engram mcp`) honours a restore made in any of them.
 */
export function restoredRevision(m: Memory, history: readonly HistoryEntry[]): boolean {
  return history.some(h => h.type === 'restored' && h.at >= m.updatedAt);
}

export interface StaleVerdictInput {
  cache: StaleCache;
  probe: StaleProbe;
  budgetMs: number;
  /** The memory's history in the store (for a restore since its last edit). */
  history: readonly HistoryEntry[];
  /** The caller knows of a restore the store does not show (the window's older per-workspace list). */
  exempt?: boolean;
}

/**
 * One memory's verdict as every surface decides it: a quarantined memory is stale for its recorded
 * reason; a restored revision is fresh; otherwise the (cached) check. `found` is a new finding, which
 * the caller quarantines so the other surfaces stop recalling it too.
 */
export async function staleVerdict(m: Memory, o: StaleVerdictInput): Promise<{ reason?: string; found: boolean }> {
  if (m.quarantined) return { reason: m.quarantined.reason, found: false };
  if (o.exempt || restoredRevision(m, o.history)) return { found: false };
  const hit = o.cache.get(m);
  if (hit.hit) return { reason: hit.reason, found: false };
  const reason = await checkStale(m, o.probe, o.budgetMs);
  o.cache.set(m, reason);
  return { reason, found: !!reason };
}
