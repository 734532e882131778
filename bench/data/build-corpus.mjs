#!/usr/bin/env node
// Regenerates the labelled recall corpus from REAL tool output:
//   node bench/data/build-corpus.mjs [--only ID_PREFIX] [--keep]
// For every root cause in bench/data/cases/*.mjs it writes two small programs (A and B) into a temp
// dir, runs the real tool (tsc, node, python3, rustc/cargo, gcc/g++/ld, javac/java, npm, bash),
// saves the raw output under test/fixtures/tool-output/<tool>/<id>.<a|b>.txt, runs B once more
// through a realistic wrapper (npm run / make / cargo) for the "noisy" queries, and writes
// bench/data/memories.jsonl + bench/data/queries.jsonl. No network: npm runs with --offline.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, readFileSync, existsSync, chmodSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';

import tscCases from './cases/tsc.mjs';
import nodeCases from './cases/node.mjs';
import pythonCases from './cases/python.mjs';
import rustCases from './cases/rust.mjs';
import cCases from './cases/c.mjs';
import javaCases from './cases/java.mjs';
import npmCases from './cases/npm.mjs';
import shellCases from './cases/shell.mjs';
import twinCases from './cases/twins.mjs';
import { questions } from './cases/questions.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const fixtures = join(repo, 'test/fixtures/tool-output');
const work = join(tmpdir(), 'engram-corpus');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

const ALL = [...tscCases, ...nodeCases, ...pythonCases, ...rustCases, ...cCases, ...javaCases, ...npmCases, ...shellCases];

/** How each tool is run on a program; `cmd` on a case overrides. */
const RUNNERS = {
  tsc: (c, side) => `tsc -p . --pretty ${side === 'b' && c.prettyB !== false ? 'true' : 'false'}`,
  node: c => `node ${c.main ?? 'index.js'}`,
  python: c => `python3 ${c.main ?? 'main.py'}`,
  pytest: () => 'python3 -m pytest -q -p no:cacheprovider',
  rustc: c => `rustc --edition 2021 --emit=metadata --crate-type bin -o ${join(work, 'rust.rmeta')} ${c.main ?? 'src/main.rs'}`,
  javac: c => `javac -d out ${c.main ?? 'Main.java'}`,
  java: c => `java ${c.main ?? 'Main.java'}`,
};

/** Wrappers that turn B's run into a realistic noisy transcript. */
function noisyCommand(c, cmd) {
  const w = c.noisy ?? defaultWrapper(c.tool);
  if (w === 'npm') return { files: { 'package.json': JSON.stringify({ name: c.project?.[1] ?? 'app', version: '1.0.0', private: true, scripts: { build: cmd } }, null, 2) }, cmd: 'npm run build --offline' };
  if (w === 'make') return { files: { Makefile: `all:\n\t@echo "==> building ${c.id}"\n\t${cmd}\n\t@echo done\n` }, cmd: 'make' };
  if (w === 'cargo') return { files: { 'Cargo.toml': `[package]\nname = "${(c.project?.[1] ?? 'app').replace(/-/g, '_')}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n` }, cmd: `cargo build --offline --target-dir ${join(work, 'cargo-target')}` };
  return { files: {}, cmd };
}

function defaultWrapper(tool) {
  return { tsc: 'npm', node: 'npm', rustc: 'cargo', python: 'make', pytest: 'make', gcc: 'make', ld: 'make', javac: 'make', java: 'make', npm: 'make', shell: 'npm' }[tool] ?? 'make';
}

function run(dir, cmd, env = {}) {
  const merged = { ...process.env, PATH: `${join(repo, 'node_modules/.bin')}:${process.env.PATH}`, NO_COLOR: undefined, FORCE_COLOR: undefined, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...env };
  // An undefined value means "unset in the child" (spawn would pass the string "undefined").
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  const r = spawnSync('bash', ['-c', `${cmd} 2>&1`], { cwd: dir, encoding: 'utf8', timeout: 120000, env: merged });
  return { out: r.stdout ?? '', status: r.status };
}

function writeFiles(dir, files) {
  for (const [name, content] of Object.entries(files)) {
    const p = join(dir, name);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    if (name.endsWith('.sh') && !/^noexec/.test(name)) chmodSync(p, 0o755);
  }
}

// Temp dirs become realistic workspace paths so fixtures are stable and look like the real thing.
function rewritePaths(out, dir, project) {
  return out.split(dir).join(`/home/dev/${project}`).split(work).join('/tmp/build');
}

function program(c, side) {
  const dir = join(work, c.id, side);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (c.tool === 'tsc' && !(c[side] ?? {})['tsconfig.json']) {
    writeFiles(dir, { 'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'commonjs', ...(c.compilerOptions ?? {}) }, include: ['src'] }, null, 2) });
  }
  writeFiles(dir, c[side]);
  if (c.setup) run(dir, typeof c.setup === 'function' ? c.setup(side) : c.setup);
  return dir;
}

function commandFor(c, side) {
  const cmd = typeof c.cmd === 'function' ? c.cmd(side) : c.cmd;
  return cmd ?? RUNNERS[c.runner ?? c.tool](c, side);
}

function capture(c) {
  const result = {};
  for (const side of ['a', 'b']) {
    const dir = program(c, side);
    const { out, status } = run(dir, commandFor(c, side), c.env);
    if (status === 0 && !c.allowZero) console.warn(`!! ${c.id}.${side}: exit 0 (no error?)`);
    result[side] = rewritePaths(out, dir, c.project?.[side === 'a' ? 0 : 1] ?? `proj-${side}`);
  }
  // Noisy: B once more, through npm run / make / cargo, with the same program files.
  const dir = program(c, 'b');
  const plainCmd = commandFor(c, 'b').replace(/--pretty true/, '--pretty false');
  const wrapped = noisyCommand(c, plainCmd);
  // Keep the program's own package.json (its "type" matters); only add the build script.
  if (wrapped.files['package.json'] && existsSync(join(dir, 'package.json'))) {
    const own = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    wrapped.files['package.json'] = JSON.stringify({ ...own, version: own.version ?? '1.0.0', scripts: { ...(own.scripts ?? {}), build: plainCmd } }, null, 2);
  }
  writeFiles(dir, wrapped.files);
  result.noisy = rewritePaths(run(dir, wrapped.cmd, c.env).out, dir, c.project?.[1] ?? 'proj-b');
  return result;
}

// --from-fixtures: rebuild the JSONL from the saved outputs (after editing texts) without rerunning tools.
function load(tool, id) {
  const d = join(fixtures, tool);
  const out = {};
  for (const k of ['a', 'b', 'noisy']) {
    const p = join(d, `${id}.${k}.txt`);
    if (!existsSync(p)) return undefined;
    out[k] = readFileSync(p, 'utf8');
  }
  return out;
}

function outputsFor(c) {
  if (!args.includes('--from-fixtures')) {
    const outs = capture(c);
    save(c.fixtureTool ?? c.tool, c.id, outs);
    return outs;
  }
  const outs = load(c.fixtureTool ?? c.tool, c.id);
  if (!outs) console.warn(`\n!! ${c.id}: no saved fixtures, skipped`);
  return outs;
}

function save(tool, id, outs) {
  const d = join(fixtures, tool);
  mkdirSync(d, { recursive: true });
  for (const [k, v] of Object.entries(outs)) writeFileSync(join(d, `${id}.${k}.txt`), v);
}

// Deterministic noise around the wrapped transcript: progress redraws, colours, timestamps, warnings.
function rng(seed) {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => ((h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0) / 4294967296);
}
const PREFIXES = [
  r => `\x1b]633;C\x07$ ${['npm run build', 'make', 'cargo build', 'npm test', './ci.sh'][Math.floor(r() * 5)]}\n`,
  r => `[${10 + Math.floor(r() * 10)}:0${Math.floor(r() * 9)}:1${Math.floor(r() * 9)}] Starting compilation in watch mode...\n`,
  () => `npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it.\n`,
  () => `\x1b[2K\x1b[1G⠋ Building...\r\x1b[2K\x1b[1G⠙ Building... 34%\r\x1b[2K\x1b[1G⠹ Building... 78%\r\x1b[2K\x1b[1G`,
  () => `\x1b[33mwarning\x1b[39m: browserslist: caniuse-lite is outdated. Please run: npx update-browserslist-db@latest\n`,
  () => `info  - Loaded env from /home/dev/.env.local\n`,
  () => `[INFO] Scanning for projects...\n[INFO] ------------------------------------------------------------------------\n`,
];
const SUFFIXES = [
  (r, c) => `npm error Lifecycle script \`build\` failed with error:\nnpm error code ${1 + Math.floor(r() * 2)}\nnpm error path /home/dev/${c.project?.[1] ?? 'app'}\nnpm error workspace ${c.project?.[1] ?? 'app'}@1.0.0\nnpm error location /home/dev/${c.project?.[1] ?? 'app'}\nnpm error command failed\nnpm error command sh -c ${c.tool} .\n`,
  (r, c) => `npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\nnpm ERR! ${c.project?.[1] ?? 'app'}@1.0.0 build: \`${c.tool} .\`\nnpm ERR! Exit status 1\nnpm ERR! \nnpm ERR! Failed at the ${c.project?.[1] ?? 'app'}@1.0.0 build script.\nnpm ERR! This is probably not a problem with npm. There is likely additional logging output above.\n`,
  () => `\n\x1b[31m✖\x1b[39m 1 problem (1 error, 0 warnings)\n`,
  () => `\nProcess finished with exit code 1\n\x1b]633;D;1\x07`,
  () => `\n[nodemon] app crashed - waiting for file changes before starting...\n`,
  () => `\nError: Process completed with exit code 1.\n`,
  () => ``,
];
function addNoise(c, text) {
  const r = rng(c.id);
  const first = Math.floor(r() * PREFIXES.length);
  const second = (first + 1 + Math.floor(r() * (PREFIXES.length - 1))) % PREFIXES.length; // two different kinds
  const pre = [PREFIXES[first], PREFIXES[second]].map(f => f(r)).join('');
  const suf = SUFFIXES[Math.floor(r() * SUFFIXES.length)](r, c);
  return pre + text.trimEnd() + '\n' + suf;
}

function lessonLine(c, id, raw, scope, fix, extra = {}) {
  return JSON.stringify({
    kind: 'lesson', id, errorSignature: raw.trim(), rootCause: c.rootCause, fixApproach: fix ?? c.fixApproach,
    scope, stack: c.stack, errorCategory: c.errorCategory, tags: c.tags ?? [], ...extra,
  });
}

function main() {
  if (!args.includes('--from-fixtures')) mkdirSync(work, { recursive: true });
  const memories = [];
  const queries = [];
  const selected = only ? ALL.filter(c => c.id.startsWith(only)) : ALL;
  for (const c of selected) {
    process.stdout.write(`${c.id} `);
    const outs = outputsFor(c);
    if (!outs) continue;
    memories.push(lessonLine(c, c.id, outs.a, c.scope ?? ['**']));
    queries.push({ query: outs.b.trim(), expect: c.id, category: 'raw' });
    queries.push({ query: addNoise(c, outs.noisy), expect: c.id, category: 'noisy' });
    if (c.sameFile) {
      // The editor shows the bare message (no file prefix) for a diagnostic in that same file.
      const message = c.sameFile.message ?? c.sameFile.line.exec(outs.b)?.[0]?.trim();
      if (!message) throw new Error(`${c.id}: same-file line not found in B output`);
      queries.push({ query: message, file: c.sameFile.file, expect: c.id, category: 'same-file' });
    }
  }
  for (const t of only ? twinCases.filter(c => c.id.startsWith(only)) : twinCases) {
    process.stdout.write(`${t.id} `);
    const outs = outputsFor(t);
    if (!outs) continue;
    for (const side of t.twins) {
      const id = `${t.id}@${side.name}`;
      memories.push(lessonLine(t, id, outs.a, side.scope, side.fixApproach, { rootCause: side.rootCause }));
      queries.push({ query: outs.b.trim(), file: side.file, expect: id, category: 'twin' });
    }
  }
  const ids = new Set(memories.map(m => JSON.parse(m).id));
  for (const q of questions) {
    if (only && !ids.has(q.expect)) continue;
    if (!ids.has(q.expect)) { console.warn(`!! question expects missing memory ${q.expect}`); continue; }
    queries.push({ query: q.query, expect: q.expect, category: q.lang });
  }
  if (!only) {
    writeFileSync(join(here, 'memories.jsonl'), memories.join('\n') + '\n');
    writeFileSync(join(here, 'queries.jsonl'), queries.map(q => JSON.stringify(q)).join('\n') + '\n');
  }
  const counts = {};
  for (const q of queries) counts[q.category] = (counts[q.category] ?? 0) + 1;
  console.log(`\n${memories.length} memories, ${queries.length} queries`, counts);
  if (!args.includes('--keep') && !args.includes('--from-fixtures')) rmSync(work, { recursive: true, force: true });
}

main();
