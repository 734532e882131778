// A lockfile change in one line, read from the lockfile's own package entries: "package-lock.json:
// +typescript@7.0.2, +@types/node@26.6.11". An install rewrites hundreds of lockfile lines that say
// nothing a person would read; the packages that came, went or moved are what happened. npm
// (package-lock.json, npm-shrinkwrap.json), yarn (v1 and berry), pnpm, Cargo.lock, poetry.lock and uv.lock
// (both TOML [[package]] tables), go.sum and Gemfile.lock are read; any other lockfile is counted in lines.

const LOCKFILE = /(?:^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|composer\.lock|Gemfile\.lock|go\.sum|flake\.lock|pubspec\.lock|mix\.lock|packages\.lock\.json)$/;

export function isLockfile(file: string): boolean {
  return LOCKFILE.test(file);
}

type Versions = Map<string, Set<string>>;

function add(out: Versions, name: string, version: string): void {
  if (!name || !version) return;
  let set = out.get(name);
  if (!set) out.set(name, set = new Set());
  set.add(version);
}

/** package-lock v2/v3 "packages": {"node_modules/x": {"version"}}; v1 "dependencies": {"x": {"version"}}. */
function npmLock(text: string): Versions | undefined {
  let json: unknown;
  try { json = JSON.parse(text); } catch { return undefined; }
  const out: Versions = new Map();
  type Entry = { version?: string; link?: boolean; optional?: boolean; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const o = json as { packages?: Record<string, Entry>; dependencies?: Record<string, { version?: string }> };
  if (o.packages && typeof o.packages === 'object') {
    // What the project asked for first (the root's own dependencies), then what they brought, optional
    // platform builds last: the one line names `typescript@7.0.2` before its 20 native packages.
    const root = o.packages[''] ?? {};
    const direct = new Set([...Object.keys(root.dependencies ?? {}), ...Object.keys(root.devDependencies ?? {})]);
    const entries = Object.entries(o.packages).filter(([path, p]) => path && typeof p?.version === 'string' && !p.link)
      .map(([path, p]) => ({ name: path.replace(/^.*node_modules\//, ''), version: p.version!, rank: 0, optional: !!p.optional }))
      .map(e => ({ ...e, rank: direct.has(e.name) ? 0 : e.optional ? 2 : 1 }));
    for (const e of entries.sort((a, b) => a.rank - b.rank)) add(out, e.name, e.version);
  } else if (o.dependencies && typeof o.dependencies === 'object') {
    for (const [name, p] of Object.entries(o.dependencies)) if (typeof p?.version === 'string') add(out, name, p.version);
  }
  return out;
}

/** yarn v1 `"x@^1", x@~1:` + `  version "1.2.3"`; berry `"x@npm:^1":` + `  version: 1.2.3`. */
function yarnLock(text: string): Versions {
  const out: Versions = new Map();
  let name: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const head = /^"?((?:@[^@\s"/]+\/)?[^@\s",]+)@[^\n]*:$/.exec(line);
    if (head) { name = head[1]; continue; }
    const v = /^\s+version:? "?([^"\s]+)"?$/.exec(line);
    if (v && name) { add(out, name, v[1]); name = undefined; }
  }
  return out;
}

/** pnpm v6-v9 `  /x@1.2.3:` / `  x@1.2.3:` / `  '@s/x@1.2.3':` keys under packages (peer suffixes dropped). */
function pnpmLock(text: string): Versions {
  const out: Versions = new Map();
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\S/.test(line)) { inPackages = /^packages:\s*$/.test(line); continue; }
    if (!inPackages) continue;
    const m = /^ {2}'?\/?((?:@[^@\s/']+\/)?[^@\s/']+)[@/]([^(':\s]+)[^:]*'?:/.exec(line);
    if (m) add(out, m[1], m[2]);
  }
  return out;
}

/** Cargo.lock, poetry.lock, uv.lock: `[[package]]` tables with `name = "x"` and `version = "1"`. */
function tomlPackages(text: string): Versions {
  const out: Versions = new Map();
  let name: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\[\[package\]\]\s*$/.test(line)) { name = undefined; continue; }
    const n = /^name = "([^"]+)"$/.exec(line);
    if (n) { name = n[1]; continue; }
    const v = /^version = "([^"]+)"$/.exec(line);
    if (v && name) { add(out, name, v[1]); name = undefined; }
  }
  return out;
}

/** go.sum `module v1.2.3 h1:…` (the `/go.mod` lines repeat the same module). */
function goSum(text: string): Versions {
  const out: Versions = new Map();
  for (const line of text.split(/\r?\n/)) {
    const m = /^(\S+) (v[^\s/]+)(?:\/go\.mod)? h1:/.exec(line);
    if (m) add(out, m[1], m[2]);
  }
  return out;
}

/** Gemfile.lock `    name (1.2.3)` under specs. */
function gemLock(text: string): Versions {
  const out: Versions = new Map();
  for (const line of text.split(/\r?\n/)) {
    const m = /^ {4}([\w.-]+) \(([^)\s]+)\)$/.exec(line);
    if (m) add(out, m[1], m[2]);
  }
  return out;
}

function versionsOf(file: string, text: string): Versions | undefined {
  const base = file.replace(/^.*\//, '');
  if (base === 'package-lock.json' || base === 'npm-shrinkwrap.json') return npmLock(text);
  if (base === 'yarn.lock') return yarnLock(text);
  if (base === 'pnpm-lock.yaml') return pnpmLock(text);
  if (base === 'Cargo.lock' || base === 'poetry.lock' || base === 'uv.lock') return tomlPackages(text);
  if (base === 'go.sum') return goSum(text);
  if (base === 'Gemfile.lock') return gemLock(text);
  return undefined;
}

const MAX_NAMED = 6;

/**
 * The change of one lockfile in one line, `null`/undefined text meaning absent: "+x@1.2.3" came, "-x@1"
 * went, "x 1.0.0→1.1.0" moved. A lockfile it cannot read is counted ("+370 −2 lines").
 */
export function lockfileChange(file: string, before: string | undefined, after: string | undefined): string {
  const a = before === undefined ? new Map() as Versions : versionsOf(file, before);
  const b = after === undefined ? new Map() as Versions : versionsOf(file, after);
  if (!a || !b) return `${file}: ${lineCount(before, after)}`;
  const parts: string[] = [];
  for (const [name, vs] of b) {
    const old = a.get(name);
    if (!old) { for (const v of vs) parts.push(`+${name}@${v}`); continue; }
    const gone = [...old].filter(v => !vs.has(v));
    const came = [...vs].filter(v => !old.has(v));
    if (gone.length === 1 && came.length === 1) parts.push(`${name} ${gone[0]}→${came[0]}`);
    else { for (const v of came) parts.push(`+${name}@${v}`); for (const v of gone) parts.push(`-${name}@${v}`); }
  }
  for (const [name, vs] of a) if (!b.has(name)) for (const v of vs) parts.push(`-${name}@${v}`);
  if (!parts.length) return `${file}: no package changed`;
  const shown = parts.slice(0, MAX_NAMED).join(', ');
  return `${file}: ${shown}${parts.length > MAX_NAMED ? `, and ${parts.length - MAX_NAMED} more` : ''}`;
}

function lineCount(before: string | undefined, after: string | undefined): string {
  const a = new Set((before ?? '').split('\n'));
  const b = new Set((after ?? '').split('\n'));
  let plus = 0, minus = 0;
  for (const l of b) if (!a.has(l)) plus++;
  for (const l of a) if (!b.has(l)) minus++;
  return `+${plus} −${minus} lines`;
}
