// Realistic, varied memories for the store benches: the 122 lessons of bench/data/memories.jsonl (real
// tool output of ~60 error families: tsc, node, python, rustc, gcc, ld, javac, jest, pytest, npm, shell, …)
// copied into a 40-package monorepo, each copy with its own identifiers, file names, line numbers and
// wording, so the word dictionary and the signature keys grow the way a real store's do instead of
// repeating 122 texts. Deterministic: the same (n, seed) always gives the same lessons and queries.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE = readFileSync(join(root, 'bench/data/memories.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));

export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PACKAGES = Array.from({ length: 40 }, (_, i) => `packages/p${i}`);
const PARTS = ('user order invoice cart session token config loader parser render widget cache queue worker job '
  + 'payment account profile report export import search index metric event stream buffer socket client server '
  + 'router handler service store model schema entity record batch task plan build deploy bundle asset image '
  + 'file path module plugin hook state action reducer effect context provider theme layout table grid form').split(' ');
const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const cap = s => s[0].toUpperCase() + s.slice(1);

/** A new identifier in the style of the one it replaces (camelCase, PascalCase, snake_case). */
function renameIdent(id, r) {
  const a = pick(r, PARTS), b = pick(r, PARTS);
  if (/^[A-Z]/.test(id)) return cap(a) + cap(b);
  if (id.includes('_')) return `${a}_${b}`;
  return a + cap(b);
}

/** The lesson's error output with its names, files and numbers varied; the tool's wording kept. */
function varyError(text, r, pkg) {
  const names = new Map();
  return text
    .replace(/'([A-Za-z_][\w]*)'/g, (all, id) => {
      if (r() < 0.35) return all; // some names stay: real stores repeat the same errors too
      if (!names.has(id)) names.set(id, renameIdent(id, r));
      return `'${names.get(id)}'`;
    })
    .replace(/\b(src|lib|app|tests?)\/([\w/.-]+?)\.(ts|tsx|js|py|rs|java|c|cpp|go)\b/g,
      (_, dir, _file, ext) => `${pkg}/${dir}/${pick(r, PARTS)}/${pick(r, PARTS)}${cap(pick(r, PARTS))}.${ext}`)
    .replace(/\((\d+),(\d+)\)/g, () => `(${1 + Math.floor(r() * 400)},${1 + Math.floor(r() * 60)})`)
    .replace(/:(\d+):(\d+)\b/g, () => `:${1 + Math.floor(r() * 400)}:${1 + Math.floor(r() * 60)}`);
}

/** `n` lessons as import lines (JSON objects). */
export function variedLessons(n, seed = 20261201) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < n; i++) {
    const b = BASE[i % BASE.length];
    const v = Math.floor(i / BASE.length);
    const pkg = PACKAGES[Math.floor(r() * PACKAGES.length)];
    const name = pkg.split('/')[1];
    const errorSignature = v === 0 ? b.errorSignature : varyError(b.errorSignature, r, pkg);
    const scope = r() < 0.25 ? [] : (b.scope ?? []).map(g => `${pkg}/${g.replace(/^\*\*\//, '')}`);
    const area = `${pick(r, PARTS)} ${pick(r, PARTS)}`;
    out.push({
      kind: 'lesson', id: `${b.id}.v${v}`, errorSignature,
      rootCause: `${b.rootCause}${v ? ` Seen in the ${area} code of ${name}.` : ''}`,
      fixApproach: `${b.fixApproach}${r() < 0.3 ? ` Then re-run the ${name} ${pick(r, ['build', 'tests', 'linter', 'type check'])}.` : ''}`,
      scope, stack: b.stack ?? [], errorCategory: b.errorCategory, tags: [...(b.tags ?? []), name],
      createdAt: Date.UTC(2026, 0, 1) + Math.floor(r() * 300) * 86_400_000,
    });
  }
  return out;
}

/** What an agent or the hover asks: a stored error's output (or its main line), from a file in its scope. */
export function recallQueries(lessons, count, seed = 7) {
  const r = rng(seed);
  const qs = [];
  for (let i = 0; i < count; i++) {
    const m = lessons[Math.floor(r() * lessons.length)];
    const lines = m.errorSignature.split('\n').map(l => l.trim()).filter(Boolean);
    const main = lines.find(l => /\berror\b|Error|Exception|error\[|failed|not found/i.test(l)) ?? lines[0];
    const text = r() < 0.5 ? m.errorSignature : main;
    const dir = m.scope[0]?.replace(/\/?\*\*.*$/, '') || pick(r, PACKAGES);
    qs.push({ text, file: `${dir}/feature/file${i % 17}.ts`, expect: m.id });
  }
  return qs;
}

/** The text FTS5 indexes for a lesson: what Engram indexes too (cause, fix, error, category, tags). */
export function lessonText(m) {
  return [m.rootCause, m.fixApproach, m.errorSignature, m.errorCategory, (m.stack ?? []).join(' '), (m.tags ?? []).join(' ')].filter(Boolean).join('\n');
}
