// Masking: coverage of the secret corpus, false positives on ordinary text, and cost, for the current
// masker against the one before issue 10 (bench/baseline/mask.ts) in the same run. With --secretlint DIR
// (a folder where `npm install @secretlint/core @secretlint/secretlint-rule-preset-recommend` was run,
// outside the repo) the same corpus goes through secretlint's recommended preset too.
// Prints numbers; never passes or fails on timing.
//   node bench/mask.mjs [--secretlint /tmp/secretlint-eval] [--rounds 15] [--name-held-out] [--json]
import * as esbuild from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = name => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const asJson = args.includes('--json');

async function bundle() {
  const out = mkdtempSync(join(tmpdir(), 'engram-bench-mask-'));
  const entry = join(out, 'entry.ts');
  writeFileSync(entry, [
    `export * as current from ${JSON.stringify(join(root, 'src/core/mask.ts'))};`,
    `export * as baseline from ${JSON.stringify(join(here, 'baseline/mask.ts'))};`,
    `export * as before22 from ${JSON.stringify(join(here, 'baseline/mask-before-22/mask.ts'))};`,
    `export * as poisonBefore22 from ${JSON.stringify(join(here, 'baseline/mask-before-22/poison.ts'))};`,
    `export * as poison from ${JSON.stringify(join(root, 'src/core/poison.ts'))};`,
    `export * as classes from ${JSON.stringify(join(root, 'test/fixtures/secrets-classes.ts'))};`,
    `export * as injection from ${JSON.stringify(join(root, 'test/fixtures/injection-classes.ts'))};`,
    `export * as injectionOld from ${JSON.stringify(join(root, 'test/fixtures/injection.ts'))};`,
    `export * as secrets from ${JSON.stringify(join(root, 'test/fixtures/secrets.ts'))};`,
    `export * as ordinary from ${JSON.stringify(join(root, 'test/fixtures/ordinary.ts'))};`,
    `export { normaliseSignature } from ${JSON.stringify(join(root, 'src/core/signature.ts'))};`,
  ].join('\n'));
  await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: join(out, 'bundle.cjs'), logLevel: 'error' });
  const mod = createRequire(import.meta.url)(join(out, 'bundle.cjs'));
  rmSync(out, { recursive: true, force: true });
  return mod;
}

/** Every line of the recorded real tool output (test/fixtures/tool-output), deduplicated. */
function toolOutputLines() {
  const base = join(root, 'test/fixtures/tool-output');
  const lines = new Set();
  let text = '';
  for (const tool of readdirSync(base, { withFileTypes: true })) {
    if (!tool.isDirectory()) continue;
    for (const f of readdirSync(join(base, tool.name))) {
      const t = readFileSync(join(base, tool.name, f), 'utf8');
      text += t + '\n';
      for (const l of t.split('\n')) if (l.trim()) lines.add(l);
    }
  }
  return { lines: [...lines], text };
}

function timeIt(fn, minMs = 300) {
  // Warm up, then repeat until minMs has passed; report the mean per call in µs (wall and CPU).
  for (let i = 0; i < 3; i++) fn();
  let n = 0;
  const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
  do { fn(); n++; } while (Number(process.hrtime.bigint() - t0) / 1e6 < minMs);
  const wall = Number(process.hrtime.bigint() - t0) / 1e3 / n;
  const cpu = (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / n;
  return { wall, cpu };
}

async function timeAsync(fn, minMs = 300) {
  for (let i = 0; i < 2; i++) await fn();
  let n = 0;
  const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
  do { await fn(); n++; } while (Number(process.hrtime.bigint() - t0) / 1e6 < minMs);
  return { wall: Number(process.hrtime.bigint() - t0) / 1e3 / n, cpu: (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / n };
}

const m = await bundle();
const corpus = m.secrets.SECRET_CORPUS;
const needles = m.secrets.secretNeedles;
const ordinary = [...m.ordinary.ISSUE_LINES, ...m.ordinary.PROSE_LINES, ...m.ordinary.TOOL_LINES, ...m.secrets.NOT_SECRETS];
const tool = toolOutputLines();
const kb = Buffer.byteLength(tool.text) / 1024;
const typical = m.ordinary.TOOL_LINES.filter(l => l.length > 40);

function evaluate(mask, maskAll) {
  // Coverage with the default options (home folders are rewritten); false positives without the home
  // rewrite, which changes paths on purpose.
  const missed = corpus.filter(s => { const out = maskAll(s.context); return needles(s.value).some(n => out.includes(n)); });
  const fpIssue = ordinary.filter(l => mask(l) !== l);
  const fpTool = tool.lines.filter(l => mask(l) !== l);
  return { missed, fpIssue, fpTool };
}

const rows = [];
const maskers = [['baseline (before issue 10)', m.baseline], ['before issue 22', m.before22], ['current', m.current]];
// Timed in interleaved rounds (every masker once per round, the fastest round kept), so a burst of load on
// this shared machine hits all of them alike instead of whichever ran during it; the fastest round is
// the one least disturbed by other jobs.
const rounds = Number(opt('--rounds') ?? 15);
const times = maskers.map(() => ({ kb: [], msg: [] }));
for (let r = 0; r < rounds; r++) {
  maskers.forEach(([, mod], i) => {
    const mask = t => mod.maskSecrets(t, { genericHome: false });
    times[i].kb.push(timeIt(() => mask(tool.text), 80));
    times[i].msg.push(timeIt(() => { for (const l of typical) mask(l); }, 80));
  });
}
const fastest = xs => Math.min(...xs);
for (const [i, [name, mod]] of maskers.entries()) {
  const mask = t => mod.maskSecrets(t, { genericHome: false });
  const e = evaluate(mask, t => mod.maskSecrets(t));
  const perKb = { wall: fastest(times[i].kb.map(t => t.wall)), cpu: fastest(times[i].kb.map(t => t.cpu)) };
  const perMsg = { wall: fastest(times[i].msg.map(t => t.wall)), cpu: fastest(times[i].msg.map(t => t.cpu)) };
  rows.push({
    name, covered: corpus.length - e.missed.length, total: corpus.length,
    missedKinds: [...new Set(e.missed.map(s => s.kind))],
    fpOrdinary: e.fpIssue.length, ordinary: ordinary.length, fpTool: e.fpTool.length, toolLines: tool.lines.length,
    usPerKb: perKb.wall / kb, cpuUsPerKb: perKb.cpu / kb, usPerMsg: perMsg.wall / typical.length, cpuUsPerMsg: perMsg.cpu / typical.length,
    fpExamples: [...e.fpIssue, ...e.fpTool].slice(0, 5).map(l => `${l.slice(0, 90)} -> ${mask(l).slice(0, 90)}`),
  });
}
const sig = timeIt(() => { for (const l of typical) m.normaliseSignature(l); });

const slDir = opt('--secretlint');
if (slDir) {
  const req = createRequire(pathToFileURL(join(resolve(slDir), 'package.json')));
  const { lintSource } = req('@secretlint/core');
  const { creator } = req('@secretlint/secretlint-rule-preset-recommend');
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
  const lint = async content => (await lintSource({ source: { content, filePath: '/memory.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } })).messages;
  let covered = 0;
  const missedKinds = new Set();
  for (const s of corpus) {
    const msgs = await lint(s.context);
    // Detected when a reported range covers the middle of the secret (where the needle is taken).
    const at = s.context.indexOf(s.value.split('\n')[0]);
    const mid = at + Math.floor(Math.min(s.value.split('\n')[0].length, 200) / 2);
    if (at >= 0 && msgs.some(x => x.range[0] <= mid && x.range[1] > mid)) covered++; else missedKinds.add(s.kind);
  }
  let fpOrdinary = 0, fpTool = 0;
  for (const l of ordinary) if ((await lint(l)).length) fpOrdinary++;
  for (const l of tool.lines) if ((await lint(l)).length) fpTool++;
  const perKb = await timeAsync(() => lint(tool.text));
  const perMsg = await timeAsync(async () => { for (const l of typical) await lint(l); });
  const version = JSON.parse(readFileSync(join(resolve(slDir), 'node_modules/@secretlint/core/package.json'), 'utf8')).version;
  rows.push({
    name: `secretlint ${version} + preset-recommend`, covered, total: corpus.length, missedKinds: [...missedKinds],
    fpOrdinary, ordinary: ordinary.length, fpTool, toolLines: tool.lines.length,
    usPerKb: perKb.wall / kb, cpuUsPerKb: perKb.cpu / kb, usPerMsg: perMsg.wall / typical.length, cpuUsPerMsg: perMsg.cpu / typical.length, fpExamples: [],
  });
}

// Issue 22: by class, the half tuned on (train) and the held-out half (measured only), for the masker
// and the injection guard before issue 22 and now, in the same run.
const held = id => m.classes.HELD_OUT.has(id) || m.injection.HELD_OUT.has(id);
const split = (list, ok) => {
  const out = new Map();
  for (const s of list) {
    const r = out.get(s.cls) ?? { train: [0, 0], held: [0, 0], missed: [] };
    const half = held(s.id) ? r.held : r.train;
    half[1]++;
    // Held-out misses are counted, not named, unless asked: naming them invites tuning on them.
    if (ok(s)) half[0]++; else if (!held(s.id) || args.includes('--name-held-out')) r.missed.push(`${s.id}${held(s.id) ? ' (held out)' : ''}`);
    out.set(s.cls, r);
  }
  return out;
};
const classRows = [];
for (const [name, mod, poison] of [['before issue 22', m.before22, m.poisonBefore22], ['current', m.current, m.poison]]) {
  const masked = split(m.classes.SECRET_CLASSES, s => { const out = mod.maskSecrets(s.context); return !m.classes.classNeedles(s.value).some(n => out.includes(n)); });
  const kept = split(m.classes.ORDINARY_CLASSES, s => mod.maskSecrets(s.text, { genericHome: false }) === s.text);
  const flagged = split(m.injection.INJECTION_CLASSES, s => poison.detectInjection(s.text).length > 0);
  const clean = split(m.injection.BENIGN_CLASSES, s => poison.detectInjection(s.text).length === 0);
  classRows.push({ name, masked: Object.fromEntries(masked), kept: Object.fromEntries(kept), flagged: Object.fromEntries(flagged), clean: Object.fromEntries(clean) });
}

// Ordinary text the guard must leave unflagged: every recorded tool-output line, the masking fixtures'
// ordinary lines, every text line of the recorded capture traces, and injection.ts's benign lines.
function traceLines() {
  const base = join(root, 'test/fixtures/traces');
  const lines = new Set();
  const walk = v => { if (typeof v === 'string') { for (const l of v.split('\n')) if (l.trim()) lines.add(l); } else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x); };
  for (const f of readdirSync(base)) if (f.endsWith('.jsonl')) for (const l of readFileSync(join(base, f), 'utf8').split('\n')) if (l.trim()) walk(JSON.parse(l));
  return [...lines];
}
// Recorded real runs of git, npm, pip, sha*sum, openssl, ssh-keygen, gpg, cargo (bench/data/record-ordinary.sh):
// digests, object ids, fingerprints and public keys that masking must leave byte for byte.
const ordinaryOutput = readdirSync(join(root, 'test/fixtures/ordinary-output')).filter(f => f.endsWith('.txt'))
  .map(f => ({ name: f, text: readFileSync(join(root, 'test/fixtures/ordinary-output', f), 'utf8') }));
const recordedRows = [['before issue 22', m.before22], ['current', m.current]].map(([name, mod]) => {
  const changed = ordinaryOutput.filter(f => mod.maskSecrets(f.text, { genericHome: false }) !== f.text);
  return { name, changed: changed.length, files: ordinaryOutput.length, lines: ordinaryOutput.reduce((a, f) => a + f.text.split('\n').filter(Boolean).length, 0), examples: changed.map(f => f.name) };
});
const guardOrdinary = [...new Set([...tool.lines, ...ordinary, ...traceLines(), ...m.injectionOld.BENIGN])];
const guardRows = [['before issue 22', m.poisonBefore22], ['current', m.poison]].map(([name, p]) => {
  const flagged = guardOrdinary.filter(l => p.detectInjection(l).length);
  const attacks = m.injectionOld.ATTACKS.filter(a => p.detectInjection(a).length).length;
  return { name, flagged: flagged.length, lines: guardOrdinary.length, examples: flagged.slice(0, 5), attacks, attackTotal: m.injectionOld.ATTACKS.length };
});

if (asJson) {
  console.log(JSON.stringify({ rows, classRows, guardRows, recordedRows, signatureUsPerMsg: sig.wall / typical.length, signatureCpuUsPerMsg: sig.cpu / typical.length }, null, 2));
} else {
  console.log(`Masking bench — ${cpus().length} CPUs, Node ${process.version}, load ${loadavg().map(x => x.toFixed(1)).join(' ')}`);
  console.log(`corpus: ${corpus.length} secrets in context; ordinary: ${ordinary.length} lines (issue + real tool output + NOT_SECRETS), ${tool.lines.length} recorded tool-output lines (${kb.toFixed(0)} KB); typical message: ${typical.length} lines, mean ${Math.round(typical.reduce((a, l) => a + l.length, 0) / typical.length)} chars\n`);
  console.log('| masker | secrets masked | ordinary lines changed | tool-output lines changed | µs per KB (CPU) | µs per message (CPU) |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.covered}/${r.total} | ${r.fpOrdinary}/${r.ordinary} | ${r.fpTool}/${r.toolLines} | ${r.usPerKb.toFixed(1)} (${r.cpuUsPerKb.toFixed(1)}) | ${r.usPerMsg.toFixed(1)} (${r.cpuUsPerMsg.toFixed(1)}) |`);
  }
  console.log(`\nnormaliseSignature (masks first now): ${(sig.wall / typical.length).toFixed(1)} µs per message (CPU ${(sig.cpu / typical.length).toFixed(1)})`);
  for (const r of rows) {
    if (r.missedKinds.length) console.log(`${r.name} missed: ${r.missedKinds.join(', ')}`);
    for (const x of r.fpExamples) console.log(`${r.name} changed: ${x}`);
  }
  const cur = rows.find(r => r.name === 'current'), before = rows.find(r => r.name === 'before issue 22');
  console.log(`\ncost against the masker before issue 22, this run: ${(cur.cpuUsPerKb / before.cpuUsPerKb).toFixed(2)}x per KB, ${(cur.cpuUsPerMsg / before.cpuUsPerMsg).toFixed(2)}x per message (CPU)`);
  for (const g of guardRows) {
    console.log(`guard ${g.name}: injection.ts attempts flagged ${g.attacks}/${g.attackTotal}; ordinary lines flagged ${g.flagged}/${g.lines} (tool output, masking fixtures, traces, injection.ts benign)`);
    for (const x of g.examples) console.log(`  flagged: ${JSON.stringify(x).slice(0, 120)}`);
  }
  for (const r of recordedRows) console.log(`recorded ordinary output (${r.files} files, ${r.lines} lines: git, npm pack, pip hash, sha*sum, openssl, ssh-keygen, gpg, cargo), ${r.name}: ${r.changed} files changed${r.examples.length ? ` (${r.examples.join(', ')})` : ''}`);
  const frac = ([a, b]) => `${a}/${b}`;
  for (const [title, key] of [['secrets masked (issue 22 corpus)', 'masked'], ['ordinary lines unchanged', 'kept'], ['injections flagged', 'flagged'], ['benign lines unflagged', 'clean']]) {
    console.log(`\n${title}: train / held-out`);
    console.log(`| class | ${classRows.map(r => r.name).join(' | ')} |`);
    console.log(`|---|${classRows.map(() => '---').join('|')}|`);
    for (const cls of Object.keys(classRows[0][key])) {
      console.log(`| ${cls} | ${classRows.map(r => `${frac(r[key][cls].train)} / ${frac(r[key][cls].held)}`).join(' | ')} |`);
    }
    const missed = classRows[classRows.length - 1][key];
    for (const [cls, r] of Object.entries(missed)) if (r.missed.length) console.log(`current, ${cls}: not ${key} ${r.missed.join(', ')}`);
  }
}
