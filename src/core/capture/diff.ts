// Line diffs between a file's text when an episode began and at its end, split into hunks with line
// numbers, so a lesson can say which change mattered (the hunk at the error's line, a config key, an
// import) instead of pairing the first removed line with the first added one. Pure and bounded.

export interface Hunk {
  /** 1-based first line of the hunk in the old and the new text (context included). */
  oldStart: number;
  newStart: number;
  /** Unified-style lines: ' ' context, '-' removed, '+' added. */
  lines: string[];
  removed: string[];
  added: string[];
  /** 0-based lines of the new text that this hunk added or changed (for matching an error's line). */
  newFrom: number;
  newTo: number;
  /** 0-based lines of the new text that were added, in order. */
  addedAt: number[];
  /** For JSON files: the key path enclosing the first added/changed line, e.g. "compilerOptions". */
  keyPath?: string;
}

export interface FileDiff {
  file: string;
  /** Bounded unified diff of the whole file (all hunks). */
  diff: string;
  added: number;
  removed: number;
  hunks: Hunk[];
  /** The file did not exist when the episode began (created by an editor, a command or an agent). */
  created?: boolean;
  /** The file was deleted. */
  deleted?: boolean;
  /** `diff` is a one-line summary, not a unified diff (a lockfile: the packages it gained and lost). */
  summary?: boolean;
  /** First changed lines that say something, for one-line descriptions. */
  firstRemoved?: string;
  firstAdded?: string;
}

const CONTEXT = 2;
/** Above this many changed lines on either side, skip the LCS and show the blocks as they are. */
const LCS_LIMIT = 400;

type Op = { op: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function middleOps(midA: string[], midB: string[]): Op[] {
  const ops: Op[] = [];
  if (midA.length > LCS_LIMIT || midB.length > LCS_LIMIT) {
    for (const line of midA) ops.push({ op: '-', line });
    for (const line of midB) ops.push({ op: '+', line });
    return ops;
  }
  const n = midA.length, m = midB.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) {
    lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) { ops.push({ op: ' ', line: midA[i] }); i++; j++; }
    // Removals before additions, as in unified diffs.
    else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) { ops.push({ op: '-', line: midA[i] }); i++; }
    else { ops.push({ op: '+', line: midB[j] }); j++; }
  }
  return ops;
}

/** Groups the ops into hunks: changes closer than 2×CONTEXT unchanged lines share a hunk. */
function toHunks(a: string[], ops: Op[], start: number): Hunk[] {
  // Full op list with the common prefix/suffix as context, tracking line numbers on both sides.
  const hunks: Hunk[] = [];
  let oldLine = start, newLine = start; // 0-based positions of the next op
  let cur: Hunk | undefined;
  let keepRun: Op[] = [];
  const flushKeep = (final: boolean) => {
    if (!cur) return;
    if (final || keepRun.length > 2 * CONTEXT) {
      cur.lines.push(...keepRun.slice(0, CONTEXT).map(o => ` ${o.line}`));
      hunks.push(cur);
      cur = undefined;
    } else {
      cur.lines.push(...keepRun.map(o => ` ${o.line}`));
    }
  };
  for (const o of ops) {
    if (o.op === ' ') { keepRun.push(o); oldLine++; newLine++; continue; }
    if (!cur || keepRun.length > 2 * CONTEXT) {
      flushKeep(true);
      const lead = keepRun.length ? keepRun.slice(-CONTEXT) : a.slice(Math.max(0, oldLine - CONTEXT), oldLine).map(line => ({ op: ' ' as const, line }));
      cur = { oldStart: oldLine - lead.length + 1, newStart: newLine - lead.length + 1, lines: lead.map(x => ` ${x.line}`), removed: [], added: [], newFrom: newLine, newTo: newLine, addedAt: [] };
    } else {
      cur.lines.push(...keepRun.map(x => ` ${x.line}`));
    }
    keepRun = [];
    cur.lines.push(`${o.op}${o.line}`);
    if (o.op === '-') { cur.removed.push(o.line); oldLine++; cur.newTo = Math.max(cur.newTo, newLine); }
    else { cur.added.push(o.line); cur.addedAt.push(newLine); cur.newTo = newLine; newLine++; }
  }
  if (cur) {
    const trail = keepRun.length ? keepRun : a.slice(oldLine, oldLine + CONTEXT).map(line => ({ op: ' ' as const, line }));
    cur.lines.push(...trail.slice(0, CONTEXT).map(x => ` ${x.line}`));
    hunks.push(cur);
  }
  return hunks;
}

/** The first changed line that says something (not just a brace), else the first changed line. */
function telling(lines: string[]): string | undefined {
  return lines.find(l => /[A-Za-z0-9]/.test(l)) ?? lines[0];
}

/**
 * Line diff as hunks, rendered as a unified diff of at most `maxChars`; undefined when nothing changed.
 * `before` undefined means the file was created; `after` undefined means it was deleted.
 */
export function lineDiff(file: string, before: string | undefined, after: string | undefined, maxChars = 2000): FileDiff | undefined {
  const created = before === undefined;
  const deleted = after === undefined;
  if (created && deleted) return undefined;
  if (!created && !deleted && before === after) return undefined;
  const a = before ? splitLines(before) : [];
  const b = after ? splitLines(after) : [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const ops: Op[] = [...middleOps(a.slice(start, endA), b.slice(start, endB)), ...a.slice(endA).map(line => ({ op: ' ' as const, line }))];
  const hunks = toHunks(a, ops, start);
  if (/\.jsonc?$|(^|\/)\.?[\w.-]*rc$/.test(file)) {
    // Where the first added line that says something sits (not the brace or comma an edit moved).
    for (const h of hunks) {
      const i = h.added.findIndex(l => /[\p{L}\p{N}]/u.test(l));
      const k = jsonKeyPath(b, i >= 0 ? h.addedAt[i] : h.newFrom);
      if (k) h.keyPath = k;
    }
  }
  const added = hunks.reduce((n, h) => n + h.added.length, 0);
  const removed = hunks.reduce((n, h) => n + h.removed.length, 0);
  const header = `--- ${created ? '/dev/null' : file}\n+++ ${deleted ? '/dev/null' : file}`;
  let body = hunks.map(h => {
    const oldLen = h.lines.filter(l => l[0] !== '+').length;
    const newLen = h.lines.filter(l => l[0] !== '-').length;
    return `@@ -${h.oldStart},${oldLen} +${h.newStart},${newLen} @@\n${h.lines.join('\n')}`;
  }).join('\n');
  if (body.length > maxChars) body = body.slice(0, maxChars) + `\n… (${body.length - maxChars} more characters)`;
  const d: FileDiff = {
    file, diff: body ? `${header}\n${body}` : header, added, removed, hunks,
    firstRemoved: telling(hunks.flatMap(h => h.removed)),
    firstAdded: telling(hunks.flatMap(h => h.added)),
  };
  if (created) d.created = true;
  if (deleted) d.deleted = true;
  return d;
}

/**
 * The keys of the objects enclosing line `upto` (0-based) of a JSON text, joined with dots: a line scan
 * of `"key": {` openings and closing braces, good enough for config files formatted one key per line.
 */
export function jsonKeyPath(lines: readonly string[], upto: number): string | undefined {
  const stack: (string | undefined)[] = [];
  for (let i = 0; i < Math.min(upto, lines.length); i++) {
    const line = lines[i].replace(/"(?:[^"\\]|\\.)*"/g, m => m.replace(/[{}[\]]/g, ''));
    const key = /^\s*"((?:[^"\\]|\\.)*)"\s*:\s*[{[]/.exec(lines[i])?.[1];
    for (const ch of line) {
      if (ch === '{' || ch === '[') { stack.push(key); }
      else if (ch === '}' || ch === ']') stack.pop();
    }
  }
  const keys = stack.filter((k): k is string => !!k);
  return keys.length ? keys.join('.') : undefined;
}

/**
 * Diffs of the touched files between their text when the episode began (`before`; null = did not exist)
 * and at its end (`after`; null = deleted). Files with no known before-text are skipped: nothing is
 * claimed about a file whose starting point was not seen.
 */
export function diffsOf(files: readonly string[], before: ReadonlyMap<string, string | null>, after: ReadonlyMap<string, string | null>, maxFiles: number): FileDiff[] {
  const out: FileDiff[] = [];
  for (const file of files) {
    if (out.length >= maxFiles) break;
    if (!before.has(file) || !after.has(file)) continue;
    const d = lineDiff(file, before.get(file) ?? undefined, after.get(file) ?? undefined);
    if (d) out.push(d);
  }
  return out;
}

/** The first changed line of `after` (0-based), for placing the "code after" excerpt. */
export function firstChangedLine(before: string, after: string): number | undefined {
  if (before === after) return undefined;
  const a = splitLines(before), b = splitLines(after);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Lines around `line` (0-based), numbered, bounded. */
export function excerptAround(text: string, line: number, radius = 3, maxChars = 1500): string {
  const lines = splitLines(text);
  const from = Math.max(0, line - radius);
  const to = Math.min(lines.length, line + radius + 1);
  const out = lines.slice(from, to).map((l, k) => `${String(from + k + 1).padStart(4)}| ${l}`).join('\n');
  return out.length > maxChars ? out.slice(0, maxChars) + '…' : out;
}
