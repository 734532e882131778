// Records live capture traces in the real host: for each session of test/e2e/lib/scenarios.mjs, a fresh
// code-server + Chromium on a copy of demo/, *Engram: Record a Capture Trace* started from the command
// palette (its save dialog given the file), the session played at the keyboard at human speed (200–400 ms
// a key, with pauses), and the recording stopped with the same command once the window has seen every
// command end. The trace is written as test/fixtures/traces/live-NAME.jsonl in the corpus's form (the
// run's folders written /workspace and /tmp/engram-trace, the home /home/dev), with its label: written
// here, from the story each session plays, before any lesson writer saw the trace. The decoys (build
// output tsc wrote) are the files the trace shows changing that the story did not edit.
// Then heldout.json is rewritten by the committed rule (scripts/dev/traces/heldout.mjs).
//
//   flock /tmp/engram-host.lock node scripts/dev/record-live-traces.mjs [--only a,b] [--list] [--no-build]
//   node scripts/dev/record-live-traces.mjs --queries     (their recall queries, from real tsc/node runs)
//   node scripts/dev/record-live-traces.mjs --relabel     (the recorded traces' labels again, from LIVE)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build, cleanupAll, ensureHost, log, repoRoot } from '../host/lib.mjs';
import { escape, runCommand, startHost } from '../../test/e2e/lib/host.mjs';
import { DEMO, scenarios, useTerminalRunner } from '../../test/e2e/lib/scenarios.mjs';
import { KeyLog, engramLog, focusTerminal, terminalText, typeHuman, userSettings, waitFor } from '../../test/e2e/lib/user.mjs';
import { createHash } from 'node:crypto';
import { heldOutFile, readLabels } from './traces/heldout.mjs';
import { probe } from './traces/queries.mjs';

const OUT = path.join(repoRoot, 'test/fixtures/traces');
const PLACEHOLDERS = {
  '/workspace': "the temp workspace the real host (code-server) had open: a copy of demo/, or the session's own small project",
  '/tmp/engram-trace': 'the run folder around it',
  '/home/dev': "the recording machine's home",
};
const TS2322 = "src/config.ts(11,3): error TS2322: Type 'string' is not assignable to type 'number'.";
const CMD = 'Engram: Record a Capture Trace (start/stop)';
/** The key the run's keybindings.json binds to the command, with the trace's file as its argument. */
const RECORD_KEY = 'Control+Alt+Shift+F9';

/**
 * The sessions recorded, each a scenario and its label (what the story did: the error, what fixed it,
 * what did not). `commands` is how many terminal commands the story runs: the recording stops when the
 * trace holds them all. `editorClean`: the story ends with a file whose diagnostics must be empty.
 */
const LIVE = {
  'demo-ts2322-retype': {
    commands: 2,
    label: {
      description: "The demo README's first step typed in the real host: `npm run build` fails with TS2322 on `port` in src/config.ts; the line is retyped at human speed as Number(process.env.PORT ?? 8080) and saved; the build passes. tsc writes build/ on both runs.",
      family: 'tsc', mustContain: ['Number(process.env.PORT ?? 8080)'], mustNotClaim: [], expectLesson: true, unexplained: false,
      lessons: 1, errors: [TS2322], mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, mergeGroup: 'live-demo-port', classes: ['build-output', 'typing'],
    },
  },
  'demo-check-settings': {
    commands: 3,
    label: {
      description: '`npm run check` fails with ENOENT for config/settings.json; `mkdir -p config && echo ... > config/settings.json` in the terminal creates it; the check passes.',
      family: 'node', mustContain: ['config/settings.json'], mustNotClaim: ['src/config.ts'], expectLesson: true, unexplained: false,
      lessons: 1, mustNotSay: ['did not fix'], resolved: 'fixed', story: 'terminal', live: true, classes: [],
    },
  },
  'typing-transient-errors': {
    commands: 0, editorClean: 'src/config.ts',
    label: {
      description: 'A clean demo file; its `port: Number(process.env.PORT ?? 8080),` line retyped over itself at 200–400 ms a key with pauses, so the editor reports half-typed names and missing commas while it is typed; saved with no error. Nothing to learn.',
      family: 'tsc', mustContain: [], mustNotClaim: ['src/config.ts'], decoys: ['src/config.ts'], expectLesson: false, unexplained: false,
      lessons: 0, story: 'editor', live: true, classes: ['typing', 'nothing-to-learn'],
    },
  },
  'tsc-not-found-then-ts2322': {
    commands: 4,
    label: {
      description: 'The demo without its TypeScript: `npm run build` fails with `sh: 1: tsc: not found`; `npm install --save-dev typescript` installs it (package.json and package-lock.json change); the build then fails with TS2322 instead, a different error; the line is fixed as Number(process.env.PORT ?? 8080) and the build passes. Two lessons: the install resolved the first error.',
      family: 'npm', mustContain: ['npm install --save-dev typescript', 'Number(process.env.PORT ?? 8080)'], mustNotClaim: ['package-lock.json'], decoys: ['package-lock.json'],
      expectLesson: true, unexplained: false, lessons: 2, errors: [TS2322], mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, mergeGroup: 'live-demo-port',
      classes: ['changed-error', 'install-command', 'lockfile', 'build-output'],
    },
  },
  'same-fix-two-folders': {
    commands: 4,
    label: {
      description: 'TS2322 on `port` fixed by the same edit twice: in src/config.ts, then in packages/api/src/config.ts (a copy, broken by typing and fixed again), each confirmed by `npm run build`. One lesson at pattern maturity covering both folders.',
      family: 'tsc', mustContain: ['Number(process.env.PORT ?? 8080)'], mustNotClaim: [], expectLesson: true, unexplained: false,
      lessons: 1, errors: [TS2322], mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, mergeGroup: 'live-demo-port', classes: ['same-fix-two-folders', 'build-output', 'typing'],
    },
  },
  'editor-ts2322-typed': {
    commands: 0, editorClean: 'src/config.ts',
    label: {
      description: "Editor only: a clean src/config.ts whose port line is retyped as `port: process.env.PORT ?? '8080',` and saved (TS2322 reported by the language server), then retyped as Number(process.env.PORT ?? 8080) and saved; no error remains.",
      family: 'tsc', mustContain: ['Number(process.env.PORT ?? 8080)'], mustNotClaim: [], expectLesson: true, unexplained: false,
      lessons: 1, mustNotSay: ['did not fix'], resolved: 'fixed', story: 'editor', live: true, mergeGroup: 'live-demo-port', classes: ['typing'],
    },
  },
  'check-port-string': {
    commands: 2,
    label: {
      description: '`npm run check` fails with `TypeError: settings.port must be a number, got string` (config/settings.json has "8080"); the JSON is retyped as {"port": 8080} and saved; the check passes.',
      family: 'node', mustContain: ['{"port": 8080}'], mustNotClaim: ['src/config.ts', 'scripts/check.js'], expectLesson: true, unexplained: false,
      lessons: 1, errors: ['TypeError: settings.port must be a number, got string'], mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, classes: [],
    },
  },
  'web-ts2322-boolean': {
    commands: 2,
    label: {
      description: "packages/web/src/app.ts: a new line `export const named: boolean = title('x');` typed and saved; `npm run build` fails with TS2322 (string to boolean); the line is retyped as `title('x').length > 0` and the build passes.",
      family: 'tsc', mustContain: ["title('x').length > 0"], mustNotClaim: ['src/config.ts'], expectLesson: true, unexplained: false,
      lessons: 1, mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, classes: ['build-output', 'typing'],
    },
  },
  'api-ts2339-typo': {
    commands: 2,
    label: {
      description: 'packages/api/src/routes.ts: `export const home: string = routes.frist;` typed and saved; `npm run build` fails with TS2339 (no property frist); the line is retyped as routes[0] and the build passes.',
      family: 'tsc', mustContain: ['routes[0]'], mustNotClaim: ['src/config.ts'], expectLesson: true, unexplained: false,
      lessons: 1, mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, classes: ['build-output', 'typing'],
    },
  },
  'read-only-commands': {
    commands: 3,
    label: {
      description: 'Read-only commands in the terminal: `echo $SHELL; which tsc` (which exits 1: tsc is the project\'s own, not on PATH), `ls src`, then `npm run build` passes. Nothing failed that needed a fix: no episode, no lesson.',
      family: 'shell', mustContain: [], mustNotClaim: [], expectLesson: false, unexplained: false,
      lessons: 0, story: 'terminal', live: true, classes: ['nothing-to-learn'],
    },
  },
  // Sessions in other tools than the demo's tsc and node (python3, pytest, make + gcc, cargo, javac).
  // `outputs`: files the tools write (bytecode, caches, binaries, target/) that are never the fix.
  'py-nameerror-typo': {
    commands: 2,
    label: {
      description: 'python3 report.py fails with NameError: name \'totl\' is not defined (Did you mean: \'total\'?) on its print line; the call is retyped as total(...) in the editor and saved; the script runs.',
      family: 'python', mustContain: ['print(total([{"price": 3}, {"price": 4}]))'], mustNotClaim: [], expectLesson: true, unexplained: false,
      lessons: 1, errors: ["NameError: name 'totl' is not defined. Did you mean: 'total'?"], mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, classes: ['typing'],
    },
  },
  'pytest-fix-in-other-folder': {
    commands: 3, outputs: /(^|\/)(__pycache__|\.pytest_cache)\/|^pytest-cache-files-/,
    label: {
      description: '`python3 -m pytest -q tests` fails test_with_tax (assert 10.2 == 12): the test is in tests/, the bug in shop/price.py (amount + 0.2 for 20% VAT). `cat shop/price.py` looks at it (read-only); the line is retyped as amount * 1.2 and saved; pytest passes.',
      family: 'pytest', mustContain: ['return amount * 1.2', 'shop/price.py', 'test_with_tax'], mustNotClaim: ['tests/test_price.py'], decoys: ['cat shop/price.py'], expectLesson: true, unexplained: false,
      lessons: 1, errors: ['FAILED tests/test_price.py::test_with_tax - assert 10.2 == 12'], mustNotSay: ['did not fix', '1 failed'], resolved: 'fixed', story: 'mixed', live: true, classes: ['read-only', 'typing'],
    },
  },
  'make-gcc-undeclared': {
    commands: 2, outputs: /^count$/,
    label: {
      description: "`make` fails: gcc reports 'totl' undeclared (did you mean 'total') in count.c's printf line; the line is retyped with total and saved; `make && ./count` builds and prints 6. The count binary the passing build writes is not a fix, nor is the Makefile.",
      family: 'gcc', mustContain: ['printf("%d\\n", total);'], mustNotClaim: ['Makefile'], expectLesson: true, unexplained: false,
      lessons: 1, errors: ['error: ‘totl’ undeclared (first use in this function)'], mustNotSay: ['did not fix', 'each undeclared identifier is reported only once'], resolved: 'fixed', story: 'mixed', live: true, classes: ['build-output', 'typing', 'note-line'],
    },
  },
  'cargo-e0308-mismatch': {
    commands: 2, outputs: /^(target\/|Cargo\.lock$)/,
    label: {
      description: '`cargo build` fails with E0308 mismatched types: `let retries: u32 = "3";` in src/main.rs; the line is retyped as `let retries: u32 = 3;` and saved; the build passes. Cargo.lock and target/ (written by cargo) are not fixes.',
      family: 'cargo', mustContain: ['let retries: u32 = 3;'], mustNotClaim: ['Cargo.toml'], expectLesson: true, unexplained: false,
      lessons: 1, mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, classes: ['build-output', 'typing'],
    },
  },
  'javac-symbol-typo': {
    commands: 2, outputs: /\.class$/,
    label: {
      description: '`javac Greeter.java` fails with cannot find symbol (variable greting) on the println line; the line is retyped as System.out.println(greeting); and saved; `javac Greeter.java && java Greeter` compiles and prints hello. Greeter.class is compiler output, not a fix.',
      family: 'javac', mustContain: ['System.out.println(greeting);'], mustNotClaim: [], expectLesson: true, unexplained: false,
      lessons: 1, errors: ['Greeter.java:4: error: cannot find symbol'], mustNotSay: ['did not fix', '1 error'], resolved: 'fixed', story: 'mixed', live: true, classes: ['build-output', 'typing'],
    },
  },
  'py-missing-file-then-valueerror': {
    commands: 4,
    label: {
      description: "`python3 stock.py` fails with FileNotFoundError for stock.csv; `printf 'name,qty\\nbolt,x\\n' > stock.csv` creates it and the script then fails with a different error, ValueError: invalid literal for int() with base 10: 'x'; the csv's second line is retyped as bolt,12 and saved; the script runs. Two lessons: creating the file resolved the first error.",
      family: 'python', mustContain: ["printf 'name,qty\\nbolt,x\\n' > stock.csv", 'bolt,12'], mustNotClaim: ['stock.py'], expectLesson: true, unexplained: false,
      lessons: 2, mustNotSay: ['did not fix'], resolved: 'fixed', story: 'mixed', live: true, classes: ['changed-error', 'typing'],
    },
  },
};

// The recall set of the live traces: real tool output from fresh runs (scripts/dev/traces/queries.mjs's
// probe: the repo's tsc, node), an error from another file the lesson should answer (related) and one of
// the same shape about something else that no lesson should (near-miss).
const tsq = files => ({ 'package.json': '{ "name": "q", "private": true }\n', 'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022', module: 'commonjs', strict: true, noEmit: true, types: [] }, include: ['src', 'packages'] }) + '\n', ...files });
const checkJs = fs.readFileSync(path.join(DEMO, 'scripts/check.js'), 'utf8');
const QUERIES = {
  'demo-ts2322-retype': [
    { kind: 'related', file: 'src/server/config.ts', files: tsq({ 'src/server/config.ts': "declare const process: { env: Record<string, string | undefined> };\nexport interface ServerConfig { port: number }\nexport const server: ServerConfig = {\n  port: process.env.PORT ?? '3000',\n};\n" }), how: 'tsc' },
    { kind: 'near-miss', file: 'src/labels.ts', files: tsq({ 'src/labels.ts': "export interface Label { text: string }\nexport const label: Label = { text: 42 };\n" }), how: 'tsc' },
  ],
  'demo-check-settings': [
    { kind: 'related', file: 'tools/check.js', files: { 'tools/check.js': checkJs }, how: 'node tools/check.js' },
    { kind: 'near-miss', file: 'scripts/users.js', files: { 'scripts/users.js': "const fs = require('fs');\nconst path = require('path');\nconsole.log(fs.readFileSync(path.join(__dirname, '..', 'data', 'users.csv'), 'utf8'));\n" }, how: 'node scripts/users.js' },
  ],
  'tsc-not-found-then-ts2322': [
    { kind: 'related', file: 'package.json', files: { 'package.json': '{ "name": "web", "private": true, "scripts": { "build": "tsc -p ." } }\n' }, how: 'env PATH=/usr/bin:/bin npm run build' },
  ],
  'check-port-string': [
    { kind: 'related', file: 'scripts/check.js', files: { 'scripts/check.js': checkJs, 'config/settings.json': '{"port": "3000"}\n' }, how: 'node scripts/check.js' },
  ],
  'web-ts2322-boolean': [
    { kind: 'related', file: 'packages/web/src/nav.ts', files: tsq({ 'packages/web/src/nav.ts': "function heading(s: string): string { return s.toUpperCase(); }\nexport const shown: boolean = heading('home');\n" }), how: 'tsc' },
  ],
  'api-ts2339-typo': [
    { kind: 'related', file: 'packages/api/src/paths.ts', files: tsq({ 'packages/api/src/paths.ts': "const paths = ['/a', '/b'] as const;\nexport const start: string = paths.frist;\n" }), how: 'tsc' },
    { kind: 'near-miss', file: 'packages/api/src/size.ts', files: tsq({ 'packages/api/src/size.ts': "export const size = (s: string): number => s.lenght;\n" }), how: 'tsc' },
  ],
  // The other tools' sessions: the same error in another file (related), and one of its shape about
  // another name or function (near-miss).
  'py-nameerror-typo': [
    { kind: 'related', file: 'invoice.py', files: { 'invoice.py': 'def total(amounts):\n    return sum(amounts)\n\n\nprint(totl([5, 7]))\n' }, how: 'python3 invoice.py' },
    { kind: 'near-miss', file: 'stats.py', files: { 'stats.py': 'def mean(xs):\n    return sum(xs) / len(xs)\n\n\nprint(median([1, 2, 3]))\n' }, how: 'python3 stats.py' },
  ],
  'pytest-fix-in-other-folder': [
    { kind: 'related', file: 'tests/test_cart.py', files: { 'shop/__init__.py': '', 'shop/price.py': 'def with_tax(amount):\n    return amount + 0.2\n', 'tests/test_cart.py': 'from shop.price import with_tax\n\n\ndef test_cart_with_tax():\n    assert with_tax(5) == 6\n' }, how: 'python3 -m pytest -q tests' },
    { kind: 'near-miss', file: 'tests/test_discount.py', files: { 'shop/__init__.py': '', 'shop/discount.py': 'def discounted(amount):\n    return amount - 0.1\n', 'tests/test_discount.py': 'from shop.discount import discounted\n\n\ndef test_discounted():\n    assert discounted(10) == 9\n' }, how: 'python3 -m pytest -q tests' },
  ],
  'make-gcc-undeclared': [
    { kind: 'related', file: 'sum.c', files: { 'Makefile': 'sum: sum.c\n\tgcc -Wall -o sum sum.c\n', 'sum.c': '#include <stdio.h>\n\nint main(void) {\n  int total = 4 + 5;\n  printf("%d\\n", totl);\n  return 0;\n}\n' }, how: 'make' },
    { kind: 'near-miss', file: 'avg.c', files: { 'Makefile': 'avg: avg.c\n\tgcc -Wall -o avg avg.c\n', 'avg.c': '#include <stdio.h>\n\nint main(void) {\n  int sum = 9;\n  printf("%d\\n", sum / count);\n  return 0;\n}\n' }, how: 'make' },
  ],
  'javac-symbol-typo': [
    { kind: 'related', file: 'Welcome.java', files: { 'Welcome.java': 'public class Welcome {\n  public static void main(String[] args) {\n    String greeting = "welcome";\n    System.out.println(greting.toUpperCase());\n  }\n}\n' }, how: 'javac Welcome.java' },
    { kind: 'near-miss', file: 'Counter.java', files: { 'Counter.java': 'public class Counter {\n  public static void main(String[] args) {\n    int count = 3;\n    System.out.println(cont + 1);\n  }\n}\n' }, how: 'javac Counter.java' },
  ],
};

/** Writes the live traces' queries into queries.jsonl (replacing earlier live ones; others untouched). */
function makeLiveQueries() {
  const file = path.join(OUT, 'queries.jsonl');
  const kept = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).filter(l => !/^live-/.test(JSON.parse(l).of ?? ''));
  const lines = [];
  for (const [name, qs] of Object.entries(QUERIES)) {
    if (!fs.existsSync(path.join(OUT, `live-${name}.label.json`))) continue;
    for (const q of qs) {
      const of = `live-${name}`;
      const id = createHash('sha256').update(JSON.stringify([q.file, of, q.kind, JSON.stringify([q.files, q.how])])).digest('hex').slice(0, 12);
      const query = probe(q.files, q.how);
      lines.push(JSON.stringify({ id, query, file: q.file, expect: q.kind === 'related' ? of : null, of, kind: q.kind }));
    }
  }
  fs.writeFileSync(file, [...kept, ...lines].join('\n') + '\n');
  return lines.length;
}

const argv = process.argv.slice(2);
let only;
let doBuild = true;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--only') only = new Set(argv[++i].split(','));
  else if (argv[i] === '--no-build') doBuild = false;
  else if (argv[i] === '--queries') { console.log(`${makeLiveQueries()} live queries written`); process.exit(0); }
  else if (argv[i] === '--relabel') {
    // The labels again from the sessions' labels here, for the traces already recorded (no host needed).
    const done = Object.keys(LIVE).filter(n => fs.existsSync(path.join(OUT, `live-${n}.jsonl`)));
    for (const n of done) writeLabel(n, fs.readFileSync(path.join(OUT, `live-${n}.jsonl`), 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)));
    fs.writeFileSync(path.join(OUT, 'heldout.json'), JSON.stringify(heldOutFile(readLabels(OUT)), null, 2) + '\n');
    console.log(`${done.length} live label(s) written`);
    process.exit(0);
  } else if (argv[i] === '--list') { console.log(Object.keys(LIVE).map(n => `live-${n}`).join('\n')); process.exit(0); }
  else { console.error(`unknown argument: ${argv[i]}\nusage: node scripts/dev/record-live-traces.mjs [--only a,b] [--list] [--no-build] | --queries`); process.exit(2); }
}
for (const n of only ?? []) if (!LIVE[n]) { console.error(`no live session named ${n} (see --list)`); process.exit(2); }
for (const n of Object.keys(LIVE)) if (!scenarios[n]) throw new Error(`no scenario ${n} in test/e2e/lib/scenarios.mjs`);

/** The trace's lines with the run's own folders written as the corpus writes them. */
function normalise(text, { workspace, runDir }) {
  const swap = (s, from, to) => s.split(from).join(to);
  let out = swap(text, workspace, '/workspace');
  out = swap(out, runDir, '/tmp/engram-trace');
  out = swap(out, fs.realpathSync(os.tmpdir()), '/tmp');
  out = swap(out, os.homedir(), '/home/dev');
  return out;
}

/** The command events of the trace being written (the recorder writes each line as it happens). */
function tracedCommands(file) {
  let text = '';
  try { text = fs.readFileSync(file, 'utf8'); } catch { return []; }
  return text.split('\n').filter(Boolean).flatMap(l => { try { const e = JSON.parse(l); return e.type === 'command' ? [e] : []; } catch { return []; } });
}

/**
 * Types `command` into the terminal as runInTerminal does, and knows it ended when the trace being
 * recorded gets its command event: the window's own shell-execution end, which does not depend on the
 * rows the terminal still shows (its decorations stop growing once earlier commands scroll away).
 * 'success' or 'error' from the recorded exit code.
 */
function traceRunner(file) {
  return async (page, command, { keys, timeout = 300_000 } = {}) => {
    await escape(page);
    await focusTerminal(page);
    const before = tracedCommands(file).length;
    await typeHuman(page, command, { keys });
    const shown = () => terminalText(page).then(t => t.trimEnd().split('\n').pop()?.endsWith(command));
    if (!(await waitFor(`\`${command}\` on the prompt line`, shown, { timeout: 10_000, interval: 500 }).catch(() => false))) {
      await focusTerminal(page);
      await page.keyboard.press('Control+U');
      await typeHuman(page, command, { keys });
      await waitFor(`\`${command}\` on the prompt line (typed again)`, shown, { timeout: 15_000, interval: 500 }).catch(async e => { throw new Error(`${e.message}\nterminal:\n${await terminalText(page)}`); });
    }
    await page.keyboard.press('Enter');
    const ended = await waitFor(`\`${command}\` in the trace`, () => tracedCommands(file)[before], { timeout, interval: 500 })
      .catch(async e => { throw new Error(`${e.message}\nterminal:\n${await terminalText(page)}`); });
    if (ended.command.trim() !== command) throw new Error(`the trace recorded \`${ended.command}\`, not \`${command}\``);
    return ended.exitCode === 0 ? 'success' : 'error';
  };
}

/**
 * Writes the label of live-NAME: the session's label, with decoys from what happened (files the trace
 * shows changing that the tools wrote: build output, caches, binaries; they are never the fix).
 */
function writeLabel(name, events) {
  const spec = LIVE[name];
  const changed = new Set(events.flatMap(e => (e.type === 'change' || e.type === 'disk' ? [e.file] : [])));
  const ran = new Set(events.flatMap(e => (e.type === 'command' ? [e.command] : [])));
  const build = [...changed].filter(f => (spec.outputs ?? /^build\//).test(f)).sort();
  const label = { ...spec.label, placeholders: PLACEHOLDERS };
  label.mustNotClaim = [...new Set([...label.mustNotClaim, ...build])];
  label.decoys = [...new Set([...(label.decoys ?? []).filter(d => changed.has(d) || ran.has(d)), ...build])];
  if (!label.decoys.length) delete label.decoys;
  fs.writeFileSync(path.join(OUT, `live-${name}.label.json`), JSON.stringify(label, null, 2) + '\n');
}

async function record(name) {
  const spec = LIVE[name];
  const s = scenarios[name];
  let file;
  const host = await startHost({
    workspace: DEMO, settings: userSettings,
    beforeOpen: ({ runDir, workspace }) => {
      file = path.join(runDir, `live-${name}.jsonl`);
      const keysFile = path.join(runDir, 'user-data', 'User', 'keybindings.json');
      fs.mkdirSync(path.dirname(keysFile), { recursive: true });
      fs.writeFileSync(keysFile, JSON.stringify([{ key: 'ctrl+alt+shift+f9', command: 'engram.recordTrace', args: file }], null, 2));
      return s.prepare(workspace);
    },
  });
  const ctx = { keys: new KeyLog() };
  const started = Date.now();
  try {
    // Start: the extension's command, bound in the user's keybindings to a key with the trace's file as
    // its argument (what the save dialog would return). The simple file dialog of this host resets a path
    // filled into it to its starting folder ("The folder already exists"), so it is not used to name the
    // file. The key is pressed once the extension has activated: the palette lists the command then (a
    // cold window on a loaded machine shows "Activating Extensions..." for a while).
    await waitFor('the record command in the palette', async () => {
      await escape(host.page);
      await host.page.keyboard.press('F1');
      const input = host.page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${CMD}`);
      const seen = await host.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: CMD }).first()
        .waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false);
      await host.page.keyboard.press('Escape');
      return seen;
    }, { timeout: 240_000, interval: 2000 });
    await host.page.locator('.part.activitybar').first().click({ position: { x: 5, y: 5 } }).catch(() => {});
    await host.page.keyboard.press(RECORD_KEY);
    await waitFor('the recording to start', () => engramLog(host.runDir).includes('trace recording started'), { timeout: 60_000 });
    useTerminalRunner(traceRunner(file));
    try { await s.play(host, ctx); } finally { useTerminalRunner(undefined); }
    // Stop once the window has delivered every command the story ran (and a clean file reads clean).
    await waitFor(`${spec.commands} command(s) in the trace`, () => {
      const events = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
      const commands = events.filter(e => e.type === 'command').length;
      if (commands < spec.commands) return false;
      if (!spec.editorClean) return true;
      const diags = events.filter(e => e.type === 'diagnostics' && e.file === spec.editorClean);
      return diags.length > 0 && diags[diags.length - 1].items.every(d => d.severity !== 'error');
    }, { timeout: 120_000 });
    await runCommand(host.page, CMD);
    await waitFor('the recording to stop', () => engramLog(host.runDir).includes('trace recording stopped'), { timeout: 60_000 });
    const text = normalise(fs.readFileSync(file, 'utf8'), { workspace: host.workspace, runDir: host.runDir });
    const events = text.split('\n').filter(Boolean).map(l => JSON.parse(l));
    fs.writeFileSync(path.join(OUT, `live-${name}.jsonl`), text.endsWith('\n') ? text : text + '\n');
    writeLabel(name, events);
    const k = ctx.keys.summary();
    log(`live-${name}: ${events.length} events in ${((Date.now() - started) / 1000).toFixed(0)} s; keys ${k.actual.n} (actual ms p50 ${k.actual.p50}, min ${k.actual.min}, max ${k.actual.max}; ${k.pauses} pauses); load ${os.loadavg().map(n => n.toFixed(1)).join(' ')}`);
    return { name, events: events.length, keys: k };
  } catch (e) {
    await host.screenshot(`record-${name}-failure`).catch(() => {});
    throw e;
  } finally {
    await host.stop();
  }
}

ensureHost();
if (doBuild) build();
const results = [];
let failed = 0;
for (const name of Object.keys(LIVE).filter(n => !only || only.has(n))) {
  try { results.push(await record(name)); } catch (e) { failed++; console.error(`live-${name} FAILED: ${e?.stack ?? e}`); }
  await cleanupAll();
}
fs.writeFileSync(path.join(OUT, 'heldout.json'), JSON.stringify(heldOutFile(readLabels(OUT)), null, 2) + '\n');
console.log(JSON.stringify({ recorded: results.map(r => r.name), failed, uptime: os.loadavg() }, null, 2));
process.exit(failed ? 1 : 0);

