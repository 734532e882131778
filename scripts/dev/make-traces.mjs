#!/usr/bin/env node
// Regenerates the labelled capture-trace corpus in test/fixtures/traces/ from real tool runs in temp
// projects (see test/fixtures/traces/README.md for the tools each family needs). Needs the npm registry
// (jest, vitest, eslint, zod, react, pyright, … are installed into a cache folder once) and Debian's
// packages for the rest; PyPI is not used.
//   node scripts/dev/make-traces.mjs [--only NAME[,NAME]] [--family F[,F]] [--list]
//   [--fresh-queries]   (--only queries: just queries.jsonl, whose unchanged queries are kept unless
//   --fresh-queries; heldout.json is rewritten from the labels on every run)
// Outputs differ run to run only where the tools' own output does (timings).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './traces/session.mjs';
import { makeQueries } from './traces/queries.mjs';
import { heldOutFile, readLabels } from './traces/heldout.mjs';
import { writeFileSync } from 'node:fs';

const families = ['tsc', 'node', 'python', 'jstest', 'eslint', 'native', 'go', 'pytools', 'pyprojects', 'jstools', 'cbuild', 'scripting', 'erlang', 'jvm', 'jsbuild', 'pkgmanagers', 'cargo', 'gitflow', 'pyunittest', 'nodetest'];
const all = [];
for (const f of families) {
  const mod = await import(`./traces/${f}.mjs`);
  all.push(...(mod.episodes ?? []));
}
const args = process.argv.slice(2);
if (args.includes('--list')) { for (const e of all) console.log(`${e.family}\t${e.name}`); process.exit(0); }
const onlyAt = args.indexOf('--only');
const famAt = args.indexOf('--family');
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(','))
  : famAt >= 0 ? new Set(all.filter(e => args[famAt + 1].split(',').includes(e.family)).map(e => e.name)) : null;
for (const n of only ?? []) if (n !== 'queries' && !all.some(e => e.name === n)) { console.error(`no trace named ${n} (see --list)`); process.exit(2); }
const out = join(REPO, 'test', 'fixtures', 'traces');
mkdirSync(out, { recursive: true });
let failed = 0;
for (const e of all) {
  if (only && !only.has(e.name)) continue;
  process.stderr.write(`${e.name}… `);
  try { await e.run(out); process.stderr.write('ok\n'); } catch (err) { failed++; process.stderr.write(`FAILED: ${err.stack}\n`); }
}
if (!only || only.has('queries')) {
  process.stderr.write('queries… ');
  try { process.stderr.write(`${makeQueries(out, all, { fresh: args.includes('--fresh-queries') })}\n`); } catch (err) { failed++; process.stderr.write(`FAILED: ${err.stack}\n`); }
}
writeFileSync(join(out, 'heldout.json'), JSON.stringify(heldOutFile(readLabels(out)), null, 2) + '\n');
process.exit(failed ? 1 : 0);
