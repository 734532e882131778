// Sets keys of one table (`[a.b]`), or removes it with its sub-tables, in a TOML document by editing its
// lines only, so every other byte of the user's file stays as it was: comments, order, spacing, line
// endings, the final newline (or its absence), and the user's own keys in our table (cwd,
// startup_timeout_sec, enabled, an env sub-table). A TOML library would re-serialise the whole file and
// lose the comments, so one (smol-toml, a maintained spec-compliant parser) only checks: the file before
// (a duplicate table or key, or anything else invalid, is refused untouched) and the file after (it must
// parse to the same document with exactly our keys changed). The scanner below knows just enough TOML to
// find table headers and key lines safely (strings, multi-line strings, nested arrays and inline tables,
// comments); anything it cannot read is reported too.
import { parse as parseToml } from 'smol-toml';

export type TomlValue = string | string[];

interface Header { line: number; path: string[]; array: boolean }
interface KeyLine { line: number; path: string[]; table: string[] }
interface Scan { lines: string[]; eol: string; headers: Header[]; keys: KeyLine[] }

const SEG = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const PATH = String.raw`${SEG}(?:\s*\.\s*${SEG})*`;
const HEADER = new RegExp(String.raw`^\s*(\[\[?)\s*(${PATH})\s*(\]\]?)\s*(?:#.*)?$`);
const KEY = new RegExp(String.raw`^\s*(${PATH})\s*=`);

function parsePath(p: string): string[] {
  const out: string[] = [];
  const re = new RegExp(SEG, 'g');
  for (const m of p.match(re) ?? []) {
    if (m.startsWith('"')) { try { out.push(JSON.parse(m) as string); } catch { out.push(m.slice(1, -1)); } } else if (m.startsWith("'")) out.push(m.slice(1, -1));
    else out.push(m);
  }
  return out;
}

/** Lines (each without its line break), or an error naming the first line it cannot read. */
export function scanToml(text: string): Scan | { error: string } {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const headers: Header[] = [];
  const keys: KeyLine[] = [];
  let table: string[] = [];
  let depth = 0;
  let ml: '"""' | "'''" | undefined;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    let i = 0;
    if (!ml && depth === 0) {
      const t = line.trim();
      if (!t || t.startsWith('#')) continue;
      if (t.startsWith('[')) {
        const m = HEADER.exec(line);
        if (!m || (m[1] === '[[') !== (m[3] === ']]')) return { error: `line ${n + 1} is a table header Engram cannot read` };
        table = parsePath(m[2]);
        headers.push({ line: n, path: table, array: m[1] === '[[' });
        continue;
      }
      const k = KEY.exec(line);
      if (!k) return { error: `line ${n + 1} is neither a key = value nor a table header` };
      keys.push({ line: n, path: [...table, ...parsePath(k[1])], table });
      i = k[0].length;
    }
    // The rest of the line is (part of) a value: follow strings, brackets and comments.
    while (i < line.length) {
      if (ml) {
        const close = ml === '"""' ? findBasicClose(line, i) : line.indexOf("'''", i);
        if (close < 0) { i = line.length; break; }
        i = close + 3; ml = undefined; continue;
      }
      const c = line[i];
      if (c === '#') break;
      if (line.startsWith('"""', i) || line.startsWith("'''", i)) { ml = line.slice(i, i + 3) as '"""' | "'''"; i += 3; continue; }
      if (c === '"') {
        const end = findBasicEnd(line, i + 1);
        if (end < 0) return { error: `line ${n + 1} has a string that does not end` };
        i = end + 1; continue;
      }
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return { error: `line ${n + 1} has a string that does not end` };
        i = end + 1; continue;
      }
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') { if (--depth < 0) return { error: `line ${n + 1} closes a bracket it never opened` }; }
      i++;
    }
  }
  if (ml) return { error: 'a multi-line string does not end' };
  if (depth) return { error: 'an array or inline table does not end' };
  return { lines, eol, headers, keys };
}

function findBasicEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) { if (line[i] === '\\') i++; else if (line[i] === '"') return i; }
  return -1;
}
function findBasicClose(line: string, from: number): number {
  for (let i = from; i < line.length; i++) { if (line[i] === '\\') i++; else if (line.startsWith('"""', i)) return i; }
  return -1;
}

const startsWith = (p: string[], prefix: string[]) => prefix.every((s, i) => p[i] === s);
const samePath = (a: string[], b: string[]) => a.length === b.length && startsWith(a, b);

/** A TOML basic string (JSON's escapes are a subset of TOML's), or an array of them. */
function render(v: TomlValue): string {
  return Array.isArray(v) ? `[${v.map(s => JSON.stringify(s)).join(', ')}]` : JSON.stringify(v);
}

export function renderTable(path: string[], entries: Record<string, TomlValue>): string[] {
  const key = (s: string) => (/^[A-Za-z0-9_-]+$/.test(s) ? s : JSON.stringify(s));
  return [`[${path.map(key).join('.')}]`, ...Object.entries(entries).map(([k, v]) => `${key(k)} = ${render(v)}`)];
}

/** Line ranges [start, end) of the table at `path` and its sub-tables; an error when it is defined in a form we do not edit. */
function regions(scan: Scan, path: string[]): { ranges: [number, number][] } | { error: string } {
  const parent = path.slice(0, -1);
  for (const k of scan.keys) {
    if (startsWith(k.table, path)) continue; // a key of our own table
    if (startsWith(k.path, path) || (k.path.length <= parent.length && samePath(k.path, parent.slice(0, k.path.length)))) {
      // Dotted keys or an inline table (`mcp_servers = { … }`): a header for ours would be invalid TOML there.
      return { error: `line ${k.line + 1} defines ${k.path.join('.')} inline; Engram edits only a [${path.join('.')}] table` };
    }
  }
  const ranges: [number, number][] = [];
  scan.headers.forEach((h, idx) => {
    if (h.array && (startsWith(h.path, path) || startsWith(path, h.path))) ranges.push([-1, -1]);
    if (!startsWith(h.path, path)) return;
    let end = idx + 1 < scan.headers.length ? scan.headers[idx + 1].line : scan.lines.length;
    // Blank lines and comments just above the next table belong to that table.
    while (end > h.line + 1 && /^\s*(#.*)?$/.test(scan.lines[end - 1])) end--;
    ranges.push([h.line, end]);
  });
  if (ranges.some(r => r[0] < 0)) return { error: `${path.slice(0, -1).join('.')} is an array of tables; Engram edits only a [${path.join('.')}] table` };
  return { ranges };
}

export type TableChange = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

/** The parsed document, or why it is not valid TOML. */
function validToml(text: string): { doc: Record<string, unknown> } | { error: string } {
  try { return { doc: parseToml(text) as Record<string, unknown> }; } catch (e) {
    return { error: `it is not valid TOML (${((e as Error).message.split('\n')[0] ?? '').trim()})` };
  }
}

/** A copy of `doc` with the value at `path` replaced (undefined: removed), for comparing before and after. */
function withAt(doc: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  let o = copy;
  for (const seg of path.slice(0, -1)) {
    if (typeof o[seg] !== 'object' || o[seg] === null) o[seg] = {};
    o = o[seg] as Record<string, unknown>;
  }
  if (value === undefined) delete o[path[path.length - 1]]; else o[path[path.length - 1]] = value;
  return copy;
}

/** Equal as documents: tables compare without regard to key order (TOML's are unordered), and a table
 * left empty counts as absent (`[mcp_servers]` with nothing in it says nothing). */
function same(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown => {
    if (v instanceof Date) return v.toISOString();
    if (Array.isArray(v)) return v.map(canon);
    if (typeof v !== 'object' || v === null) return v;
    const entries = Object.keys(v).sort().map(k => [k, canon((v as Record<string, unknown>)[k])] as const);
    return Object.fromEntries(entries.filter(([, x]) => !(typeof x === 'object' && x !== null && !Array.isArray(x) && !Object.keys(x).length)));
  };
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

/** Lines [start, end) of the value of the key at `line`: up to the next key or header, less trailing blanks and comments. */
function keyRange(scan: Scan, line: number): [number, number] {
  const next = [...scan.keys.map(k => k.line), ...scan.headers.map(h => h.line)].filter(n => n > line).sort((a, b) => a - b)[0] ?? scan.lines.length;
  let end = next;
  while (end > line + 1 && /^\s*(#.*)?$/.test(scan.lines[end - 1])) end--;
  return [line, end];
}

/**
 * The document with `entries` set in the table at `path` (the table added at the end when it is not
 * there), every other line kept; `table` is the table's own lines as they now read.
 */
export function setTable(text: string, path: string[], entries: Record<string, TomlValue>, remove: string[] = []): { text: string; change: TableChange; table: string } | { error: string } {
  const scan = scanToml(text);
  if ('error' in scan) return scan;
  const r = regions(scan, path);
  if ('error' in r) return r;
  const valid = validToml(text);
  if ('error' in valid) return valid;
  const eol = scan.eol;
  const own = scan.headers.find(h => !h.array && samePath(h.path, path));
  let lines = [...scan.lines];
  if (!own) {
    const block = renderTable(path, entries);
    if (!text.trim()) lines = [...block, ''];
    // After one blank line; a file without a final line break gets none after our table either, so
    // removing it gives the file back as it was.
    else lines = lines[lines.length - 1] === '' ? [...lines.slice(0, -1), '', ...block, ''] : [...lines, '', ...block];
  } else {
    // Our keys in place, in the order the table has them; every other key of the table stays.
    const edits: { at: [number, number]; with: string[] }[] = [];
    const missing: string[] = [];
    for (const [k, v] of Object.entries(entries)) {
      const line = renderTable(path, { [k]: v })[1];
      const key = scan.keys.find(x => samePath(x.table, path) && samePath(x.path, [...path, k]));
      if (key) edits.push({ at: keyRange(scan, key.line), with: [line] });
      else missing.push(line);
    }
    // After the last of our keys the table has (command before args, as Codex's docs write them).
    const anchor = edits.length ? Math.max(...edits.map(e => e.at[1])) : own.line + 1;
    if (missing.length) edits.push({ at: [anchor, anchor], with: missing });
    // Keys of ours that the new entry does not have (command and args when it becomes a URL): they go.
    for (const k of remove) {
      if (k in entries) continue;
      const key = scan.keys.find(x => samePath(x.table, path) && samePath(x.path, [...path, k]));
      if (key) edits.push({ at: keyRange(scan, key.line), with: [] });
    }
    // At one line, a removal before an insertion there: the inserted lines are not what it removes.
    for (const e of edits.sort((a, b) => b.at[0] - a.at[0] || (b.at[1] - b.at[0]) - (a.at[1] - a.at[0]))) lines.splice(e.at[0], e.at[1] - e.at[0], ...e.with);
  }
  const out = lines.join(eol);
  const after = validToml(out);
  const current = readAt(valid.doc, path) as Record<string, unknown> | undefined;
  const kept = { ...(current ?? {}), ...entries };
  for (const k of remove) if (!(k in entries)) delete kept[k];
  const expected = withAt(valid.doc, path, kept);
  if ('error' in after || !same(after.doc, expected)) return { error: 'the edit would not read back as written' };
  const table = tableText(out, path);
  return { text: out, change: out === text ? 'unchanged' : own ? 'updated' : 'added', table };
}

function readAt(doc: Record<string, unknown>, path: string[]): unknown {
  let o: unknown = doc;
  for (const seg of path) o = typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[seg] : undefined;
  return o;
}

/** The document without the table and its sub-tables (and the one blank line that set it apart). */
export function removeTable(text: string, path: string[]): { text: string; change: TableChange } | { error: string } {
  const scan = scanToml(text);
  if ('error' in scan) return scan;
  const r = regions(scan, path);
  if ('error' in r) return r;
  const valid = validToml(text);
  if ('error' in valid) return valid;
  if (!r.ranges.length) return { text, change: 'absent' };
  let lines = cut(scan.lines, widen(scan.lines, r.ranges));
  // The table was the end of a file with no final line break: the line before it ends the file again.
  if (scan.lines[scan.lines.length - 1] !== '' && lines[lines.length - 1] === '') lines = lines.slice(0, -1);
  const out = lines.join(scan.eol);
  const after = validToml(out);
  if ('error' in after || !same(after.doc, withAt(valid.doc, path, undefined))) return { error: 'the edit would not read back as written' };
  return { text: out, change: 'removed' };
}

/** Each range with the one blank line above it (what set it apart when it was added). */
function widen(lines: string[], ranges: [number, number][]): [number, number][] {
  return ranges.map(([a, b]): [number, number] => [a > 0 && lines[a - 1].trim() === '' ? a - 1 : a, b]);
}

function cut(lines: string[], ranges: [number, number][]): string[] {
  return lines.filter((_, i) => !ranges.some(([a, b]) => i >= a && i < b));
}

/** The table's own lines (its sub-tables left out), as `engram connect` prints them. */
function tableText(text: string, path: string[]): string {
  const scan = scanToml(text);
  if ('error' in scan) return '';
  const h = scan.headers.findIndex(x => !x.array && samePath(x.path, path));
  if (h < 0) return '';
  let end = h + 1 < scan.headers.length ? scan.headers[h + 1].line : scan.lines.length;
  while (end > scan.headers[h].line + 1 && /^\s*(#.*)?$/.test(scan.lines[end - 1])) end--;
  return scan.lines.slice(scan.headers[h].line, end).join('\n');
}
