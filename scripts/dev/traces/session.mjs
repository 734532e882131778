// Records one capture trace (src/core/capture/trace.ts) from real tool runs in a temp project: what an
// editor, a language server, a terminal and a file watcher would have reported, in that order. Nothing
// here types an output by hand: diagnostics come from real tsc/eslint/cargo runs on the project's
// current state, command events from the command actually run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Stands for the temp project folder in every output, so traces do not change with the temp name. */
export const PLACEHOLDER = '/workspace';
/** Stands for the generating machine's home folder (tool installs under it: pyenv, rustup). */
export const HOME_MASK = '/home/dev';
const TSC = join(REPO, 'node_modules', '.bin', 'tsc');
// Build output, dependencies and tool caches: a file watcher's events for these are noise, and some are binary.
const SKIP_DIRS = new Set(['node_modules', '.git', '.venv', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', 'target', 'pkgs', 'vendor', '.gems']);
/** Shared across sessions so each Go trace does not rebuild the standard library (not in any output). */
const GO_CACHE = join(tmpdir(), 'engram-trace-go-cache');
const MAX_TEXT = 32 * 1024;

export class Session {
  /**
   * @param {string} name trace name
   * @param {Record<string,string>} files the project as it is before the trace starts (not recorded)
   * @param {{ deps?: string, venv?: boolean | 'inactive', noTsc?: boolean }} opts deps: a folder whose node_modules the
   *   project links to; noTsc: no `tsc` on the terminal's PATH (a project that has not installed it)
   */
  constructor(name, files, opts = {}) {
    this.name = name;
    this.root = mkdtempSync(join(tmpdir(), 'engram-trace-'));
    this.dir = join(this.root, 'ws');
    this.bin = join(this.root, 'bin');
    mkdirSync(this.dir);
    mkdirSync(this.bin);
    // `tsc` on the terminal's PATH is the repo's, as `npx tsc` would find it in a project that has it.
    if (!opts.noTsc) symlinkSync(TSC, join(this.bin, 'tsc'));
    for (const [f, text] of Object.entries(files)) this.write(f, text);
    if (opts.deps) symlinkSync(join(opts.deps, 'node_modules'), join(this.dir, 'node_modules'));
    this.env = {
      ...cleanEnv(), PATH: `${this.bin}:${process.env.PATH}`, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1',
      // A fresh HOME (no global git identity), but rustup and cargo keep their real toolchain folders.
      HOME: join(this.root, 'home'), GIT_CONFIG_NOSYSTEM: '1',
      RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), '.rustup'), CARGO_HOME: process.env.CARGO_HOME ?? join(homedir(), '.cargo'),
      npm_config_cache: join(tmpdir(), 'engram-trace-npm-cache'),
      npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
      // Go offline: modules only from the project (replace directives), the build cache shared.
      GOCACHE: GO_CACHE, GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOTELEMETRY: 'off',
      // Ruby gems the project installs go to its own folder, not the system's.
      GEM_HOME: join(this.root, 'ws', '.gems'), GEM_PATH: join(this.root, 'ws', '.gems'),
    };
    // This machine's own pip settings (a wheel folder of its own) are nobody else's, and show in pip's output.
    delete this.env.PIP_FIND_LINKS;
    mkdirSync(this.env.HOME);
    if (opts.venv) {
      run('python3', ['-m', 'venv', '.venv'], this.dir, this.env);
    }
    // venv: 'inactive' = created but not activated (the user calls .venv/bin/pip by its path).
    if (opts.venv && opts.venv !== 'inactive') {
      this.env.VIRTUAL_ENV = join(this.dir, '.venv');
      this.env.PATH = `${join(this.dir, '.venv', 'bin')}:${this.env.PATH}`;
    }
    this.events = [];
    this.t = 0;
    /** file -> source -> items: the language servers' current diagnostics, published per file as one set. */
    this.diags = new Map();
    this.snap = this.snapshot();
  }

  write(file, text) {
    const p = join(this.dir, file);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  read(file) { return readFileSync(join(this.dir, file), 'utf8'); }
  emit(ev, dt = 400) { this.t += dt; this.events.push({ t: this.t, ...ev }); }

  branch(name) { this.emit({ type: 'branch', name }, 0); }
  open(file) {
    this.opened.add(file);
    this.emit({ type: 'open', file, text: this.read(file) }, 300);
    this.refresh();
  }
  /** A new, untitled-then-saved file created in the editor. */
  create(file, text) {
    this.write(file, '');
    this.snap.set(file, '');
    this.opened.add(file);
    this.emit({ type: 'open', file, text: '' }, 1500);
    this.edit(file, text);
  }
  /** An editor edit (full text after it); language servers refresh; then the user saves. */
  edit(file, text, { save = true } = {}) {
    // An editor edits only an open document, and opening it is an event of its own: a change event for a
    // file never opened would leave its text before the edit unknown.
    if (!this.opened.has(file)) this.open(file);
    this.write(file, text);
    this.snap.set(file, text);
    this.emit({ type: 'change', file, text }, 4000);
    this.refresh();
    if (save) this.emit({ type: 'save', file }, 800);
  }
  /** An edit of one part of the file: `from` must occur in it (a typo in the scenario stops the generator). */
  replace(file, from, to, opts) {
    const text = this.read(file);
    if (!text.includes(from)) throw new Error(`${this.name}: ${file} has no ${JSON.stringify(from)}`);
    this.edit(file, text.replace(from, () => to), opts);
  }
  /**
   * Types `typed` at `at` (where `at` occurs first) one key at a time, `msPerKey` apart (200–400 ms, a
   * person's pace, with a pause every few words), the language servers run on every intermediate text as
   * they would, and saves at the end: the transient errors of a line being typed are in the trace.
   */
  type(file, at, typed, { seed = 7, save = true } = {}) {
    let text = this.read(file);
    let pos = text.indexOf(at);
    if (pos < 0) throw new Error(`${this.name}: ${file} has no ${JSON.stringify(at)}`);
    pos += at.length;
    let r = seed;
    const rand = () => { r = (r * 1103515245 + 12345) % 2147483648; return r / 2147483648; };
    for (const ch of typed) {
      text = text.slice(0, pos) + ch + text.slice(pos);
      pos++;
      this.write(file, text);
      this.snap.set(file, text);
      this.emit({ type: 'change', file, text }, 200 + Math.floor(rand() * 200) + (ch === ' ' && rand() < 0.3 ? 1500 : 0));
      this.refresh({ sameClock: true });
    }
    if (save) this.emit({ type: 'save', file }, 800);
  }
  close(file) { this.emit({ type: 'close', file }, 300); }
  /** A file written outside the editor (an agent's tool call): the watcher reports it with what it replaced. */
  agentWrite(file, text) {
    const p = join(this.dir, file);
    const before = existsSync(p) ? readFileSync(p, 'utf8') : null;
    this.write(file, text);
    this.snap.set(file, text);
    this.emit({ type: 'disk', file, text, before }, 6000);
    this.refresh();
  }

  /** Which language servers watch this project; each returns Map<file, items> of the current state. */
  servers = [];
  /** Files open in the editor: the TS and ESLint extensions report only on those; cargo's flycheck on all. */
  opened = new Set();
  useTsc() { this.servers.push(() => ['ts', onlyOpen(tscDiagnostics(this.dir), this.opened)]); this.refresh(); return this; }
  useEslint() { this.servers.push(() => ['eslint', onlyOpen(eslintDiagnostics(this.dir), this.opened)]); this.refresh(); return this; }
  useRustc() { this.servers.push(() => ['rustc', cargoDiagnostics(this.dir, this.env)]); this.refresh(); return this; }
  /** gopls-like: type errors (source "compiler") and vet findings for every package, from `go vet`. */
  useGo() { this.servers.push(() => ['go', goDiagnostics(this.dir, this.env)]); this.refresh(); return this; }
  /** The Pyright extension: `pyright --outputjson` on the project, rule names as codes. */
  usePyright(bin) { this.servers.push(() => ['pyright', onlyOpen(pyrightDiagnostics(this.dir, bin, this.env), this.opened)]); this.refresh(); return this; }
  /** The Mypy extension: `mypy --show-error-codes` on the open files, error codes as codes. */
  useMypy() { this.servers.push(() => ['mypy', mypyDiagnostics(this.dir, [...this.opened].filter(f => f.endsWith('.py')), this.env)]); this.refresh(); return this; }
  /** The ShellCheck extension: `shellcheck -f json` on the open shell scripts, SC codes. */
  useShellcheck() { this.servers.push(() => ['shellcheck', shellcheckDiagnostics(this.dir, [...this.opened].filter(f => f.endsWith('.sh')), this.env)]); this.refresh(); return this; }

  /**
   * Re-runs every server on the current files and publishes each file whose set changed. sameClock: while
   * typing, a server's answer arrives between keys (100 ms after the edit), not 700 ms later.
   */
  refresh({ sameClock = false } = {}) {
    for (const server of this.servers) {
      const [source, byFile] = server();
      const files = new Set([...byFile.keys(), ...[...this.diags].filter(([, m]) => m.get(source)?.length).map(([f]) => f)]);
      for (const file of [...files].sort()) {
        const per = this.diags.get(file) ?? new Map();
        const before = JSON.stringify(union(per));
        per.set(source, byFile.get(file) ?? []);
        this.diags.set(file, per);
        const items = union(per);
        if (JSON.stringify(items) !== before) this.emit({ type: 'diagnostics', file, items }, sameClock ? 100 : 700);
      }
    }
    // Files the servers' own runs write (cargo check's Cargo.lock) are theirs, not the next command's.
    if (this.servers.length) this.snap = this.snapshot();
  }

  /** Runs a command in the terminal and records it, with the files it wrote as disk events. */
  /** `expect`: the exit code the scenario needs (0 or 'fail'); a mismatch stops the generator rather than record a wrong story. */
  command(cmd, { cwd = '.', record = true, expect } = {}) {
    const r = spawnSync('bash', ['-c', `exec 2>&1\n${cmd}`], { cwd: join(this.dir, cwd), env: this.env, encoding: 'utf8', maxBuffer: 64 << 20 });
    const output = this.mask(r.stdout ?? '');
    if (expect !== undefined && (expect === 'fail' ? r.status === 0 : r.status !== expect)) {
      throw new Error(`${this.name}: \`${cmd}\` exited ${r.status}, expected ${expect}:\n${output}`);
    }
    const after = this.snapshot();
    if (record) {
      this.t += 2500;
      for (const file of [...new Set([...after.keys(), ...this.snap.keys()])].sort()) {
        const was = this.snap.get(file), now = after.get(file);
        if (was === now) continue;
        this.emit({ type: 'disk', file, text: now ?? null, before: was ?? null }, 50);
      }
      const dir = cwd === '.' ? PLACEHOLDER : `${PLACEHOLDER}/${cwd}`;
      this.emit({ type: 'command', command: cmd, cwd: dir, exitCode: r.status ?? 1, output }, 100);
    }
    this.snap = after;
    this.refresh();
    return { code: r.status, output };
  }
  /** Something that happened where capture could not see it (another terminal without shell integration). */
  unseen(cmd) { return this.command(cmd, { record: false }); }

  mask(text) {
    let s = stripAnsi(text);
    for (const p of [this.dir, this.root]) s = s.split(p).join(p === this.dir ? PLACEHOLDER : '/tmp/engram-trace');
    // The generating machine's home (pyenv's Python, rustup's toolchain) is nobody else's.
    const home = homedir();
    if (home.length > 1) s = s.split(home + '/').join(HOME_MASK + '/');
    return s;
  }

  snapshot() {
    const out = new Map();
    const walk = dir => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) { if (!SKIP_DIRS.has(e.name)) walk(p); continue; }
        if (!e.isFile() || statSync(p).size > MAX_TEXT) continue;
        const buf = readFileSync(p);
        if (buf.includes(0)) continue;
        // Build files (CMakeCache.txt, depfiles) hold absolute paths: masked like command output.
        out.set(relative(this.dir, p).split('\\').join('/'), this.mask(buf.toString('utf8')));
      }
    };
    walk(this.dir);
    return out;
  }

  /** `tsc --noEmit` output as a terminal shows it (for recall queries). */
  tscOutput() { return this.mask(run(TSC, ['--noEmit', '-p', '.', '--pretty', 'false'], this.dir, cleanEnv()).stdout); }
  /** Removes the temp project without writing a trace. */
  discard() { rmSync(this.root, { recursive: true, force: true }); }

  /** Writes NAME.jsonl and NAME.label.json into outDir and removes the temp project. */
  finish(outDir, label) {
    // A language-server story must show the error and end clean, or it is not the story its label tells.
    if (this.servers.length) {
      const seen = this.events.some(e => e.type === 'diagnostics' && e.items.some(i => i.severity === 'error'));
      const left = [...this.diags.values()].map(union).flat().filter(i => i.severity === 'error');
      if (!seen || left.length) throw new Error(`${this.name}: errors seen ${seen}, left at the end: ${JSON.stringify(left)}`);
    }
    this.emit({ type: 'end' }, 1000);
    writeFileSync(join(outDir, `${this.name}.jsonl`), this.events.map(e => JSON.stringify(e)).join('\n') + '\n');
    writeFileSync(join(outDir, `${this.name}.label.json`), JSON.stringify(label, null, 2) + '\n');
    rmSync(this.root, { recursive: true, force: true });
  }
}

const onlyOpen = (byFile, opened) => new Map([...byFile].filter(([f]) => opened.has(f)));

function union(per) {
  return [...per.values()].flat().sort((a, b) => a.line - b.line || (a.character ?? 0) - (b.character ?? 0));
}

export function run(cmd, args, cwd, env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}

/** The environment without the calling npm's npm_* variables (they would leak into inner npm runs). */
export function cleanEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS'));
}

const stripAnsi = s => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

/** `tsc --noEmit` on the project, each `file(line,col): error TSn: message` as a 0-based diagnostic. */
export function tscDiagnostics(dir) {
  const r = run(TSC, ['--noEmit', '-p', '.', '--pretty', 'false'], dir, cleanEnv());
  const byFile = new Map();
  let last = null;
  for (const line of (r.stdout + r.stderr).split('\n')) {
    const m = /^(.+?)\((\d+),(\d+)\): (error|warning) TS(\d+): (.*)$/.exec(line);
    if (m) {
      last = { severity: m[4], source: 'ts', code: Number(m[5]), message: m[6], line: Number(m[2]) - 1, character: Number(m[3]) - 1 };
      const list = byFile.get(m[1]) ?? [];
      list.push(last);
      byFile.set(m[1], list);
    } else if (last && /^\s+\S/.test(line)) last.message += '\n' + line.trimEnd();
  }
  return byFile;
}

/** `eslint -f json .` on the project: rule ids as codes, as the ESLint extension reports them. */
export function eslintDiagnostics(dir) {
  const r = run(join(dir, 'node_modules', '.bin', 'eslint'), ['-f', 'json', '.'], dir, cleanEnv());
  const byFile = new Map();
  for (const f of JSON.parse(r.stdout)) {
    const items = f.messages.map(m => ({
      severity: m.severity === 2 ? 'error' : 'warning', source: 'eslint', ...(m.ruleId ? { code: m.ruleId } : {}),
      message: m.message, line: (m.line ?? 1) - 1, character: (m.column ?? 1) - 1,
    }));
    if (items.length) byFile.set(relative(dir, f.filePath), items);
  }
  return byFile;
}

/** `cargo check --message-format=json`: rustc's primary spans, with E-codes, as rust-analyzer's flycheck reports them. */
export function cargoDiagnostics(dir, env) {
  const r = run('cargo', ['check', '--quiet', '--message-format=json'], dir, env);
  const byFile = new Map();
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const msg = JSON.parse(line);
    if (msg.reason !== 'compiler-message' || !['error', 'warning'].includes(msg.message.level)) continue;
    const span = msg.message.spans.find(s => s.is_primary);
    if (!span) continue;
    const item = {
      severity: msg.message.level, source: 'rustc', ...(msg.message.code ? { code: msg.message.code.code } : {}),
      message: msg.message.message, line: span.line_start - 1, character: span.column_start - 1,
    };
    const list = byFile.get(span.file_name) ?? [];
    list.push(item);
    byFile.set(span.file_name, list);
  }
  return byFile;
}

/** `go vet ./...`: type errors as gopls reports them (source "compiler"), vet findings under the analyzer's name. */
export function goDiagnostics(dir, env) {
  const r = run('go', ['vet', './...'], dir, env);
  const byFile = new Map();
  let last = null;
  for (const line of (r.stdout + r.stderr).split('\n')) {
    const m = /^(?:vet: )?\.?\/?(.+?\.go):(\d+):(\d+): (.*)$/.exec(line);
    if (m) {
      // vet prints its own findings without "vet:"; a type error stops vet and is printed with it.
      const vet = !line.startsWith('vet: ') && /^(?:fmt\.\w+|\w+\.\w+ format|.*call has arguments but no formatting|unreachable code|.*passes lock by value|self-assignment)/.test(m[4]);
      last = { severity: 'error', source: vet ? 'vet' : 'compiler', message: m[4], line: Number(m[2]) - 1, character: Number(m[3]) - 1 };
      const list = byFile.get(m[1]) ?? [];
      if (!list.some(d => d.line === last.line && d.message === last.message)) list.push(last);
      byFile.set(m[1], list);
    }
  }
  return byFile;
}

/** `pyright --outputjson`: rule names as codes, as the Pyright extension reports them. */
export function pyrightDiagnostics(dir, bin, env) {
  const r = run(bin, ['--outputjson'], dir, env);
  const byFile = new Map();
  for (const d of JSON.parse(r.stdout).generalDiagnostics ?? []) {
    if (d.severity !== 'error' && d.severity !== 'warning') continue;
    const file = relative(dir, d.file);
    const list = byFile.get(file) ?? [];
    list.push({ severity: d.severity, source: 'Pyright', ...(d.rule ? { code: d.rule } : {}), message: d.message, line: d.range.start.line, character: d.range.start.character });
    byFile.set(file, list);
  }
  return byFile;
}

/** `mypy --show-error-codes` on the open files: `file:line:col: error: message  [code]`. */
export function mypyDiagnostics(dir, files, env) {
  const byFile = new Map();
  if (!files.length) return byFile;
  const r = run('mypy', ['--show-column-numbers', '--show-error-codes', '--no-error-summary', '--no-color-output', ...files], dir, env);
  for (const line of r.stdout.split('\n')) {
    const m = /^(.+?\.py):(\d+):(\d+): (error|note): (.*?)(?: {2}\[([\w-]+)\])?$/.exec(line);
    if (!m || m[4] !== 'error') continue;
    const list = byFile.get(m[1]) ?? [];
    list.push({ severity: 'error', source: 'Mypy', ...(m[6] ? { code: m[6] } : {}), message: m[5], line: Number(m[2]) - 1, character: Number(m[3]) - 1 });
    byFile.set(m[1], list);
  }
  return byFile;
}

/** `shellcheck -f json` on the open scripts: SC codes, as the ShellCheck extension reports them. */
export function shellcheckDiagnostics(dir, files, env) {
  const byFile = new Map();
  if (!files.length) return byFile;
  const r = run('shellcheck', ['-f', 'json', ...files], dir, env);
  for (const d of JSON.parse(r.stdout || '[]')) {
    const list = byFile.get(d.file) ?? [];
    const severity = d.level === 'error' ? 'error' : d.level === 'warning' ? 'warning' : 'information';
    list.push({ severity, source: 'shellcheck', code: `SC${d.code}`, message: d.message, line: d.line - 1, character: d.column - 1 });
    byFile.set(d.file, list);
  }
  return byFile;
}
