// Sets or removes one table (`[a.b]` and its sub-tables) in a TOML document by editing its lines only, so
// every other byte of the user's file stays as it was: comments, order, spacing, line endings. A TOML
// library would re-serialise the whole file and lose the comments. The scanner below knows just enough
// TOML to find table headers and key lines safely (strings, multi-line strings, nested arrays and inline
// tables, comments); anything it cannot read is reported, and the caller leaves the file untouched.

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

/** The document with the table set to `entries` (added at the end when it was not there). */
export function setTable(text: string, path: string[], entries: Record<string, TomlValue>): { text: string; change: TableChange } | { error: string } {
  const scan = scanToml(text);
  if ('error' in scan) return scan;
  const r = regions(scan, path);
  if ('error' in r) return r;
  const block = renderTable(path, entries);
  const current = r.ranges.flatMap(([a, b]) => scan.lines.slice(a, b));
  if (current.join('\n') === block.join('\n')) return { text, change: 'unchanged' };
  let lines = scan.lines;
  if (r.ranges.length) {
    lines = cut(lines, widen(scan.lines, r.ranges.slice(1)));
    const [a, b] = r.ranges[0];
    lines = [...lines.slice(0, a), ...block, ...lines.slice(b)];
  } else {
    // Appended after one blank line; the last element is '' when the file ends with a line break.
    const body = lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
    lines = body.some(l => l.trim()) ? [...body, '', ...block, ''] : [...block, ''];
  }
  return { text: lines.join(scan.eol), change: r.ranges.length ? 'updated' : 'added' };
}

/** The document without the table (and the one blank line that set it apart). */
export function removeTable(text: string, path: string[]): { text: string; change: TableChange } | { error: string } {
  const scan = scanToml(text);
  if ('error' in scan) return scan;
  const r = regions(scan, path);
  if ('error' in r) return r;
  if (!r.ranges.length) return { text, change: 'absent' };
  return { text: cut(scan.lines, widen(scan.lines, r.ranges)).join(scan.eol), change: 'removed' };
}

/** Each range with the one blank line above it (what set it apart when it was added). */
function widen(lines: string[], ranges: [number, number][]): [number, number][] {
  return ranges.map(([a, b]): [number, number] => [a > 0 && lines[a - 1].trim() === '' ? a - 1 : a, b]);
}

function cut(lines: string[], ranges: [number, number][]): string[] {
  return lines.filter((_, i) => !ranges.some(([a, b]) => i >= a && i < b));
}

/** The table's own lines as the scanner sees them (for checking a write). */
export function tableLines(text: string, path: string[]): string[] | { error: string } {
  const scan = scanToml(text);
  if ('error' in scan) return scan;
  const r = regions(scan, path);
  if ('error' in r) return r;
  return r.ranges.flatMap(([a, b]) => scan.lines.slice(a, b));
}
