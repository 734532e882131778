#!/usr/bin/env node
// What captured lessons say, measured on the labelled trace corpus (test/fixtures/traces, made from real
// tool runs by scripts/dev/make-traces.mjs), for the current CLI and a baseline build side by side:
//   node bench/lessons.mjs [--cli dist/cli.js] [--baseline OTHER/cli.js | --no-baseline] [--json] [--verbose]
// Without --baseline the baseline is this tree's CLI built with the v0.1 lesson writer (bench/baseline/).
// Every trace is replayed, in name order, into one store per CLI with
// `node CLI --store DIR replay TRACE.jsonl --json` → {"episodes":[…],"lessons":[…],"warnings":[…]}; then
// the queries in queries.jsonl go through `recall --proactive --json`. Printed:
//   - lesson-fact accuracy: share of the labels' mustContain facts found in the trace's lessons
//     (rootCause + fixApproach + change + commands);
//   - false claims: mustNotClaim files/commands named in a lesson's fixApproach or commands, or a change
//     hunk's file (rootCause may mention the file the error was in; only claims of a fix count);
//   - lessons produced for traces that expect one, and for traces that expect none (unexplained);
//   - wrong merges: one lesson shared by traces whose fixes differ (disjoint mustContain facts);
//   - proactive recall: false-alarm rate on queries with no right answer (any result = an alarm),
//     hit@1 on answerable ones (the top result is a lesson or episode the expected trace produced).
// A CLI without `replay` (or without `recall --proactive`) gets "not available", never a number.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(repo, 'test', 'fixtures', 'traces');
const argv = process.argv.slice(2);
const opt = name => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const json = argv.includes('--json');
const verbose = argv.includes('--verbose');

const names = readdirSync(dir).filter(f => f.endsWith('.jsonl') && f !== 'queries.jsonl').map(f => f.slice(0, -6)).sort();
const labels = Object.fromEntries(names.map(n => [n, JSON.parse(readFileSync(join(dir, `${n}.label.json`), 'utf8'))]));
const queries = readFileSync(join(dir, 'queries.jsonl'), 'utf8').trimEnd().split('\n').map(l => JSON.parse(l));

function cli(path, args, cwd) {
  const r = spawnSync(process.execPath, [path, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '' };
}

/** Every string inside a value (the lesson's change and commands may be text, lists or hunk objects). */
const strings = v => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
const squash = s => s.replace(/\s+/g, ' ');
const has = (texts, needle) => texts.some(t => squash(t).includes(squash(needle)));

const escape = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Does the lesson claim `what` (a file or a command) as part of its fix? Named in fixApproach, run in
 * commands, or the file of a change hunk (an object's file/path field, or a diff header line); a file name
 * merely inside a hunk's code (`require('./users.json')`) is not a claim.
 */
function claims(lesson, what) {
  // A file is claimed where the prose names it ("… in src/a.ts"), not where a quoted line of code mentions
  // it (`"extends": "./tsconfig.json"`); commands (they contain a space) are looked for everywhere.
  const prose = /\s/.test(what) ? strings(lesson.fixApproach) : strings(lesson.fixApproach).map(s => s.replace(/`[^`]*`/g, '``'));
  if (has(prose, what) || has(strings(lesson.commands), what)) return true;
  const header = new RegExp(`^(?:---|\\+\\+\\+|diff --git|@@|File:|Index:)?\\s*(?:[ab]/)?${escape(what)}(?:$|[\\s:@(])`, 'm');
  const walk = v => (typeof v === 'string' ? header.test(v)
    : Array.isArray(v) ? v.some(walk)
    : v && typeof v === 'object' ? ['file', 'path', 'name'].some(k => v[k] === what) || Object.values(v).some(x => typeof x !== 'string' && walk(x))
    : false);
  return walk(lesson.change);
}

function measure(cliPath) {
  const res = { cli: cliPath, available: false, reason: '', perTrace: {}, recall: null };
  if (!existsSync(cliPath)) { res.reason = `${cliPath} not found (build it: node esbuild.mjs)`; return res; }
  const work = mkdtempSync(join(tmpdir(), 'engram-bench-lessons-'));
  const store = join(work, 'store');
  try {
    const probe = cli(cliPath, ['--store', join(work, 'probe'), 'replay', join(dir, `${names[0]}.jsonl`), '--json'], work);
    if (probe.code !== 0) {
      res.reason = /unknown command/i.test(probe.err) ? 'the CLI has no `replay` command' : `replay failed: ${(probe.err || probe.out).trim().split('\n')[0]}`;
      return res;
    }
    res.available = true;
    const produced = {}; // trace -> ids of lessons and episodes it produced
    const lessonTraces = {}; // lesson id -> traces whose replay returned it
    for (const name of names) {
      const r = cli(cliPath, ['--store', store, 'replay', join(dir, `${name}.jsonl`), '--json'], work);
      let out;
      try { out = JSON.parse(r.out); } catch { out = null; }
      if (r.code !== 0 || !out || !Array.isArray(out.lessons)) {
        res.perTrace[name] = { error: (r.err || r.out).trim().split('\n')[0] || `exit ${r.code}` };
        continue;
      }
      const l = labels[name];
      const factTexts = out.lessons.flatMap(x => strings([x.rootCause, x.fixApproach, x.change, x.commands]));
      produced[name] = new Set([...out.lessons.map(x => x.id), ...(out.episodes ?? []).map(e => e.id)].filter(Boolean));
      for (const x of out.lessons) (lessonTraces[x.id] ??= new Set()).add(name);
      res.perTrace[name] = {
        lessons: out.lessons.length,
        factsFound: l.mustContain.filter(f => has(factTexts, f)),
        factsMissing: l.mustContain.filter(f => !has(factTexts, f)),
        falseClaims: l.mustNotClaim.filter(c => out.lessons.some(x => claims(x, c))),
        warnings: (out.warnings ?? []).length,
        ...(verbose ? { said: out.lessons.map(x => ({ rootCause: x.rootCause, fixApproach: x.fixApproach, commands: x.commands })) } : {}),
      };
    }
    const disjoint = (a, b) => !labels[a].mustContain.some(f => labels[b].mustContain.includes(f));
    res.wrongMerges = Object.entries(lessonTraces).flatMap(([id, ts]) => {
      const t = [...ts];
      return t.flatMap((a, i) => t.slice(i + 1).filter(b => disjoint(a, b)).map(b => `${id}: ${a} + ${b}`));
    });
    res.recall = proactive(cliPath, store, work, produced);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return res;
}

function proactive(cliPath, store, work, produced) {
  const file = join(work, 'queries.jsonl');
  writeFileSync(file, queries.map(q => JSON.stringify({ query: q.query, file: q.file })).join('\n') + '\n');
  // A CLI that ignores unknown options cannot tell us whether --proactive did anything.
  const bogus = cli(cliPath, ['--store', store, 'recall', '--queries', file, '--json', '--no-such-option-x'], work);
  const r = cli(cliPath, ['--store', store, 'recall', '--queries', file, '--json', '--proactive'], work);
  if (r.code !== 0) return { available: false, reason: `recall --proactive: ${(r.err || r.out).trim().split('\n')[0]}` };
  if (bogus.code === 0 && !/proactive/.test(cli(cliPath, ['--help'], work).out)) return { available: false, reason: 'recall ignores unknown options and does not document --proactive' };
  const lines = r.out.trimEnd().split('\n').map(l => JSON.parse(l));
  let alarms = 0, none = 0, hits = 0, answerable = 0;
  const misses = [];
  queries.forEach((q, i) => {
    const results = lines[i]?.results ?? [];
    if (q.expect === null) { none++; if (results.length) { alarms++; misses.push(`alarm on ${q.file}: ${results[0].title ?? results[0].id}`); } return; }
    answerable++;
    if (results.length && produced[q.expect]?.has(results[0].id)) hits++;
    else misses.push(`miss for ${q.expect}: ${results.length ? results[0].title ?? results[0].id : 'nothing'}`);
  });
  return { available: true, falseAlarmRate: alarms / none, alarms, none, hitAt1: hits / answerable, hits, answerable, misses };
}

function summary(m) {
  if (!m.available) return null;
  const traces = Object.entries(m.perTrace);
  const ok = traces.filter(([, t]) => !t.error);
  const facts = ok.reduce((s, [, t]) => s + t.factsFound.length, 0);
  const factsAll = ok.reduce((s, [, t]) => s + t.factsFound.length + t.factsMissing.length, 0);
  const expect = names.filter(n => labels[n].expectLesson);
  const unexplained = names.filter(n => !labels[n].expectLesson);
  return {
    replayErrors: traces.length - ok.length,
    factAccuracy: factsAll ? facts / factsAll : 0, facts, factsAll,
    falseClaims: ok.reduce((s, [, t]) => s + t.falseClaims.length, 0),
    lessonsWhereExpected: expect.filter(n => m.perTrace[n]?.lessons > 0).length, expected: expect.length,
    lessonsWhereNone: unexplained.filter(n => m.perTrace[n]?.lessons > 0).length, expectedNone: unexplained.length,
    wrongMerges: m.wrongMerges.length,
  };
}

const runs = [{ title: 'current', m: measure(resolve(opt('cli') ?? join(repo, 'dist', 'cli.js'))) }];
// The baseline: another CLI build if given, else today's pipeline with the v0.1 lesson writer.
if (opt('baseline')) runs.unshift({ title: 'baseline', m: measure(resolve(opt('baseline'))) });
else if (!argv.includes('--no-baseline')) {
  const { buildBaselineCli } = await import('./baseline/build.mjs');
  runs.unshift({ title: 'v0.1 writer', m: measure(await buildBaselineCli()) });
}
const sums = runs.map(r => summary(r.m));

if (json) {
  console.log(JSON.stringify(runs.map((r, i) => ({ title: r.title, ...r.m, summary: sums[i] })), null, 2));
  process.exit(0);
}

const pct = x => `${(100 * x).toFixed(1)}%`;
const cell = (i, f) => (sums[i] ? f(sums[i], runs[i].m) : 'n/a');
const rc = (i, f) => (runs[i].m.recall?.available ? f(runs[i].m.recall) : 'n/a');
console.log(`### Lessons on the trace corpus (${names.length} traces, ${queries.length} recall queries)\n`);
console.log(`| measure | ${runs.map(r => r.title).join(' | ')} |`);
console.log(`|---|${runs.map(() => '---:').join('|')}|`);
const row = (name, f) => console.log(`| ${name} | ${runs.map((_, i) => f(i)).join(' | ')} |`);
row('lesson-fact accuracy (mustContain found)', i => cell(i, s => `${pct(s.factAccuracy)} (${s.facts}/${s.factsAll})`));
row('false claims (mustNotClaim named as fix)', i => cell(i, s => String(s.falseClaims)));
row('traces with a lesson / expecting one', i => cell(i, s => `${s.lessonsWhereExpected}/${s.expected}`));
row('lessons for unexplained episodes (want 0)', i => cell(i, s => `${s.lessonsWhereNone}/${s.expectedNone}`));
row('wrong merges (different fixes, one lesson)', i => cell(i, s => String(s.wrongMerges)));
row('replay errors', i => cell(i, s => String(s.replayErrors)));
row('proactive false-alarm rate (no-answer queries)', i => rc(i, r => `${pct(r.falseAlarmRate)} (${r.alarms}/${r.none})`));
row('proactive hit@1 (answerable queries)', i => rc(i, r => `${r.hitAt1.toFixed(2)} (${r.hits}/${r.answerable})`));
for (const r of runs) {
  if (!r.m.available) console.log(`\n${r.title} (${r.m.cli}): not available: ${r.m.reason}`);
  else if (!r.m.recall?.available) console.log(`\n${r.title}: proactive recall not available: ${r.m.recall?.reason}`);
}
if (verbose) {
  for (const r of runs.filter(x => x.m.available)) {
    console.log(`\n#### ${r.title}: per trace`);
    for (const [n, t] of Object.entries(r.m.perTrace)) {
      if (t.error) { console.log(`- ${n}: replay error: ${t.error}`); continue; }
      const bad = [...t.factsMissing.map(f => `missing ${JSON.stringify(f)}`), ...t.falseClaims.map(c => `claims ${JSON.stringify(c)}`)];
      console.log(`- ${n}: ${t.lessons} lesson(s)${bad.length ? '; ' + bad.join('; ') : ''}`);
      if (t.said) for (const s of t.said) console.log(`    fix: ${s.fixApproach}`);
    }
    for (const w of r.m.wrongMerges) console.log(`- wrong merge ${w}`);
    for (const x of r.m.recall?.misses ?? []) console.log(`- ${x}`);
  }
}
