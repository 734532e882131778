// The live sessions on the demo workspace, as a user plays them at the keyboard: shared by the real-host
// e2e files (which assert what Engram stored) and scripts/dev/record-live-traces.mjs (which records the
// same sessions as capture traces). Each scenario has a workspace preparation (`prepare`, run before the
// window opens) and its steps (`play(host, ctx)`), which only wait for what a user would see (a command
// finished, an error underlined); what Engram made of it is for the caller to check.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installWorkspaceDeps } from '../../../scripts/host/lib.mjs';
import { repoRoot } from './host.mjs';
import { KeyLog, openFile, openTerminal, retypeLine, runInTerminal, save, typeHuman, waitFor, goTo } from './user.mjs';

export const DEMO = path.join(repoRoot, 'demo');
/** src/config.ts's line 11 in the demo, broken (TS2322) and fixed. */
export const CONFIG_LINE = 11;
export const BROKEN = "port: process.env.PORT ?? '8080',";
export const FIXED = 'port: Number(process.env.PORT ?? 8080),';

function edit(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file}: "${from}" not found`);
  fs.writeFileSync(file, text.replace(from, to));
}

/** The demo with its config line already fixed: a project without errors. */
export function cleanDemo(ws) {
  installWorkspaceDeps(ws);
  edit(path.join(ws, 'src/config.ts'), BROKEN, FIXED);
}

/** The demo without its TypeScript: `npm run build` says `tsc: not found` until it is installed. */
export function demoWithoutTypescript(ws) {
  const pkgFile = path.join(ws, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  delete pkg.devDependencies;
  fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2) + '\n');
  fs.rmSync(path.join(ws, 'package-lock.json'), { force: true });
}

/** Does the active editor show an error squiggle right now? */
async function squiggled(page) {
  return (await page.locator('.monaco-editor .squiggly-error').count()) > 0;
}

/** Waits until the active editor shows no error squiggle (the language server has caught up). */
export async function noSquiggles(page, timeout = 240_000) {
  await waitFor('the editor to show no error', async () => !(await squiggled(page)), { timeout, interval: 1000 });
}

/** Waits until the active editor underlines an error. */
export async function someSquiggle(page, timeout = 240_000) {
  await waitFor('an error underlined in the editor', () => squiggled(page), { timeout, interval: 1000 });
}

/**
 * A session that types a new line after line `after` of `file`, builds (fails), retypes that line to
 * `fixed` and builds again (passes): the shape of the per-package sessions, one place for its steps.
 */
function typedLineBuildFix(file, after, broken, fixed) {
  return {
    prepare: ws => cleanDemo(ws),
    async play({ page }, { keys }) {
      await openFile(page, file);
      await goTo(page, after, 1);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await typeHuman(page, broken, { keys });
      await save(page);
      await openTerminal(page);
      await expectRun(page, 'npm run build', 'error', keys);
      await openFile(page, file);
      await retypeLine(page, after + 1, fixed, { keys });
      await save(page);
      await expectRun(page, 'npm run build', 'success', keys);
    },
  };
}

export const scenarios = {
  /** The demo README's step 1: build fails with TS2322, the line is retyped and saved, build passes. */
  'demo-ts2322-retype': {
    prepare: ws => installWorkspaceDeps(ws),
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'npm run build', 'error', keys);
      await openFile(page, 'src/config.ts');
      await retypeLine(page, CONFIG_LINE, FIXED, { keys });
      await save(page);
      await expectRun(page, 'npm run build', 'success', keys);
    },
  },
  /** The README's step 2: `npm run check` fails (ENOENT) until config/settings.json exists. */
  'demo-check-settings': {
    prepare: ws => cleanDemo(ws),
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'npm run check', 'error', keys);
      await expectRun(page, `mkdir -p config && echo '{"port": 8080}' > config/settings.json`, 'success', keys);
      await expectRun(page, 'npm run check', 'success', keys);
    },
  },
  /**
   * A line typed at human speed into a clean file: errors exist only while it is typed (a half-typed
   * name, a missing comma), then the line is complete and saved. `sawErrors` says whether the editor
   * underlined anything while typing (if not, the check proves nothing).
   */
  'typing-transient-errors': {
    prepare: ws => cleanDemo(ws),
    async play({ page }, ctx) {
      await openFile(page, 'src/config.ts');
      await noSquiggles(page);
      ctx.sawErrors = false;
      await retypeLine(page, CONFIG_LINE, FIXED, { keys: ctx.keys, onKey: async () => { if (!ctx.sawErrors) ctx.sawErrors = await squiggled(page); } });
      await save(page);
      await noSquiggles(page);
    },
  },
  /**
   * `npm run build` fails with `tsc: not found`; `npm install --save-dev typescript` installs it; the
   * build then fails with TS2322 (a different error); the line is fixed and the build passes.
   */
  'tsc-not-found-then-ts2322': {
    prepare: ws => demoWithoutTypescript(ws),
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'npm run build', 'error', keys);
      await expectRun(page, 'npm install --save-dev typescript', 'success', keys);
      await expectRun(page, 'npm run build', 'error', keys);
      await openFile(page, 'src/config.ts');
      await retypeLine(page, CONFIG_LINE, FIXED, { keys });
      await save(page);
      await expectRun(page, 'npm run build', 'success', keys);
    },
  },
  /**
   * The same TS2322 fixed the same way in two folders: src/config.ts, then packages/api/src/config.ts
   * (a copy of the fixed file, broken by typing and fixed again).
   */
  'same-fix-two-folders': {
    prepare: ws => {
      installWorkspaceDeps(ws);
      const fixed = fs.readFileSync(path.join(ws, 'src/config.ts'), 'utf8').replace(BROKEN, FIXED);
      fs.writeFileSync(path.join(ws, 'packages/api/src/config.ts'), fixed);
    },
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'npm run build', 'error', keys);
      await openFile(page, 'src/config.ts');
      await retypeLine(page, CONFIG_LINE, FIXED, { keys });
      await save(page);
      await expectRun(page, 'npm run build', 'success', keys);
      await openFile(page, 'packages/api/src/config.ts');
      await retypeLine(page, CONFIG_LINE, BROKEN, { keys });
      await save(page);
      await expectRun(page, 'npm run build', 'error', keys);
      await openFile(page, 'packages/api/src/config.ts');
      await retypeLine(page, CONFIG_LINE, FIXED, { keys });
      await save(page);
      await expectRun(page, 'npm run build', 'success', keys);
    },
  },
  /** Editor only: the line broken by typing and saved (TS2322 underlined), then retyped fixed and saved. */
  'editor-ts2322-typed': {
    prepare: ws => cleanDemo(ws),
    async play({ page }, { keys }) {
      await openFile(page, 'src/config.ts');
      await noSquiggles(page);
      await retypeLine(page, CONFIG_LINE, BROKEN, { keys });
      await save(page);
      await someSquiggle(page);
      await retypeLine(page, CONFIG_LINE, FIXED, { keys });
      await save(page);
      await noSquiggles(page);
    },
  },
  /** `npm run check` fails with a TypeError (the port is a string); the JSON is retyped; check passes. */
  'check-port-string': {
    prepare: ws => {
      cleanDemo(ws);
      fs.mkdirSync(path.join(ws, 'config'), { recursive: true });
      fs.writeFileSync(path.join(ws, 'config/settings.json'), '{"port": "8080"}\n');
    },
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'npm run check', 'error', keys);
      await openFile(page, 'config/settings.json');
      await retypeLine(page, 1, '{"port": 8080}', { keys });
      await save(page);
      await expectRun(page, 'npm run check', 'success', keys);
    },
  },
  /** packages/web: a line typed that gives a string where a boolean is declared; build fails; fixed. */
  'web-ts2322-boolean': typedLineBuildFix('packages/web/src/app.ts', 5,
    "export const named: boolean = title('x');", "export const named: boolean = title('x').length > 0;"),
  /** packages/api: a typo'd property (TS2339) typed and built; fixed to an index; build passes. */
  'api-ts2339-typo': typedLineBuildFix('packages/api/src/routes.ts', 2,
    'export const home: string = routes.frist;', 'export const home: string = routes[0];'),
  /** Read-only commands, one failing (`which tsc`: tsc is the project's own, not on PATH), and a build that passes. */
  'read-only-commands': {
    prepare: ws => cleanDemo(ws),
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'echo $SHELL; which tsc', 'error', keys);
      await expectRun(page, 'ls src', 'success', keys);
      await expectRun(page, 'npm run build', 'success', keys);
    },
  },
};

/**
 * How expectRun runs a terminal command: runInTerminal unless a caller set its own (the trace recorder
 * knows a command ended from the trace it is writing, whatever the terminal shows).
 */
let terminalRunner = (page, command, opts) => runInTerminal(page, command, opts);
export function useTerminalRunner(run) { terminalRunner = run ?? ((page, command, opts) => runInTerminal(page, command, opts)); }

/** Runs `command` in the terminal and checks it ended as a user expects (else the story went wrong). */
export async function expectRun(page, command, expected, keys) {
  const got = await terminalRunner(page, command, { keys });
  if (got !== expected) throw new Error(`\`${command}\` ended with ${got}, expected ${expected}`);
  return got;
}

/** Every memory text that names build output (tsc's outDir, build/): there must be none. */
export function buildOutputIn(memories) {
  return memories.filter(m => /(^|["\s/(`])build\/[\w./-]*\.js/.test(JSON.stringify({ scope: m.scope, files: m.files, steps: m.steps, change: m.change, fixApproach: m.fixApproach, rootCause: m.rootCause, commands: m.commands })))
    .map(m => `${m.kind} ${m.id}`);
}

export { KeyLog, typeHuman, goTo };

// ---- sessions in other tools (issue 17 item 9: live traces beyond the demo's tsc and node) ----

/** Empties the copied workspace and writes a small project in its place (`files`: path -> text). */
export function freshProject(ws, files) {
  for (const n of fs.readdirSync(ws)) fs.rmSync(path.join(ws, n), { recursive: true, force: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
}

/**
 * A project where `run` fails, line `line` of `file` is retyped as `fixed` and saved, and `rerun` (default
 * `run`) passes; `looks` are read-only commands typed between the failure and the fix.
 */
function runFixRerun({ files, run, file, line, fixed, rerun = run, looks = [] }) {
  return {
    prepare: ws => freshProject(ws, files),
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, run, 'error', keys);
      for (const cmd of looks) await expectRun(page, cmd, 'success', keys);
      await openFile(page, file);
      await retypeLine(page, line, fixed, { keys });
      await save(page);
      await expectRun(page, rerun, 'success', keys);
    },
  };
}

Object.assign(scenarios, {
  /** python3: a misspelled call (NameError, "Did you mean"), fixed in the editor; the script runs. */
  'py-nameerror-typo': runFixRerun({
    files: { 'report.py': 'def total(items):\n    return sum(i["price"] for i in items)\n\n\nprint(totl([{"price": 3}, {"price": 4}]))\n' },
    run: 'python3 report.py', file: 'report.py', line: 5, fixed: 'print(total([{"price": 3}, {"price": 4}]))',
  }),
  /** pytest: a test in tests/ fails; the fix is in another folder (shop/price.py), after a `cat` of it. */
  'pytest-fix-in-other-folder': runFixRerun({
    files: {
      'shop/__init__.py': '',
      'shop/price.py': 'def with_tax(amount):\n    """The price with 20% VAT."""\n    return amount + 0.2\n',
      'tests/test_price.py': 'from shop.price import with_tax\n\n\ndef test_with_tax():\n    assert with_tax(10) == 12\n',
    },
    run: 'python3 -m pytest -q tests', looks: ['cat shop/price.py'],
    file: 'shop/price.py', line: 3, fixed: 'return amount * 1.2',
  }),
  /** gcc through make: an undeclared identifier (a misspelled variable), fixed; `make && ./count` runs. */
  'make-gcc-undeclared': runFixRerun({
    files: {
      'Makefile': 'count: count.c\n\tgcc -Wall -o count count.c\n',
      'count.c': '#include <stdio.h>\n\nint main(void) {\n  int total = 0;\n  for (int i = 1; i <= 3; i++) total += i;\n  printf("%d\\n", totl);\n  return 0;\n}\n',
    },
    run: 'make', rerun: 'make && ./count', file: 'count.c', line: 6, fixed: 'printf("%d\\n", total);',
  }),
  /** cargo: mismatched types (E0308, a string where a u32 is declared), fixed; `cargo build` passes. */
  'cargo-e0308-mismatch': runFixRerun({
    files: {
      'Cargo.toml': '[package]\nname = "retries"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/main.rs': 'fn main() {\n    let retries: u32 = "3";\n    println!("retrying {} times", retries);\n}\n',
    },
    run: 'cargo build', file: 'src/main.rs', line: 2, fixed: 'let retries: u32 = 3;',
  }),
  /** javac: cannot find symbol (a misspelled variable), fixed; compiled and run. */
  'javac-symbol-typo': runFixRerun({
    files: { 'Greeter.java': 'public class Greeter {\n  public static void main(String[] args) {\n    String greeting = "hello";\n    System.out.println(greting);\n  }\n}\n' },
    run: 'javac Greeter.java', rerun: 'javac Greeter.java && java Greeter', file: 'Greeter.java', line: 4, fixed: 'System.out.println(greeting);',
  }),
  /**
   * python3: the script fails for a missing data file; creating it in the terminal gives a different
   * error (a bad number in it), fixed in the editor; the script runs.
   */
  'py-missing-file-then-valueerror': {
    prepare: ws => freshProject(ws, { 'stock.py': 'import csv\n\nwith open("stock.csv") as f:\n    rows = list(csv.DictReader(f))\nprint(sum(int(r["qty"]) for r in rows))\n' }),
    async play({ page }, { keys }) {
      await openTerminal(page);
      await expectRun(page, 'python3 stock.py', 'error', keys);
      await expectRun(page, "printf 'name,qty\\nbolt,x\\n' > stock.csv", 'success', keys);
      await expectRun(page, 'python3 stock.py', 'error', keys);
      await openFile(page, 'stock.csv');
      await retypeLine(page, 2, 'bolt,12', { keys });
      await save(page);
      await expectRun(page, 'python3 stock.py', 'success', keys);
    },
  },
});
