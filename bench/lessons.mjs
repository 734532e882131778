#!/usr/bin/env node
// What captured lessons say, measured on the labelled trace corpus (test/fixtures/traces, made from real
// tool runs by scripts/dev/make-traces.mjs; its README documents the labels), for the current CLI and a
// baseline build side by side, on the train split and the held-out split separately:
//   node bench/lessons.mjs [--cli dist/cli.js] [--baseline OTHER/cli.js | --no-baseline] [--json] [--verbose]
//                          [--held-out-details]
// Without --baseline the baseline is this tree's CLI built with the v0.1 lesson writer (bench/baseline/).
// Held-out traces (heldout.json) are measured, never tuned on: only their totals are printed; per-trace
// detail (--verbose, --json) covers train only unless --held-out-details is given. Do not use that flag
// while changing the writer or the capture pipeline.
// Every trace is replayed, in name order, into one store per CLI with
// `node CLI --store DIR replay TRACE.jsonl --json` → {"episodes":[…],"lessons":[…],"warnings":[…]}; then
// the recall set (queries.jsonl) and every label's `errors` go through `recall --proactive --json`.
// Measured per trace (a label field that is absent is not measured for that trace):
//   - facts: the label's mustContain found in the trace's lessons (rootCause + fixApproach + change + commands);
//   - false claims: mustNotClaim files/commands named in a lesson's fixApproach or commands, or a change
//     hunk's file (rootCause may mention the file the error was in; only claims of a fix count);
//   - false statements: mustNotSay phrases in a lesson's rootCause or fixApproach ("did not fix it" for
//     a step that did);
//   - a lesson where one is expected and none where none is; `lessons`: how many distinct lessons;
//   - resolved: 'fixed' = a lesson, none unexplained, no episode ended 'partial' or 'failure';
//     'unexplained' = no lesson that carries a fix; 'open' = no episode ended 'success';
//   - errors findable: each label `errors` line, as a proactive query from the trace's file, has a lesson
//     of this trace with a fix as its first result;
//   - wrong merges: one lesson shared by traces of different merge groups (or, where a label has none,
//     whose mustContain facts are disjoint); merge groups: all traces of a group share one lesson, and
//     it reached pattern maturity;
//   - a trace is right when every measure its label has holds.
// Recall set, per split: hit@1 on related errors from other files (the first result is a lesson of the
// expected trace that carries a fix), quiet on near misses (no result at all), quiet on foreign errors.
// A CLI without `replay` (or without `recall --proactive`) gets "not available", never a number.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(repo, 'test', 'fixtures', 'traces');
const argv = process.argv.slice(2);
const opt = name => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const json = argv.includes('--json');
const verbose = argv.includes('--verbose');
const heldOutDetails = argv.includes('--held-out-details');

const names = readdirSync(dir).filter(f => f.endsWith('.jsonl') && f !== 'queries.jsonl').map(f => f.slice(0, -6)).sort();
const labels = Object.fromEntries(names.map(n => [n, JSON.parse(readFileSync(join(dir, `${n}.label.json`), 'utf8'))]));
const queries = readFileSync(join(dir, 'queries.jsonl'), 'utf8').trimEnd().split('\n').map(l => JSON.parse(l));
const heldOut = new Set(JSON.parse(readFileSync(join(dir, 'heldout.json'), 'utf8')).traces);
const SPLITS = ['train', 'held-out'];
const splitOf = trace => (trace && heldOut.has(trace) ? 'held-out' : 'train');
const queryTrace = q => q.of ?? q.expect ?? null;
const visible = trace => heldOutDetails || splitOf(trace) === 'train';

/** The file a trace's errors are in: the first with an error diagnostic, else the first opened. */
function errorFile(name) {
  const events = readFileSync(join(dir, `${name}.jsonl`), 'utf8').trimEnd().split('\n').map(l => JSON.parse(l));
  return events.find(e => e.type === 'diagnostics' && e.items.some(i => i.severity === 'error'))?.file
    ?? events.find(e => e.type === 'open')?.file ?? 'README.md';
}
const findable = names.flatMap(n => (labels[n].errors ?? []).map(text => ({ trace: n, query: text, file: errorFile(n) })));

function cli(path, args, cwd) {
  const r = spawnSync(process.execPath, [path, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout ?? '', err: r.stderr ?? '' };
}

/** Every string inside a value (the lesson's change and commands may be text, lists or hunk objects). */
const strings = v => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
const squash = s => s.replace(/\s+/g, ' ');
const has = (texts, needle) => texts.some(t => squash(t).includes(squash(needle)));
const hasCi = (texts, needle) => texts.some(t => squash(t).toLowerCase().includes(squash(needle).toLowerCase()));

const escape = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Does the lesson claim `what` (a file or a command) as part of its fix? Named in fixApproach, run in
 * commands, or the file of a change hunk (an object's file/path field, or a diff header line); a file name
 * merely inside a hunk's code (`require('./users.json')`) is not a claim.
 */
function claims(lesson, what) {
  // A file is claimed where the prose names it ("… in src/a.ts"), not where a quoted line of code mentions
  // it (`"extends": "./tsconfig.json"`); commands (they contain a space) are looked for everywhere.
  if (/\s/.test(what)) return has(strings(lesson.fixApproach), what) || has(strings(lesson.commands), what);
  // A file name counts as a whole path: "store.py" is not named by "test_store.py" or "src/store.py".
  const named = new RegExp(`(?<![\\w./-])${escape(what)}(?![\\w/-]|\\.\\w)`);
  const prose = strings(lesson.fixApproach).map(s => s.replace(/`[^`]*`/g, '``'));
  if (prose.some(t => named.test(t)) || strings(lesson.commands).some(t => named.test(t))) return true;
  const header = new RegExp(`^(?:---|\\+\\+\\+|diff --git|@@|File:|Index:)?\\s*(?:[ab]/)?${escape(what)}(?:$|[\\s:@(])`, 'm');
  const walk = v => (typeof v === 'string' ? header.test(v)
    : Array.isArray(v) ? v.some(walk)
    : v && typeof v === 'object' ? ['file', 'path', 'name'].some(k => v[k] === what) || Object.values(v).some(x => typeof x !== 'string' && walk(x))
    : false);
  return walk(lesson.change);
}

/** Is the shared lesson of traces a and b a wrong merge? Same merge group: right; different groups: wrong. */
function wrongMerge(a, b) {
  const ga = labels[a].mergeGroup, gb = labels[b].mergeGroup;
  if (ga && gb) return ga !== gb;
  return !labels[a].mustContain.some(f => labels[b].mustContain.includes(f));
}

function replayAll(cliPath, store, work) {
  const perTrace = {};
  const produced = {}; // trace -> ids of lessons and episodes it produced
  const lessonTraces = {}; // lesson id -> traces whose replay returned it
  const lessonInfo = {}; // lesson id -> { unexplained, maturity } as last returned
  const patterns = {}; // trace -> pattern ids its replay made
  for (const name of names) {
    const r = cli(cliPath, ['--store', store, 'replay', join(dir, `${name}.jsonl`), '--json'], work);
    let out;
    try { out = JSON.parse(r.out); } catch { out = null; }
    if (r.code !== 0 || !out || !Array.isArray(out.lessons)) {
      perTrace[name] = { error: (r.err || r.out).trim().split('\n')[0] || `exit ${r.code}` };
      continue;
    }
    const l = labels[name];
    const lessons = out.lessons;
    const episodes = out.episodes ?? [];
    const factTexts = lessons.flatMap(x => strings([x.rootCause, x.fixApproach, x.change, x.commands]));
    const prose = lessons.flatMap(x => strings([x.rootCause, x.fixApproach]));
    produced[name] = new Set([...lessons.map(x => x.id), ...episodes.map(e => e.id)].filter(Boolean));
    patterns[name] = out.patterns ?? [];
    for (const x of lessons) {
      (lessonTraces[x.id] ??= new Set()).add(name);
      lessonInfo[x.id] = { unexplained: x.unexplained === true, maturity: x.maturity };
    }
    perTrace[name] = {
      lessons: lessons.length,
      lessonIds: lessons.map(x => x.id),
      withFix: lessons.filter(x => !x.unexplained).length,
      outcomes: episodes.map(e => e.outcome ?? 'open'),
      factsFound: l.mustContain.filter(f => has(factTexts, f)),
      factsMissing: l.mustContain.filter(f => !has(factTexts, f)),
      falseClaims: l.mustNotClaim.filter(c => lessons.some(x => claims(x, c))),
      falseStatements: (l.mustNotSay ?? []).filter(p => hasCi(prose, p)),
      warnings: (out.warnings ?? []).length,
      said: lessons.map(x => ({ rootCause: x.rootCause, fixApproach: x.fixApproach, commands: x.commands, unexplained: x.unexplained })),
    };
  }
  return { perTrace, produced, lessonTraces, lessonInfo, patterns };
}

function measure(cliPath) {
  const res = { cli: cliPath, available: false, reason: '' };
  if (!existsSync(cliPath)) { res.reason = `${cliPath} not found (build it: node esbuild.mjs)`; return res; }
  const work = mkdtempSync(join(tmpdir(), 'engram-bench-lessons-'));
  // The work folder is the workspace root the CLI resolves query files against: without a marker, a stray
  // manifest above it (a package.json in /tmp) becomes the root and every scoped lesson misses.
  mkdirSync(join(work, '.engram'));
  const store = join(work, 'store');
  try {
    const probe = cli(cliPath, ['--store', join(work, 'probe'), 'replay', join(dir, `${names[0]}.jsonl`), '--json'], work);
    if (probe.code !== 0) {
      res.reason = /unknown command/i.test(probe.err) ? 'the CLI has no `replay` command' : `replay failed: ${(probe.err || probe.out).trim().split('\n')[0]}`;
      return res;
    }
    res.available = true;
    const rep = replayAll(cliPath, store, work);
    res.perTrace = rep.perTrace;
    res.wrongMerges = Object.entries(rep.lessonTraces).flatMap(([id, ts]) => {
      const t = [...ts];
      return t.flatMap((a, i) => t.slice(i + 1).filter(b => wrongMerge(a, b)).map(b => ({ id, a, b })));
    });
    res.groups = mergeGroups(rep);
    res.recall = proactive(cliPath, store, work, rep);
    if (res.recall.available) {
      for (const [name, t] of Object.entries(res.perTrace)) {
        const mine = res.recall.findable.filter(f => f.trace === name);
        if (mine.length) { t.errorsFound = mine.filter(f => f.hit).length; t.errorsAll = mine.length; t.errorsMissed = mine.filter(f => !f.hit).map(f => f.query); }
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return res;
}

/** Each merge group: do all its traces share one lesson, and is it a pattern by the group's last replay? */
function mergeGroups({ perTrace, lessonTraces, lessonInfo, patterns }) {
  const groups = {};
  for (const n of names) if (labels[n].mergeGroup) (groups[labels[n].mergeGroup] ??= []).push(n);
  return Object.entries(groups).map(([group, members]) => {
    const shared = Object.entries(lessonTraces).find(([, ts]) => members.every(m => ts.has(m)))?.[0];
    const pattern = shared ? lessonInfo[shared].maturity === 'pattern' || members.some(m => patterns[m]?.length) : false;
    return { group, members, split: splitOf(members[0]), merged: Boolean(shared) && members.every(m => !perTrace[m]?.error), pattern };
  });
}

function proactive(cliPath, store, work, { produced, lessonInfo }) {
  const file = join(work, 'queries.jsonl');
  const all = [...queries.map(q => ({ query: q.query, file: q.file })), ...findable.map(f => ({ query: f.query, file: f.file }))];
  writeFileSync(file, all.map(q => JSON.stringify(q)).join('\n') + '\n');
  // A CLI that ignores unknown options cannot tell us whether --proactive did anything.
  const bogus = cli(cliPath, ['--store', store, 'recall', '--queries', file, '--json', '--no-such-option-x'], work);
  const r = cli(cliPath, ['--store', store, 'recall', '--queries', file, '--json', '--proactive'], work);
  if (r.code !== 0) return { available: false, reason: `recall --proactive: ${(r.err || r.out).trim().split('\n')[0]}` };
  if (bogus.code === 0 && !/proactive/.test(cli(cliPath, ['--help'], work).out)) return { available: false, reason: 'recall ignores unknown options and does not document --proactive' };
  const lines = r.out.trimEnd().split('\n').map(l => JSON.parse(l));
  const top = i => lines[i]?.results?.[0];
  const fixFrom = (trace, hit) => Boolean(hit && produced[trace]?.has(hit.id) && lessonInfo[hit.id] && !lessonInfo[hit.id].unexplained);
  const results = queries.map((q, i) => {
    const hit = top(i);
    const count = lines[i]?.results?.length ?? 0;
    const said = hit ? hit.title ?? hit.id : 'nothing';
    if (q.expect === null) return { q, split: splitOf(queryTrace(q)), quiet: count === 0, said };
    return { q, split: splitOf(q.expect), hit: fixFrom(q.expect, hit), hitAny: Boolean(hit && produced[q.expect]?.has(hit.id)), said };
  });
  const findResults = findable.map((f, j) => ({ ...f, hit: fixFrom(f.trace, top(queries.length + j)), said: top(queries.length + j)?.title ?? 'nothing' }));
  return { available: true, results, findable: findResults };
}

/** A trace is right when every measure its label carries holds. */
function traceRight(name, t, m) {
  const l = labels[name];
  if (t.error) return false;
  // Where no lesson is expected, one marked unexplained (it claims no fix) is allowed.
  if (l.expectLesson ? t.lessons === 0 : t.withFix > 0) return false;
  if (t.factsMissing.length || t.falseClaims.length || t.falseStatements.length) return false;
  if (l.lessons !== undefined && t.lessons !== l.lessons) return false;
  if (l.resolved && !resolvedRight(l.resolved, t)) return false;
  if (t.errorsAll !== undefined && t.errorsFound !== t.errorsAll) return false;
  if (m.wrongMerges.some(w => w.a === name || w.b === name)) return false;
  const g = m.groups.find(x => x.members.includes(name));
  return !g || g.merged;
}

function resolvedRight(want, t) {
  if (want === 'fixed') return t.withFix > 0 && t.withFix === t.lessons && !t.outcomes.some(o => o === 'partial' || o === 'failure');
  if (want === 'unexplained') return t.withFix === 0;
  return !t.outcomes.includes('success');
}

function summary(m, split) {
  if (!m.available) return null;
  const inSplit = names.filter(n => splitOf(n) === split);
  const ok = inSplit.filter(n => !m.perTrace[n]?.error);
  const T = n => m.perTrace[n];
  const count = (list, f) => list.filter(f).length;
  const sum = (list, f) => list.reduce((s, n) => s + f(n), 0);
  const withResolved = ok.filter(n => labels[n].resolved);
  const withCount = ok.filter(n => labels[n].lessons !== undefined);
  const withErrors = ok.filter(n => T(n).errorsAll !== undefined);
  const groups = m.groups.filter(g => g.split === split);
  const rec = m.recall?.available ? m.recall.results.filter(r => r.split === split) : null;
  const related = rec?.filter(r => r.q.kind === 'related') ?? [];
  const near = rec?.filter(r => r.q.kind === 'near-miss') ?? [];
  const foreign = rec?.filter(r => r.q.kind === 'foreign') ?? [];
  return {
    traces: inSplit.length,
    replayErrors: inSplit.length - ok.length,
    right: count(ok, n => traceRight(n, T(n), m)),
    facts: sum(ok, n => T(n).factsFound.length), factsAll: sum(ok, n => T(n).factsFound.length + T(n).factsMissing.length),
    falseClaims: sum(ok, n => T(n).falseClaims.length),
    falseStatements: sum(ok, n => T(n).falseStatements.length),
    lessonsWhereExpected: count(inSplit, n => labels[n].expectLesson && T(n)?.lessons > 0), expected: count(inSplit, n => labels[n].expectLesson),
    lessonsWhereNone: count(inSplit, n => !labels[n].expectLesson && T(n)?.withFix > 0), expectedNone: count(inSplit, n => !labels[n].expectLesson),
    countRight: count(withCount, n => T(n).lessons === labels[n].lessons), countAll: withCount.length,
    resolvedRight: count(withResolved, n => resolvedRight(labels[n].resolved, T(n))), resolvedAll: withResolved.length,
    errorsTraces: count(withErrors, n => T(n).errorsFound === T(n).errorsAll), errorsTracesAll: withErrors.length,
    errorsFound: sum(withErrors, n => T(n).errorsFound), errorsAll: sum(withErrors, n => T(n).errorsAll),
    wrongMerges: m.wrongMerges.filter(w => splitOf(w.a) === split || splitOf(w.b) === split).length,
    groupsMerged: count(groups, g => g.merged), groupsPattern: count(groups, g => g.pattern), groups: groups.length,
    recall: rec && {
      hits: count(related, r => r.hit), hitsAny: count(related, r => r.hitAny), related: related.length,
      quiet: count(near, r => r.quiet), near: near.length,
      foreignQuiet: count(foreign, r => r.quiet), foreign: foreign.length,
    },
  };
}

const runs = [{ title: 'current', m: measure(resolve(opt('cli') ?? join(repo, 'dist', 'cli.js'))) }];
// The baseline: another CLI build if given, else today's pipeline with the v0.1 lesson writer.
if (opt('baseline')) runs.unshift({ title: 'baseline', m: measure(resolve(opt('baseline'))) });
else if (!argv.includes('--no-baseline')) {
  const { buildBaselineCli } = await import('./baseline/build.mjs');
  runs.unshift({ title: 'v0.1 writer', m: measure(await buildBaselineCli()) });
}
const sums = runs.map(r => Object.fromEntries(SPLITS.map(s => [s, summary(r.m, s)])));

/** What may be shown of one run: held-out traces and queries only as totals unless --held-out-details. */
function shown(m) {
  if (!m.available) return m;
  const perTrace = Object.fromEntries(Object.entries(m.perTrace).filter(([n]) => visible(n)));
  const recall = m.recall?.available
    ? { available: true, results: m.recall.results.filter(r => visible(queryTrace(r.q))).map(r => ({ ...r, q: { file: r.q.file, expect: r.q.expect, of: r.q.of, kind: r.q.kind } })), findable: m.recall.findable.filter(f => visible(f.trace)) }
    : m.recall;
  return { ...m, perTrace, recall, wrongMerges: m.wrongMerges.filter(w => visible(w.a) && visible(w.b)), groups: m.groups.filter(g => visible(g.members[0])) };
}

if (json) {
  console.log(JSON.stringify(runs.map((r, i) => ({ title: r.title, ...shown(r.m), summary: sums[i] })), null, 2));
  process.exit(0);
}

const pct = (a, b) => (b ? `${(100 * a / b).toFixed(1)}% (${a}/${b})` : '—');
const frac = (a, b) => (b ? `${a}/${b}` : '—');
const cols = runs.flatMap((r, i) => SPLITS.map(s => ({ i, s, title: `${r.title}: ${s}` })));
const cell = (c, f) => { const s = sums[c.i][c.s]; return s ? f(s) : 'n/a'; };
const rc = (c, f) => { const s = sums[c.i][c.s]; return s?.recall ? f(s.recall) : 'n/a'; };
const tr = sums.find(s => s.train)?.train, ho = sums.find(s => s['held-out'])?.['held-out'];
console.log(`### Lessons on the trace corpus (${names.length} traces: ${tr?.traces ?? '?'} train, ${ho?.traces ?? '?'} held-out; ${queries.length} recall queries, ${findable.length} error lines)\n`);
console.log(`| measure | ${cols.map(c => c.title).join(' | ')} |`);
console.log(`|---|${cols.map(() => '---:').join('|')}|`);
const row = (name, f) => console.log(`| ${name} | ${cols.map(f).join(' | ')} |`);
row('traces right (every labelled measure holds)', c => cell(c, s => pct(s.right, s.traces)));
row('lesson-fact accuracy (mustContain found)', c => cell(c, s => pct(s.facts, s.factsAll)));
row('false claims (mustNotClaim named as fix)', c => cell(c, s => String(s.falseClaims)));
row('false statements (mustNotSay in the lesson)', c => cell(c, s => String(s.falseStatements)));
row('traces with a lesson / expecting one', c => cell(c, s => frac(s.lessonsWhereExpected, s.expected)));
row('lessons with a fix where none is expected (want 0)', c => cell(c, s => frac(s.lessonsWhereNone, s.expectedNone)));
row('lesson count right (where labelled)', c => cell(c, s => frac(s.countRight, s.countAll)));
row('resolved correctly (where labelled)', c => cell(c, s => frac(s.resolvedRight, s.resolvedAll)));
row('all error lines findable (traces)', c => cell(c, s => frac(s.errorsTraces, s.errorsTracesAll)));
row('error lines findable (proactive top-1 = its lesson)', c => cell(c, s => frac(s.errorsFound, s.errorsAll)));
row('wrong merges (different fixes, one lesson)', c => cell(c, s => String(s.wrongMerges)));
row('merge groups merged / at pattern', c => cell(c, s => (s.groups ? `${s.groupsMerged}/${s.groups} / ${s.groupsPattern}/${s.groups}` : '—')));
row('replay errors', c => cell(c, s => String(s.replayErrors)));
row('proactive hit@1 with a fix (related errors)', c => rc(c, r => (r.related ? `${(r.hits / r.related).toFixed(2)} (${r.hits}/${r.related})` : '—')));
row('proactive hit@1, any lesson or episode of the trace', c => rc(c, r => (r.related ? `${(r.hitsAny / r.related).toFixed(2)} (${r.hitsAny}/${r.related})` : '—')));
row('quiet on near misses', c => rc(c, r => pct(r.quiet, r.near)));
row('quiet on errors of tools no trace has', c => rc(c, r => pct(r.foreignQuiet, r.foreign)));
for (const r of runs) {
  if (!r.m.available) console.log(`\n${r.title} (${r.m.cli}): not available: ${r.m.reason}`);
  else if (!r.m.recall?.available) console.log(`\n${r.title}: proactive recall not available: ${r.m.recall?.reason}`);
}
if (verbose) {
  for (const r of runs.filter(x => x.m.available)) {
    const m = shown(r.m);
    console.log(`\n#### ${r.title}: per trace (${heldOutDetails ? 'train and held-out' : 'train only; held-out traces are totals only'})`);
    for (const [n, t] of Object.entries(m.perTrace)) {
      if (t.error) { console.log(`- ${n}: replay error: ${t.error}`); continue; }
      const bad = [
        ...t.factsMissing.map(f => `missing ${JSON.stringify(f)}`), ...t.falseClaims.map(c => `claims ${JSON.stringify(c)}`),
        ...t.falseStatements.map(c => `says ${JSON.stringify(c)}`),
        ...(labels[n].lessons !== undefined && labels[n].lessons !== t.lessons ? [`${t.lessons} lessons, want ${labels[n].lessons}`] : []),
        ...(labels[n].resolved && !resolvedRight(labels[n].resolved, t) ? [`not resolved as ${labels[n].resolved} (episodes ${t.outcomes.join(', ') || 'none'})`] : []),
        ...(t.errorsMissed ?? []).map(e => `not found by ${JSON.stringify(e.split('\n')[0].slice(0, 80))}`),
      ];
      console.log(`- ${traceRight(n, t, r.m) ? 'ok' : 'WRONG'} ${n}${heldOut.has(n) ? ' (held-out)' : ''}: ${t.lessons} lesson(s)${bad.length ? '; ' + bad.join('; ') : ''}`);
      for (const s of t.said) console.log(`    fix: ${s.fixApproach}${s.unexplained ? ' (unexplained)' : ''}`);
    }
    for (const w of m.wrongMerges) console.log(`- wrong merge ${w.id}: ${w.a} + ${w.b}`);
    for (const g of m.groups) console.log(`- merge group ${g.group} (${g.members.join(', ')}): ${g.merged ? 'one lesson' : 'NOT merged'}${g.pattern ? ', pattern' : ''}`);
    for (const x of m.recall?.results ?? []) {
      if (x.q.kind === 'related' && !x.hit) console.log(`- recall miss for ${x.q.expect} (${x.q.file}): ${x.said}`);
      else if (x.q.kind !== 'related' && !x.quiet) console.log(`- recall alarm on ${x.q.kind} ${x.q.file}${x.q.of ? ` (near ${x.q.of})` : ''}: ${x.said}`);
    }
  }
}
