// Which program a command line runs, as a person would name it, and which tool that makes the printer of
// its output. One reading of a command line for every rule that needs it: naming the tool of an error
// whose format belongs to no one tool (`file:12: message`, `Found 1 error.`), and telling an install or a
// generator from a test run (capture/commandLines.ts, capture/packageManagers.ts).

export interface Invocation {
  /** The program's name without its folder or version suffix: `.venv/bin/pip3.11` → `pip`. */
  program: string;
  /** Its arguments, as typed. */
  args: string[];
}

/** Words that run the rest of the line as the command (`sudo pip install x` is pip). */
const PREFIXES = new Set(['sudo', 'doas', 'time', 'nice', 'nohup', 'exec', 'command', 'builtin', 'env', 'stdbuf', 'caffeinate']);

/** Runners whose first argument is the program they launch (after their own flags). */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
/** `runner run X` / `runner exec X`: the second word launches X. */
const RUN_VERBS: Record<string, readonly string[]> = {
  uv: ['run'], poetry: ['run'], pdm: ['run'], pipenv: ['run'], hatch: ['run'], rye: ['run'], conda: ['run'], pipx: ['run'],
  pnpm: ['dlx', 'exec'], yarn: ['dlx', 'exec'], bundle: ['exec'], bun: ['x'], npm: ['exec'], dotnet: ['tool'],
};

function basename(word: string): string {
  return word.replace(/^.*[\\/]/, '');
}

/** Programs installed under a versioned name (`pip3.11`, `python3`); `flake8` and `k8s` are names, not versions. */
const VERSIONED = /^(python|pip|pypy|idle|pydoc|node|ruby|gem|perl|php|lua|java|javac|gcc|g\+\+|cc|clang|clang\+\+|go|pytest|mypy)\d+(?:\.\d+)*$/;

/** `pip3.11` → `pip`, `python3` → `python`, `g++-12` → `g++`, `node.exe` → `node`. */
function unversioned(name: string): string {
  const n = name.toLowerCase().replace(/\.exe$/, '').replace(/-\d+(?:\.\d+)*$/, '');
  return VERSIONED.exec(n)?.[1] ?? n;
}

/** The command split at `&&`, `||`, `;` and `|` (quotes respected well enough for the words we read). */
export function commandParts(line: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) { if (c === quote) quote = ''; cur += c; continue; }
    if (c === '"' || c === "'") { quote = c; cur += c; continue; }
    if (c === ';' || c === '|' || (c === '&' && line[i + 1] === '&')) {
      if (cur.trim()) parts.push(cur.trim());
      cur = '';
      if (line[i + 1] === c) i++;
      continue;
    }
    cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

function words(part: string): string[] {
  return (part.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map(w => w.replace(/^(["'])(.*)\1$/, '$2'));
}

/**
 * The program one simple command runs: env assignments and prefixes (`sudo`, `time`, `env X=1`) dropped,
 * a path's folder and a version suffix dropped, `python -m X` read as X, and a launcher (`npx --yes X`,
 * `uv run X`, `pnpm dlx X`, `bundle exec X`) read as the program it launches.
 */
export function invocation(part: string): Invocation | undefined {
  let w = words(part);
  for (let guard = 0; guard < 8 && w.length; guard++) {
    while (w.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]) || PREFIXES.has(w[0]))) {
      // A prefix's own flags go with it (`sudo -E`, `sudo -u app`, `nice -n 10`).
      if (PREFIXES.has(w[0])) w = skipFlags(w.slice(1), ['-u', '-g', '-n', '-o', '-e', '-C', '-h']); else w = w.slice(1);
    }
    if (!w.length) return undefined;
    const program = unversioned(basename(w[0]));
    const args = w.slice(1);
    // `python -m pip install x`: the module is the program.
    if ((program === 'python' || program === 'py' || program === 'pypy') && args.length >= 2) {
      const m = args.findIndex(a => a === '-m');
      if (m >= 0 && m + 1 < args.length && args.slice(0, m).every(a => a.startsWith('-'))) { w = args.slice(m + 1); continue; }
    }
    if (LAUNCHERS.has(program)) {
      const rest = skipFlags(args, ['-p', '--package', '--from', '--with']);
      if (rest.length) { w = rest; continue; }
    }
    const verbs = RUN_VERBS[program];
    if (verbs && args.length >= 2 && verbs.includes(args[0])) {
      const rest = skipFlags(args.slice(1), []);
      if (rest.length) { w = rest; continue; }
    }
    return { program, args };
  }
  return undefined;
}

/** Arguments after a launcher's own flags (`--yes`, `-y`, `--package x`). */
function skipFlags(args: readonly string[], withValue: readonly string[]): string[] {
  let k = 0;
  while (k < args.length && args[k].startsWith('-')) k += withValue.includes(args[k]) ? 2 : 1;
  return args.slice(k);
}

/** Every simple command of a line, as invocations (`cd app && .venv/bin/pip install x` → cd, pip). */
export function invocations(line: string): Invocation[] {
  return commandParts(line).map(invocation).filter((x): x is Invocation => !!x);
}

/** Programs that only run someone else's command: what they print under `run` is the script's. */
const RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'make', 'gmake', 'just', 'task', 'sh', 'bash', 'zsh', 'dash', 'cd', 'export', 'set', 'source', '.', 'tox', 'nox', 'turbo', 'nx', 'lerna', 'docker', 'xargs', 'watch', 'timeout']);

/** What a tool is called when it prints errors: one name for the editor's diagnostic source and the terminal's program. */
const TOOL_NAMES: Record<string, string> = {
  ts: 'tsc', tsc: 'tsc', typescript: 'tsc', js: 'tsc', 'vue-tsc': 'tsc', tsgo: 'tsc',
  rustc: 'rustc', 'rust-analyzer': 'rustc', rust: 'rustc',
  python: 'python', pylance: 'python', pyright: 'python', basedpyright: 'python', mypy: 'python', pylint: 'python', dmypy: 'python',
  gcc: 'gcc', 'g++': 'gcc', clang: 'gcc', 'clang++': 'gcc', cc: 'gcc', 'c++': 'gcc', cpptools: 'gcc', 'c/c++': 'gcc',
  java: 'javac', javac: 'javac', jdt: 'javac',
};

/** The tool an editor diagnostic source or a program name stands for (`Pylance` and `mypy` → python). */
export function toolOfSource(name: string): string {
  const n = name.toLowerCase();
  return TOOL_NAMES[n] ?? n;
}

/**
 * The tool that printed a command's output, named from the command: its program (`mypy x.py`,
 * `.venv/bin/ruff check`, `npx --yes eslint .`, `python -m mypy`), when every part of the line runs the
 * same one and it is not a runner of scripts (`npm run lint`, `make`: the script printed it, and the
 * command does not say which). Undefined when the line does not say.
 */
export function programTool(command: string | undefined): string | undefined {
  if (!command) return undefined;
  const progs = new Set(invocations(command).map(x => x.program).filter(p => p !== 'cd' && p !== 'export' && p !== 'source' && p !== '.'));
  if (progs.size !== 1) return undefined;
  const [p] = progs;
  if (RUNNERS.has(p) || !/^[a-z][\w+.-]*$/.test(p)) return undefined;
  return toolOfSource(p);
}
