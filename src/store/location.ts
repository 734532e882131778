// Which store folder the CLI (and `engram mcp`) uses, and why: the one the VS Code window for this
// folder uses when the window published it, so an agent in a terminal sees the memories the editor shows.
// One decision, in one place: --store, then $ENGRAM_STORE_DIR, then what the window published (the
// per-user registry, then the folder's .engram/store-path), then a per-folder store of the CLI's own.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { EVENTS_FILE } from './logFiles';

export type StoreSource = 'flag' | 'env' | 'registry' | 'folder-file' | 'fallback';

export interface StoreLocation {
  dir: string;
  source: StoreSource;
  /**
   * The workspace root: scopes are relative to it and the stale check reads files under it. The folder
   * whose publication was found, else --folder as given, else the nearest folder above the working
   * directory holding `.engram/` or `.git`, else one holding a manifest (package.json, Cargo.toml, …).
   */
  folder: string;
  /** Where the command started (the working directory or --folder): a relative `file` is relative to it. */
  cwd: string;
  /** False when no publication, --folder or marker said where the root is (then nothing is quarantined). */
  rootKnown: boolean;
  /** How the root was found, for `engram where`. */
  rootReason: string;
  /** One sentence on how it was chosen, for `engram where` and stderr. */
  reason: string;
  /** Publications that were found but not used (missing folder, unreadable file), each a sentence. */
  skipped: string[];
  /**
   * The user's personal store, when the window recalls from it (engram.recall.includePersonal) and
   * published it, or $ENGRAM_PERSONAL_STORE_DIR; never beside a store given with --store or
   * $ENGRAM_STORE_DIR (that means exactly this store).
   */
  personal?: string;
  /**
   * The embedding model folder the window loaded (it publishes it beside its store), when its files are
   * still there: the CLI and `engram mcp` load the same model, so their vectors are the window's.
   */
  model?: string;
}

export interface LocationInput {
  flag?: string;
  env: NodeJS.ProcessEnv;
  /** Where to start looking for a published store: --folder or the current directory. */
  folder: string;
  /** `folder` was given with --folder: it is the root as it stands (a window's workspace folder). */
  folderGiven?: boolean;
  home?: string;
}

/** What marks a project's root, nearest first: Engram's own folder or a repository. */
const ROOT_MARKERS = ['.engram', '.git'];
/** Then, when no folder above has one, the nearest build manifest. */
const MANIFESTS = ['package.json', 'Cargo.toml', 'pyproject.toml', 'setup.py', 'go.mod', 'pom.xml', 'build.gradle', 'build.gradle.kts', 'composer.json', 'Gemfile', 'deno.json'];

/**
 * The workspace root for a start folder, as an editor would have opened it: --folder as given; else the
 * nearest folder holding `.engram/` or `.git` (the home folder's own dotfiles repository excepted), else
 * the nearest holding a manifest; else the start folder, unknown.
 */
export function projectRoot(start: string, opts: { given?: boolean; home?: string } = {}): { folder: string; known: boolean; reason: string } {
  const folder = path.resolve(start);
  if (opts.given) return { folder, known: true, reason: 'given with --folder' };
  const home = path.resolve(opts.home ?? os.homedir());
  const up = ancestors(folder);
  for (const d of up) {
    if (d === home && d !== folder) continue;
    const m = ROOT_MARKERS.find(f => fs.existsSync(path.join(d, f)));
    if (m) return { folder: d, known: true, reason: `the nearest folder with ${m} above ${folder}` };
  }
  for (const d of up) {
    const m = MANIFESTS.find(f => fs.existsSync(path.join(d, f)));
    if (m) return { folder: d, known: true, reason: `the nearest folder with ${m} above ${folder}` };
  }
  return { folder, known: false, reason: `no .engram/, .git or manifest above ${folder}: the working directory is taken as the root` };
}

/** `~/.config/engram/stores.json` ($XDG_CONFIG_HOME honoured): workspace folder → store folder. */
export function registryPath(env: NodeJS.ProcessEnv, home = os.homedir()): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'engram', 'stores.json');
}

/** The file a window may write inside the workspace folder: one line, the absolute store path. */
export const FOLDER_FILE = path.join('.engram', 'store-path');

/** Where the CLI keeps a folder's memories when no window published a store for it. */
export function fallbackDir(folder: string, env: NodeJS.ProcessEnv, home = os.homedir()): string {
  const data = env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  // Loaded here, not at the top: requiring crypto costs ~9 ms, and the hook (src/hookMain.ts, run on every
  // Claude Code tool call) resolves its store through this module without ever needing the fallback.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for the fallback folder
  const { createHash } = require('crypto') as typeof import('crypto');
  const id = createHash('sha256').update(folder).digest('hex').slice(0, 12);
  return path.join(data, 'engram', 'stores', `${path.basename(folder) || 'root'}-${id}`);
}

/** The registry's entries; a malformed registry is reported, never guessed at. */
export function readRegistry(file: string): { stores: Record<string, string>; personal?: string; model?: string; error?: string } {
  let raw: string;
  try { raw = fs.readFileSync(file, 'utf8'); } catch { return { stores: {} }; }
  try {
    const v = JSON.parse(raw) as unknown;
    const stores = (v as { stores?: unknown })?.stores;
    if (typeof stores !== 'object' || stores === null || Array.isArray(stores)) throw new Error('no "stores" object');
    const out: Record<string, string> = {};
    for (const [k, d] of Object.entries(stores)) if (typeof d === 'string' && path.isAbsolute(d)) out[path.resolve(k)] = d;
    const personal = (v as { personal?: unknown }).personal;
    const model = (v as { model?: unknown }).model;
    return { stores: out, ...(typeof personal === 'string' && path.isAbsolute(personal) ? { personal } : {}), ...(typeof model === 'string' && path.isAbsolute(model) ? { model } : {}) };
  } catch (e) {
    return { stores: {}, error: `${file} is not a valid store registry (${(e as Error).message})` };
  }
}

function ancestors(start: string): string[] {
  const out: string[] = [];
  for (let d = path.resolve(start); ; d = path.dirname(d)) {
    out.push(d);
    if (d === path.dirname(d)) return out;
  }
}

export function resolveStore(input: LocationInput): StoreLocation {
  const cwd = path.resolve(input.folder);
  const located = (l: Omit<StoreLocation, 'cwd' | 'folder' | 'rootKnown' | 'rootReason'>, published?: string): StoreLocation => {
    const root = published ? { folder: published, known: true, reason: 'the folder the VS Code window published' } : projectRoot(cwd, { given: input.folderGiven, home: input.home });
    return { ...l, cwd, folder: root.folder, rootKnown: root.known, rootReason: root.reason };
  };
  if (input.flag) return located({ dir: path.resolve(input.flag), source: 'flag', reason: 'given with --store', skipped: [] });
  if (input.env.ENGRAM_STORE_DIR) {
    return located({ dir: path.resolve(input.env.ENGRAM_STORE_DIR), source: 'env', reason: 'set by $ENGRAM_STORE_DIR', skipped: [] });
  }
  const folder = cwd;
  const skipped: string[] = [];
  const regFile = registryPath(input.env, input.home);
  const registry = readRegistry(regFile);
  if (registry.error) skipped.push(registry.error);
  const personalDir = input.env.ENGRAM_PERSONAL_STORE_DIR ? path.resolve(input.env.ENGRAM_PERSONAL_STORE_DIR) : registry.personal;
  const personal = {
    ...(personalDir && fs.existsSync(path.join(personalDir, EVENTS_FILE)) ? { personal: personalDir } : {}),
    ...(registry.model && fs.existsSync(path.join(registry.model, 'config.json')) ? { model: registry.model } : {}),
  };
  // The nearest folder with a publication wins: an agent started in packages/web still finds the
  // store of the repository the window opened.
  for (const d of ancestors(folder)) {
    const published = registry.stores[d];
    // The registry is the user's own file: trusted even before the window first wrote the store.
    if (published) {
      return located({ dir: published, source: 'registry', reason: `published by the VS Code window for ${d} (in ${regFile})`, skipped, ...personal }, d);
    }
    const file = path.join(d, FOLDER_FILE);
    let line: string | undefined;
    try { line = fs.readFileSync(file, 'utf8').split(/\r?\n/)[0]?.trim(); } catch { continue; }
    // A checked-in file could point anywhere: use it only when it names an existing Engram store.
    if (line && path.isAbsolute(line) && fs.existsSync(path.join(line, EVENTS_FILE))) {
      return located({ dir: line, source: 'folder-file', reason: `published by the VS Code window for ${d} (in ${file})`, skipped, ...personal }, d);
    }
    skipped.push(`${file} does not name an existing Engram store (${line || 'empty'})`);
  }
  // The CLI's own store belongs to the project root, so a subfolder shares it.
  const root = projectRoot(folder, { given: input.folderGiven, home: input.home });
  return located({
    dir: fallbackDir(root.folder, input.env, input.home), source: 'fallback', skipped, ...personal,
    reason: `no VS Code window published a store for ${folder} (or a folder above it); using the CLI's own per-folder store`,
  });
}

/** What `engram where` prints. */
export function describeLocation(l: StoreLocation, json: boolean): string {
  const exists = fs.existsSync(path.join(l.dir, EVENTS_FILE));
  if (json) return JSON.stringify({ store: l.dir, source: l.source, folder: l.folder, root: { known: l.rootKnown, reason: l.rootReason }, exists, reason: l.reason, ...(l.personal ? { personal: l.personal } : {}), ...(l.skipped.length ? { skipped: l.skipped } : {}) }) + '\n';
  return `${l.dir}\n  ${l.reason}\n  ${exists ? 'a store exists there' : 'no store there yet (a writing command or `engram mcp` creates it)'}\n` +
    `  workspace root: ${l.folder} (${l.rootReason})\n` +
    (l.personal ? `  personal memories (read by engram mcp): ${l.personal}\n` : '') +
    l.skipped.map(s => `  ignored: ${s}\n`).join('');
}

/** The start folder: --folder, unless the client passed a variable it did not expand (then cwd, and a note). */
export function startFolder(flag: string | undefined, cwd: string): { folder: string; given?: boolean; note?: string } {
  if (flag && /\$\{[^}]*\}/.test(flag)) {
    return { folder: cwd, note: `--folder ${flag}: the MCP client did not expand the variable; using the current directory ${cwd}` };
  }
  return flag ? { folder: flag, given: true } : { folder: cwd };
}

/**
 * What a VS Code window calls to publish its store for a folder (idempotent; other folders kept).
 * Never overwrites a registry it cannot read: returns the reason instead.
 */
export function publishStore(folder: string, dir: string, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): { changed: boolean; error?: string } {
  const file = registryPath(env, home);
  const { error, ...reg } = readRegistry(file);
  if (error) return { changed: false, error };
  const key = path.resolve(folder);
  if (reg.stores[key] === dir) return { changed: false };
  writeRegistry(file, { ...reg, stores: { ...reg.stores, [key]: dir } });
  return { changed: true };
}

/**
 * What a window calls with its personal store when it recalls from it (undefined when it does not), so
 * `engram mcp` recalls from the same stores. Never overwrites a registry it cannot read.
 */
export function publishPersonal(dir: string | undefined, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): { changed: boolean; error?: string } {
  const file = registryPath(env, home);
  const { error, ...reg } = readRegistry(file);
  if (error) return { changed: false, error };
  if (reg.personal === dir) return { changed: false };
  writeRegistry(file, { ...reg, personal: dir });
  return { changed: true };
}

/**
 * What a window calls with the embedding model folder it loaded (undefined when it runs without one), so
 * the CLI and `engram mcp` embed with the same model. Never overwrites a registry it cannot read.
 */
export function publishModel(dir: string | undefined, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): { changed: boolean; error?: string } {
  const file = registryPath(env, home);
  const { error, ...reg } = readRegistry(file);
  if (error) return { changed: false, error };
  if (reg.model === dir) return { changed: false };
  writeRegistry(file, { ...reg, model: dir });
  return { changed: true };
}

function writeRegistry(file: string, reg: { stores: Record<string, string>; personal?: string; model?: string }): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole and renamed into place: a CLI reading at the same moment sees the old or the new file.
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify({ version: 1, stores: reg.stores, ...(reg.personal ? { personal: reg.personal } : {}), ...(reg.model ? { model: reg.model } : {}) }, null, 2) + '\n');
  fs.renameSync(tmp, file);
}
