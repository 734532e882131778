// The user's client config files as `engram connect` reads and writes them: strict JSON read with every
// duplicate key refused (JSON.parse would keep the last one silently), edits made in place with
// the file's own indentation (jsonc-parser finds where), so key order, line endings, the final newline and
// every byte around the edit stay the user's, and writes
// that go through a symlink to its target (~/.claude.json kept in a dotfiles repository stays a link).
// Bundles alias jsonc-parser to its ESM build (esbuild.mjs): its default UMD build requires files at run
// time that a bundle does not carry.
import * as fs from 'fs';
import * as path from 'path';
import { applyEdits, findNodeAtLocation, modify, parseTree, type Node, type ParseError } from 'jsonc-parser';

export function readText(file: string): string | undefined {
  try { return fs.readFileSync(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The JSON object in `text`; throws a sentence for anything the user should fix by hand. */
export function parseJsonObject(text: string, file: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let v: unknown;
  try { v = JSON.parse(text); } catch (e) {
    // Never rewrite what we cannot read back exactly (JSONC comments included): the user's file wins.
    throw new Error(`${file} is not plain JSON (${(e as Error).message}); it was left untouched. Fix it, or add the entry by hand.`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${file} is not a JSON object; it was left untouched.`);
  const dup = duplicateKey(text);
  if (dup) throw new Error(`${file} has the key "${dup}" twice in one object (a client reads only one of them); it was left untouched. Fix it, or add the entry by hand.`);
  return v as Record<string, unknown>;
}

/** The first key that appears twice in one object, as a dotted path; undefined when there is none. */
function duplicateKey(text: string): string | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const walk = (n: Node | undefined, at: string): string | undefined => {
    if (!n) return undefined;
    if (n.type === 'object') {
      const seen = new Set<string>();
      for (const p of n.children ?? []) {
        const key = String(p.children?.[0]?.value);
        const here = at ? `${at}.${key}` : key;
        if (seen.has(key)) return here;
        seen.add(key);
        const d = walk(p.children?.[1], here);
        if (d) return d;
      }
    } else if (n.type === 'array') {
      for (const c of n.children ?? []) { const d = walk(c, at); if (d) return d; }
    }
    return undefined;
  };
  return walk(root, '');
}

/** The file's own style: its indentation unit and line ending (a new file: two spaces, \n). */
function style(text: string): { unit: string; eol: string } {
  return { eol: /\r\n/.test(text) ? '\r\n' : '\n', unit: /^([ \t]+)"/m.exec(text)?.[1] ?? '  ' };
}

/**
 * `text` with the value at `at` set (undefined removes it), every other byte as it was. What is written
 * is indented in the file's own style at its depth; nothing around it is reformatted (jsonc-parser's
 * formatter would re-indent a sibling written on one line, so only its parse tree and its removal are used).
 */
export function editJson(text: string, at: (string | number)[], value: unknown): string {
  const base = text.trim() ? text : '{}';
  if (value === undefined) return applyEdits(base, modify(base, at, undefined, {}));
  if (at.some(x => typeof x === 'number')) throw new Error('editJson sets object keys; appendJson adds to a list');
  return setJson(base, at as string[], value);
}

/** `text` with `value` added at the end of the list at `at` (which must exist), every other byte kept. */
export function appendJson(text: string, at: string[], value: unknown): string {
  const root = parseTree(text);
  const list = root && findNodeAtLocation(root, at);
  if (!list || list.type !== 'array') throw new Error(`"${at.join('.')}" is not a list`);
  const { unit, eol } = style(text);
  const depth = at.length;
  const item = JSON.stringify(value, null, unit).split('\n').join(eol + unit.repeat(depth + 1));
  const last = list.children?.[list.children.length - 1];
  if (last) return text.slice(0, last.offset + last.length) + `,${eol}${unit.repeat(depth + 1)}${item}` + text.slice(last.offset + last.length);
  return text.slice(0, list.offset) + `[${eol}${unit.repeat(depth + 1)}${item}${eol}${unit.repeat(depth)}]` + text.slice(list.offset + list.length);
}

/** `text` without item `index` of the list at `at` (and the comma before or after it), every other byte kept. */
export function removeJsonItem(text: string, at: string[], index: number): string {
  const root = parseTree(text);
  const list = root && findNodeAtLocation(root, at);
  const items = list?.type === 'array' ? list.children ?? [] : [];
  const item = items[index];
  if (!item) return text;
  const prev = items[index - 1];
  const next = items[index + 1];
  if (prev) return text.slice(0, prev.offset + prev.length) + text.slice(item.offset + item.length);
  if (next) return text.slice(0, item.offset) + text.slice(next.offset);
  return applyEdits(text, modify(text, [...at, index], undefined, {}));
}

function setJson(base: string, at: string[], value: unknown): string {
  const { unit, eol } = style(base);
  const pretty = (v: unknown, depth: number) => JSON.stringify(v, null, unit).split('\n').join(eol + unit.repeat(depth));
  const root = parseTree(base);
  const node = root && findNodeAtLocation(root, at);
  if (node) return base.slice(0, node.offset) + pretty(value, at.length) + base.slice(node.offset + node.length);
  // A new property at the end of the nearest object that exists, with the missing ones around the value.
  let depth = at.length - 1;
  let v = value;
  let parent = root && findNodeAtLocation(root, at.slice(0, depth));
  while (!parent && depth > 0) { v = { [at[depth]]: v }; depth--; parent = root && findNodeAtLocation(root, at.slice(0, depth)); }
  if (!parent || parent.type !== 'object') throw new Error(`"${at.slice(0, depth).join('.')}" is not an object`);
  const prop = `${JSON.stringify(at[depth])}: ${pretty(v, depth + 1)}`;
  const last = parent.children?.[parent.children.length - 1];
  if (last) return base.slice(0, last.offset + last.length) + `,${eol}${unit.repeat(depth + 1)}${prop}` + base.slice(last.offset + last.length);
  return base.slice(0, parent.offset) + `{${eol}${unit.repeat(depth + 1)}${prop}${eol}${unit.repeat(depth)}}` + base.slice(parent.offset + parent.length);
}

/** Where a write to `file` lands: the target of a symlink (the link stays), else the file itself. */
export function writeTarget(file: string): string {
  try { return fs.realpathSync(file); } catch { return file; }
}

/** Written whole and renamed into place beside the real file, with its permissions (~/.claude.json is private). */
export function writeConfigText(file: string, text: string): void {
  const target = writeTarget(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let mode = 0o644;
  try { mode = fs.statSync(target).mode & 0o777; } catch { /* a new file */ }
  const tmp = `${target}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text, { mode });
  fs.chmodSync(tmp, mode);
  fs.renameSync(tmp, target);
}
