// Recall queries for the corpus once every trace is replayed into one store: real error output from
// fresh runs, each with the trace whose lesson is the right answer, or null when none is (families not
// in the corpus, and near misses: same code, another module / type / test).
// Each line: { query, file, expect, of, kind }: kind 'related' (expect = the trace that answers it),
// 'near-miss' (expect null; of = the trace it resembles, whose split it follows) or 'foreign' (a family
// no trace has; of null). The first 40 are the corpus's original set; the family files add each trace's
// own (`queries` on a story, see story.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from './session.mjs';
import { deps } from './deps.mjs';

export const episodes = [];

const tsconfig = JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true }, include: ['src'] }, null, 2) + '\n';
const tsProject = (files, extra = {}) => ({ 'package.json': '{ "name": "q", "private": true, "type": "module" }\n', 'tsconfig.json': extra.tsconfig ?? tsconfig, ...files });

/** `how`: 'tsc' (the project's tsc errors) or a shell command whose failing output is the query. */
export function probe(files, how, opts = {}) {
  const s = new Session('query', files, opts);
  try {
    if (opts.setup) s.unseen(opts.setup);
    if (how === 'tsc') {
      const text = s.tscOutput().trim();
      if (!/error TS\d+/.test(text)) throw new Error(`no tsc error for query: ${text}`);
      return text;
    }
    const r = s.command(how, { record: false });
    if (r.code === 0) throw new Error(`query command passed: ${how}\n${r.output}`);
    return r.output.trim();
  } finally { s.discard(); }
}

const LEGACY = [
  // --- answerable: the same error again, elsewhere ---
  { file: 'src/summary.ts', expect: 'ts-paths-alias', make: () => probe(tsProject({ 'src/lib/dates.ts': 'export const isoDay = (d: Date) => d.toISOString().slice(0, 10);\n', 'src/summary.ts': "import { isoDay } from '@lib/dates';\nexport const today = isoDay(new Date());\n" }), 'tsc') },
  { file: 'src/forms.ts', expect: 'ts-npm-install-zod', make: () => probe(tsProject({ 'src/forms.ts': "import { z } from 'zod';\nexport const Login = z.object({ user: z.string() });\n" }), 'tsc') },
  { file: 'src/limits.ts', expect: 'ts2322-with-import', make: () => probe(tsProject({ 'src/limits.ts': "const raw = { max: '10' };\nexport const max: number = raw.max;\n" }), 'tsc') },
  { file: 'src/sum.ts', expect: 'ts7006-implicit-any', make: () => probe(tsProject({ 'src/sum.ts': 'export function total(items) {\n  return items.length;\n}\n' }), 'tsc') },
  { file: 'src/card.ts', expect: 'ts2339-missing-property', make: () => probe(tsProject({ 'src/card.ts': "interface User { id: number; email: string }\nexport const label = (u: User) => u.fullName;\n" }), 'tsc') },
  { file: 'src/gift.ts', expect: 'ts2554-agent-disk-fix', make: () => probe(tsProject({ 'src/gift.ts': "interface Line { sku: string; qty: number }\nfunction addLine(lines: Line[], sku: string, qty: number): Line[] { return [...lines, { sku, qty }]; }\nexport const g = addLine([], 'GIFT-WRAP');\n" }), 'tsc') },
  { file: 'src/cli.js', expect: 'node-esm-missing-extension', make: () => probe({ 'package.json': '{ "type": "module" }\n', 'src/lib/slug.js': 'export const slug = s => s;\n', 'src/cli.js': "import { slug } from './lib/slug';\nconsole.log(slug('x'));\n" }, 'node src/cli.js') },
  { file: 'report.js', expect: 'node-cjs-cannot-find-module', make: () => probe({ 'util/format.js': 'exports.money = n => n;\n', 'report.js': "const { money } = require('./utils/format');\nconsole.log(money(1));\n" }, 'node report.js') },
  { file: 'print.js', expect: 'node-typeerror-undefined-prop', make: () => probe({ 'print.js': "const users = [{ id: 3 }];\nfor (const u of users) console.log(u.profile.name);\n" }, 'node print.js') },
  { file: 'cli.py', expect: 'py-pip-requests-app', make: () => probe({ 'cli.py': "import requests\nprint(requests.get('https://example.com').status_code)\n" }, 'python cli.py', { venv: true }) },
  { file: 'main.py', expect: 'py-helpers-touch-import', make: () => probe({ 'main.py': 'from helpers import slugify\nprint(slugify("A B"))\n', 'helpers.py': '' }, 'python3 main.py') },
  { file: 'digest.py', expect: 'py-nameerror-missing-import', make: () => probe({ 'digest.py': "print(f\"Digest {datetime.now():%Y-%m-%d}\")\n" }, 'python3 digest.py') },
  { file: 'test_pricing.py', expect: 'pytest-bulk-discount', make: () => probe({ 'pricing.py': 'def price(unit, qty):\n    return unit * qty\n', 'test_pricing.py': 'from pricing import price\n\n\ndef test_bulk_discount():\n    assert price(10.0, 10) == 85.0\n' }, 'python3 -m pytest -q') },
  { file: 'src/cart.test.js', expect: 'jest-cart-total-tax', make: () => probe({ 'package.json': '{ "name": "shop", "private": true, "scripts": { "test": "jest" } }\n', 'src/cart.js': 'exports.total = ls => ls.reduce((s, l) => s + l.price * l.qty, 0);\n', 'src/cart.test.js': "const { total } = require('./cart');\ntest('cart total includes tax', () => {\n  expect(total([{ price: 5, qty: 2 }])).toBe(12);\n});\n" }, 'npm test', { deps: deps('jest') }) },
  { file: 'src/slugify.test.js', expect: 'jest-slugify-agent-fix', make: () => probe({ 'package.json': '{ "name": "shop", "private": true, "scripts": { "test": "jest" } }\n', 'src/slugify.js': "exports.slugify = s => s.trim().replace(/\\s+/g, '-');\n", 'src/slugify.test.js': "const { slugify } = require('./slugify');\ntest('slugify lowercases words', () => {\n  expect(slugify('Good Morning')).toBe('good-morning');\n});\n" }, 'npm test', { deps: deps('jest') }) },
  { file: 'src/main.rs', expect: 'rust-e0502-diag-and-build', make: () => probe({ 'Cargo.toml': '[package]\nname = "q"\nversion = "0.1.0"\nedition = "2021"\n', 'src/main.rs': 'fn main() {\n    let mut v = vec![1];\n    let head = &v[0];\n    v.push(2);\n    println!("{}", head);\n}\n' }, 'cargo build') },
  { file: 'main.c', expect: 'gcc-undefined-reference-makefile', make: () => probe({ 'Makefile': 'app: main.o\n\t$(CC) -o app main.o\n', 'util.c': 'int sum_all(const int *xs, int n) { int s = 0; for (int i = 0; i < n; i++) s += xs[i]; return s; }\n', 'main.c': '#include <stdio.h>\nint sum_all(const int *xs, int n);\nint main(void) { int xs[] = {4}; printf("%d\\n", sum_all(xs, 1)); return 0; }\n' }, 'make') },
  { file: 'src/Names.java', expect: 'javac-cannot-find-symbol-import', make: () => probe({ 'src/Names.java': 'public class Names {\n  static List<String> all() { return new ArrayList<>(); }\n}\n' }, 'javac -d out src/Names.java') },
  { file: 'README.md', expect: 'git-identity-config', make: () => probe({ 'README.md': '# q\n' }, 'git commit -m "Add readme"', { setup: 'git init -q -b main && git add -A' }) },
  { file: 'package.json', expect: 'npm-eresolve-legacy-peer-deps', make: () => probe({ 'package.json': '{ "name": "q", "version": "1.0.0", "private": true, "dependencies": { "react": "17.0.2", "react-dom": "18.2.0" } }\n' }, 'npm install') },
  { file: 'src/stats.c', expect: 'gcc-implicit-declaration', make: () => probe({ 'src/stats.c': '#include <stdio.h>\nint main(int argc, char **argv) { printf("%zu\\n", strlen(argv[0])); return 0; }\n' }, 'gcc -Wall -Werror=implicit-function-declaration -o stats src/stats.c') },

  // --- no right answer: families not in the corpus ---
  { file: 'calc.py', expect: null, make: () => probe({ 'calc.py': 'def ratio(a, b):\n    return a / b\n\nprint(ratio(1, 0))\n' }, 'python3 calc.py') },
  { file: 'settings.py', expect: null, make: () => probe({ 'settings.py': "config = {'host': 'localhost'}\nprint(config['port'])\n" }, 'python3 settings.py') },
  { file: 'server.js', expect: null, make: () => probe({ 'server.js': "const http = require('http');\nconst a = http.createServer().listen(47123, () => {\n  http.createServer().listen(47123);\n});\n" }, 'node server.js') },
  { file: 'deploy.sh', expect: null, make: () => probe({ 'deploy.sh': '#!/usr/bin/env bash\nset -u\necho "deploying to $TARGET_HOST"\n' }, 'bash deploy.sh') },
  { file: 'src/Main.java', expect: null, make: () => probe({ 'src/Main.java': 'public class Main {\n  static String name;\n  public static void main(String[] a) { System.out.println(name.length()); }\n}\n' }, 'javac -d out src/Main.java && java -cp out Main') },
  { file: 'load.js', expect: null, make: () => probe({ 'load.js': "JSON.parse('{\"a\": 1,}');\n" }, 'node load.js') },
  { file: 'src/parse.c', expect: null, make: () => probe({ 'src/parse.c': 'int main(void) {\n  int x = 1\n  return x;\n}\n' }, 'gcc -o parse src/parse.c') },
  { file: 'build.sh', expect: null, make: () => probe({ 'build.sh': 'protoc --version\n' }, 'sh build.sh') },

  // --- no right answer: near misses (same code or message shape, different module / type / test) ---
  { file: 'src/price.ts', expect: null, make: () => probe(tsProject({ 'src/lib/dates.ts': 'export const x = 1;\n', 'src/price.ts': "import { fmt } from '@lib/format';\nexport const p = fmt(1);\n" }, { tsconfig: JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true, paths: { '@lib/*': ['./src/lib/*'] } }, include: ['src'] }, null, 2) }), 'tsc') },
  { file: 'src/flags.ts', expect: null, make: () => probe(tsProject({ 'src/flags.ts': 'export const enabled: string = true;\n' }), 'tsc') },
  { file: 'src/config.ts', expect: null, make: () => probe(tsProject({ 'src/config.ts': "import YAML from 'yaml';\nexport const cfg = YAML.parse('a: 1');\n" }), 'tsc') },
  { file: 'src/order.ts', expect: null, make: () => probe(tsProject({ 'src/order.ts': 'interface Order { id: number; total: number }\nexport const to = (o: Order) => o.email;\n' }), 'tsc') },
  { file: 'analyze.py', expect: null, make: () => probe({ 'analyze.py': 'import numpy as np\nprint(np.mean([1, 2, 3]))\n' }, 'python analyze.py', { venv: true }) },
  { file: 'test_pricing.py', expect: null, make: () => probe({ 'pricing.py': 'def price(unit, qty):\n    return unit * qty + 1\n', 'test_pricing.py': 'from pricing import price\n\n\ndef test_single_item():\n    assert price(10.0, 1) == 10.0\n' }, 'python3 -m pytest -q') },
  { file: 'src/cart.test.js', expect: null, make: () => probe({ 'package.json': '{ "name": "shop", "private": true, "scripts": { "test": "jest" } }\n', 'src/cart.js': 'exports.count = ls => ls.length + 1;\n', 'src/cart.test.js': "const { count } = require('./cart');\ntest('cart counts its lines', () => {\n  expect(count([{}, {}])).toBe(2);\n});\n" }, 'npm test', { deps: deps('jest') }) },
  { file: 'src/main.rs', expect: null, make: () => probe({ 'Cargo.toml': '[package]\nname = "q"\nversion = "0.1.0"\nedition = "2021"\n', 'src/main.rs': 'fn main() {\n    let mut s = String::new();\n    let a = &mut s;\n    let b = &mut s;\n    a.push(\'x\');\n    b.push(\'y\');\n}\n' }, 'cargo build') },
  { file: 'src/Counter.java', expect: null, make: () => probe({ 'src/Counter.java': 'public class Counter {\n  public static void main(String[] a) { System.out.println(count); }\n}\n' }, 'javac -d out src/Counter.java') },
  { file: 'src/app.mjs', expect: null, make: () => probe({ 'package.json': '{ "type": "module" }\n', 'src/app.mjs': "import chalk from 'chalk';\nconsole.log(chalk.green('ok'));\n" }, 'node src/app.mjs') },
  { file: 'helpers_test.py', expect: null, make: () => probe({ 'helpers_test.py': 'from helpers import kebab\n', 'helpers.py': 'def slugify(s):\n    return s\n' }, 'python3 helpers_test.py') },
];

// The trace each original near miss resembles (the order of the near-miss block above).
const NEAR_OF = ['ts-paths-alias', 'ts2322-with-import', 'ts-npm-install-zod', 'ts2339-missing-property', 'py-pip-requests-app',
  'pytest-bulk-discount', 'jest-cart-total-tax', 'rust-e0502-diag-and-build', 'javac-cannot-find-symbol-import',
  'node-esm-missing-extension', 'py-helpers-touch-import'];
const FOREIGN = 8;

function legacy() {
  let near = 0;
  return LEGACY.map((q, i) => {
    if (q.expect) return { ...q, of: q.expect, kind: 'related' };
    const nearMiss = LEGACY.slice(0, i).filter(x => !x.expect).length >= FOREIGN;
    return { ...q, of: nearMiss ? NEAR_OF[near++] : null, kind: nearMiss ? 'near-miss' : 'foreign' };
  });
}

/** A story's recall set: `related` queries its lesson should answer, `near` misses it should not. */
function ofEpisode(e) {
  return (e.queries ?? []).map(q => ({
    file: q.file, of: e.name, kind: q.kind === 'related' ? 'related' : 'near-miss', expect: q.kind === 'related' ? e.name : null,
    make: () => probe(q.files, q.how, q.opts), source: JSON.stringify([q.files, q.how, q.opts ?? null]),
  }));
}

/** Names a query by what makes it, so an unchanged query is not run again (`fresh` runs them all). */
const idOf = q => createHash('sha256').update(JSON.stringify([q.file, q.of, q.kind, q.source ?? q.make.toString()])).digest('hex').slice(0, 12);

/** Writes test/fixtures/traces/queries.jsonl: the original set, then every episode's own queries. */
export function makeQueries(outDir, episodes = [], { fresh = false } = {}) {
  const file = join(outDir, 'queries.jsonl');
  const known = new Map();
  if (!fresh && existsSync(file)) for (const l of readFileSync(file, 'utf8').split('\n').filter(Boolean)) { const q = JSON.parse(l); if (q.id) known.set(q.id, q.query); }
  const lines = [];
  const failed = [];
  for (const q of [...legacy(), ...episodes.flatMap(ofEpisode)]) {
    const id = idOf(q);
    let query = known.get(id);
    // One broken query does not cost the others: those that ran are kept (and not run again next time).
    if (query === undefined) { try { query = q.make(); } catch (e) { failed.push(`${q.of ?? 'foreign'} ${q.kind} ${q.file}: ${e.message}`); continue; } }
    lines.push(JSON.stringify({ id, query, file: q.file, expect: q.expect, of: q.of, kind: q.kind }));
  }
  // Queries of live traces (live-*) come from scripts/dev/record-live-traces.mjs --queries: kept as they are.
  if (existsSync(file)) for (const l of readFileSync(file, 'utf8').split('\n').filter(Boolean)) if (/^live-/.test(JSON.parse(l).of ?? '')) lines.push(l);
  writeFileSync(file, lines.join('\n') + '\n');
  if (failed.length) throw new Error(`${failed.length} queries failed (the others are written):\n${failed.join('\n')}`);
  return lines.length;
}
