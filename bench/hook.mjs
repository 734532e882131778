#!/usr/bin/env node
// What one Claude Code hook call costs: Claude Code waits for PreToolUse and PostToolUse hooks on every
// Edit and Bash call. Each run is a fresh process fed one real payload on stdin (a PostToolUse for a Bash
// call with the jest trace's output, test/fixtures/traces/jest-cart-total-tax.jsonl), as Claude Code runs
// it. Measured in the same run, interleaved round by round so load hits all alike:
//   node -e 0                               the floor: starting Node at all
//   node dist/hook.js claude-code           the hook's own entry (what `connect --hooks` writes now)
//   node dist/cli.js hook claude-code       the whole CLI bundle (what it wrote before)
// Prints p50/p95 wall time, CPU time per call (children's user + system, /proc) and the hook's cost over
// `node -e 0`; numbers, never pass/fail.
//   node esbuild.mjs && node bench/hook.mjs [--runs 30] [--before OTHER/hook.js] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from './recall.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const known = new Set(['--runs', '--json', '--before']);
for (let i = 0; i < args.length; i++) {
  if (!known.has(args[i])) { console.error(`unknown option ${args[i]} (options: ${[...known].join(', ')})`); process.exit(2); }
  if (args[i] !== '--json') i++;
}
const runs = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 30);
const asJson = args.includes('--json');
// Another build's hook (say main's dist/hook.js copied aside), timed in the same interleaved rounds.
const before = args.includes('--before') ? resolve(args[args.indexOf('--before') + 1]) : undefined;
if (before && !existsSync(before)) { console.error(`--before ${before}: no such file`); process.exit(1); }
const hook = join(repo, 'dist/hook.js');
const cli = join(repo, 'dist/cli.js');
if (!existsSync(hook) || !existsSync(cli)) { console.error('dist/hook.js or dist/cli.js is missing: run `node esbuild.mjs` first'); process.exit(1); }

const trace = readFileSync(join(repo, 'test/fixtures/traces/jest-cart-total-tax.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
const output = trace.find(e => e.type === 'command' && e.exitCode === 0).output;
const dir = mkdtempSync(join(tmpdir(), 'engram-bench-hook-'));
const store = join(dir, 'store');
const payload = n => JSON.stringify({
  session_id: `bench-${n}`, transcript_path: join(dir, 't.jsonl'), cwd: dir, hook_event_name: 'PostToolUse',
  tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: output, stderr: '', interrupted: false },
});

const variants = [
  { name: '`node -e 0` (baseline)', argv: ['-e', '0'] },
  { name: '`node dist/hook.js claude-code`', argv: [hook, '--store', store, 'claude-code'] },
  { name: '`node dist/cli.js hook claude-code`', argv: [cli, '--store', store, 'hook', 'claude-code'] },
  ...(before ? [{ name: `\`node ${before} claude-code\` (before)`, argv: [before, '--store', store, 'claude-code'] }] : []),
];
const times = variants.map(() => []);
const cpu = variants.map(() => 0);
/** CPU seconds (user + system) of this process's waited-for children, from /proc (Linux): steady under load. */
const childCpu = () => { try { const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[13]) + Number(f[14])) / 100; } catch { return NaN; } };
try {
  for (let r = 0; r < runs + 2; r++) {
    variants.forEach((v, i) => {
      const c0 = childCpu();
      const t = process.hrtime.bigint();
      const p = spawnSync(process.execPath, v.argv, { input: payload(r), encoding: 'utf8', cwd: dir });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (r >= 2) cpu[i] += (childCpu() - c0) * 1000;
      if (p.status !== 0 || p.stderr.trim()) throw new Error(`${v.name} failed: ${p.stderr}`);
      if (r >= 2) times[i].push(ms); // two warm-up rounds (file cache)
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const rows = variants.map((v, i) => ({ name: v.name, min: Math.min(...times[i]), p50: percentile(times[i], 0.5), p95: percentile(times[i], 0.95), cpuMs: cpu[i] / runs }));
const base = rows[0];
const over = r => ({ min: r.min - base.min, p50: r.p50 - base.p50, p95: r.p95 - base.p95 });
if (asJson) {
  console.log(JSON.stringify({ node: process.version, cpus: cpus().length, load: loadavg()[0], runs, rows: rows.map(r => ({ ...r, overBaseline: over(r) })) }, null, 2));
} else {
  console.log(`Node ${process.version}, ${cpus().length} CPU(s), load ${loadavg()[0].toFixed(1)}; ${runs} runs each, interleaved`);
  console.log('| process | min ms | p50 ms | p95 ms | over `node -e 0` min / p50 / p95 ms | ratio p50 | CPU ms per call (over `node -e 0`) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${r.min.toFixed(0)} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${over(r).min.toFixed(0)} / ${over(r).p50.toFixed(0)} / ${over(r).p95.toFixed(0)} | ×${(r.p50 / base.p50).toFixed(2)} | ${r.cpuMs.toFixed(0)} (+${(r.cpuMs - base.cpuMs).toFixed(0)}) |`);
}
