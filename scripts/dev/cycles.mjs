// Prints import cycles among our own TypeScript files and exits 1 if there is any (issue 11's measure).
// It reads the sources, not esbuild's metafile: a cycle made only of `import type` lines disappears from
// the bundles but still ties two files together for every reader and every refactor, so it counts here.
// Usage: node scripts/dev/cycles.mjs [root…]   (default: src media/src)
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['src', 'media/src'];
const cwd = process.cwd();

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(resolve(p));
  }
  return out;
}

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return undefined; // packages and node built-ins are not ours
  const base = resolve(dirname(from), spec);
  for (const f of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(f) && statSync(f).isFile()) return f;
  return undefined;
}

// Static imports and re-exports (type-only included), `import('…')` types and calls, and `require('…')`.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** file → Map(dependency → true when every import of it is type-only) */
const graph = new Map();
for (const file of roots.flatMap(r => walk(r))) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const deps = new Map();
  for (const m of text.matchAll(IMPORT)) {
    const target = resolveImport(file, m[2] ?? m[3] ?? m[4]);
    if (!target || target === file) continue;
    const typeOnly = Boolean(m[1]) || (m[3] !== undefined && /typeof\s+$|:\s*$/.test(text.slice(0, m.index)));
    deps.set(target, (deps.get(target) ?? true) && typeOnly);
  }
  graph.set(file, deps);
}

// Tarjan's strongly connected components: every component with more than one file holds a cycle.
let index = 0;
const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], components = [];
function connect(v) {
  idx.set(v, index); low.set(v, index); index++;
  stack.push(v); onStack.add(v);
  for (const w of graph.get(v)?.keys() ?? []) {
    if (!graph.has(w)) continue;
    if (!idx.has(w)) { connect(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); c.push(w); } while (w !== v);
    if (c.length > 1) components.push(c);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) connect(v);

/** The shortest cycle through `start` inside its component, for a readable line. */
function shortestCycle(start, members) {
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v).keys()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = prev.get(v); p; p = prev.get(p)) path.unshift(p);
        return path;
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

const rel = f => relative(cwd, f).split('\\').join('/');
console.log(`${graph.size} files, ${[...graph.values()].reduce((n, d) => n + d.size, 0)} imports scanned in ${roots.join(', ')}`);
for (const c of components) {
  const members = new Set(c);
  const start = [...c].sort()[0];
  const cycle = shortestCycle(start, members);
  const hops = cycle.map((f, i) => {
    const next = cycle[(i + 1) % cycle.length];
    return `${rel(f)} ${graph.get(f).get(next) ? '-(type)->' : '->'}`;
  });
  console.log(`cycle (${c.length} files in the component): ${hops.join(' ')} ${rel(start)}`);
  if (c.length > cycle.length) console.log(`  also in it: ${c.filter(f => !cycle.includes(f)).map(rel).sort().join(', ')}`);
}
console.log(components.length ? `${components.length} cycle(s)` : 'no import cycles');
process.exit(components.length ? 1 : 0);
