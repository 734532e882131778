// Which store the CLI picks: the window's published store when there is one, else its own per-folder
// store; the CLI bundle's `engram where` says which and why.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fallbackDir, FOLDER_FILE, projectRoot, publishModel, publishPersonal, publishStore, readRegistry, registryPath, resolveStore, startFolder } from '../../src/store/location';
import { buildCli } from './buildCli';

describe('store location (engram where)', () => {
  let tmp: string;
  let home: string;
  let repo: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'engram-where-')));
    home = path.join(tmp, 'home');
    repo = path.join(tmp, 'repo');
    fs.mkdirSync(path.join(repo, 'packages', 'web'), { recursive: true });
    env = { HOME: home };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function register(folder: string, dir: string): void {
    const file = registryPath(env, home);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 1, stores: { [folder]: dir } }));
  }

  function makeStore(dir: string): void {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'events.jsonl'), '{"engram":"events","v":1,"generation":1,"createdAt":0}\n');
  }

  it('the personal store the window publishes goes with a published or fallback store, never with --store or $ENGRAM_STORE_DIR', () => {
    const personal = path.join(tmp, 'personal');
    makeStore(personal);
    const windowStore = path.join(tmp, 'window-store');
    assert.deepStrictEqual(publishStore(repo, windowStore, env, home), { changed: true });
    assert.deepStrictEqual(publishPersonal(personal, env, home), { changed: true });
    assert.deepStrictEqual(publishPersonal(personal, env, home), { changed: false });
    // Publishing a store keeps the personal entry, and the other way round.
    assert.deepStrictEqual(publishStore(path.join(tmp, 'other'), path.join(tmp, 'os'), env, home), { changed: true });
    const reg = readRegistry(registryPath(env, home));
    assert.deepStrictEqual([reg.personal, reg.stores[repo]], [personal, windowStore]);
    assert.strictEqual(resolveStore({ env, folder: path.join(repo, 'packages', 'web'), home }).personal, personal);
    assert.strictEqual(resolveStore({ env, folder: path.join(tmp, 'elsewhere'), home }).personal, personal);
    assert.strictEqual(resolveStore({ flag: path.join(tmp, 'x'), env, folder: repo, home }).personal, undefined);
    assert.strictEqual(resolveStore({ env: { ...env, ENGRAM_STORE_DIR: path.join(tmp, 'e') }, folder: repo, home }).personal, undefined);
    // The window stops recalling from it: so does the CLI.
    assert.deepStrictEqual(publishPersonal(undefined, env, home), { changed: true });
    assert.strictEqual(resolveStore({ env, folder: repo, home }).personal, undefined);
    assert.strictEqual(readRegistry(registryPath(env, home)).stores[repo], windowStore);
  });

  it('--store, then $ENGRAM_STORE_DIR, win over anything published', () => {
    register(repo, path.join(tmp, 'window-store'));
    assert.strictEqual(resolveStore({ flag: 'x', env: { ...env, ENGRAM_STORE_DIR: '/e' }, folder: repo, home }).source, 'flag');
    const e = resolveStore({ env: { ...env, ENGRAM_STORE_DIR: path.join(tmp, 'e') }, folder: repo, home });
    assert.deepStrictEqual([e.source, e.dir], ['env', path.join(tmp, 'e')]);
  });

  it('finds the store the window registered for the folder, from a subfolder too', () => {
    const windowStore = path.join(tmp, 'vscode', 'workspaceStorage', 'abc', 'engram-dev.engram', 'memory');
    register(repo, windowStore);
    const l = resolveStore({ env, folder: path.join(repo, 'packages', 'web'), home });
    assert.deepStrictEqual([l.source, l.dir, l.folder], ['registry', windowStore, repo]);
    assert.match(l.reason, /published by the VS Code window/);
  });

  it('uses .engram/store-path only when it names an existing store', () => {
    const windowStore = path.join(tmp, 'ws', 'memory');
    fs.mkdirSync(path.join(repo, '.engram'));
    fs.writeFileSync(path.join(repo, FOLDER_FILE), windowStore + '\n');
    const before = resolveStore({ env, folder: repo, home });
    assert.strictEqual(before.source, 'fallback');
    assert.match(before.skipped.join('\n'), /does not name an existing Engram store/);
    makeStore(windowStore);
    const after = resolveStore({ env, folder: repo, home });
    assert.deepStrictEqual([after.source, after.dir], ['folder-file', windowStore]);
  });

  it('falls back to a per-folder store, distinct for two folders of the same name, and reports a bad registry', () => {
    const file = registryPath(env, home);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ not json');
    const l = resolveStore({ env, folder: repo, home });
    assert.deepStrictEqual([l.source, l.dir], ['fallback', fallbackDir(repo, env, home)]);
    assert.ok(l.dir.startsWith(path.join(home, '.local', 'share', 'engram')), l.dir);
    assert.match(l.skipped.join('\n'), /not a valid store registry/);
    assert.notStrictEqual(fallbackDir(path.join(tmp, 'a', 'repo'), env, home), fallbackDir(path.join(tmp, 'b', 'repo'), env, home));
  });

  it('publishStore (what the window would call) keeps other folders, is idempotent, and never clobbers a bad registry', () => {
    const other = path.join(tmp, 'other');
    register(other, path.join(tmp, 'other-store'));
    const windowStore = path.join(tmp, 'ws', 'memory');
    assert.deepStrictEqual(publishStore(repo, windowStore, env, home), { changed: true });
    assert.deepStrictEqual(publishStore(repo, windowStore, env, home), { changed: false });
    assert.strictEqual(resolveStore({ env, folder: repo, home }).dir, windowStore);
    assert.strictEqual(resolveStore({ env, folder: other, home }).dir, path.join(tmp, 'other-store'));
    fs.writeFileSync(registryPath(env, home), '[]');
    assert.match(publishStore(repo, windowStore, env, home).error ?? '', /not a valid store registry/);
    assert.strictEqual(fs.readFileSync(registryPath(env, home), 'utf8'), '[]');
  });

  it('a --folder variable the client did not expand falls back to the current directory, with a note', () => {
    const s = startFolder('${workspaceFolder}', repo);
    assert.strictEqual(s.folder, repo);
    assert.match(s.note ?? '', /did not expand/);
    assert.deepStrictEqual(startFolder(path.join(tmp, 'x'), repo), { folder: path.join(tmp, 'x'), given: true });
  });

  it('`engram where` prints the choice; other commands say when they fall back', async function () {
    this.timeout(60_000);
    const cli = await buildCli('engram-where-');
    const windowStore = path.join(tmp, 'window-store');
    register(repo, windowStore);
    const run = (args: string[], cwd: string) => spawnSync(process.execPath, [cli, ...args], {
      cwd, encoding: 'utf8', env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', ENGRAM_STORE_DIR: '' },
    });
    const where = run(['where', '--json'], path.join(repo, 'packages'));
    assert.strictEqual(where.status, 0, where.stderr);
    assert.deepStrictEqual(JSON.parse(where.stdout).store, windowStore);
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    const stats = run(['stats'], other);
    assert.strictEqual(stats.status, 1);
    assert.match(stats.stderr, /no VS Code window published a store for .*other/);
    assert.match(stats.stderr, /--store DIR/);
  });
  it('the window publishes its embedding model for the CLI and engram mcp, used while its files are there (issue 18)', () => {
    const model = path.join(tmp, 'models', 'm');
    fs.mkdirSync(model, { recursive: true });
    publishStore(repo, path.join(tmp, 'ws'), env, home);
    assert.deepStrictEqual(publishModel(model, env, home), { changed: true });
    assert.strictEqual(resolveStore({ env, folder: repo, home }).model, undefined, 'no config.json: not a model folder (any more)');
    fs.writeFileSync(path.join(model, 'config.json'), '{}');
    assert.strictEqual(resolveStore({ env, folder: path.join(repo, 'packages', 'web'), home }).model, model);
    assert.strictEqual(readRegistry(registryPath(env, home)).stores[repo], path.join(tmp, 'ws'), 'the stores are kept');
    assert.deepStrictEqual(publishModel(undefined, env, home), { changed: true });
    assert.strictEqual(resolveStore({ env, folder: repo, home }).model, undefined);
  });

  it('the workspace root: --folder as given, else the nearest .engram or .git above, else a manifest (issue 18)', () => {
    const web = path.join(repo, 'packages', 'web');
    fs.writeFileSync(path.join(web, 'package.json'), '{}');
    assert.deepStrictEqual(projectRoot(web, { home }).folder, web, 'only a manifest: its folder');
    fs.mkdirSync(path.join(repo, '.git'));
    assert.deepStrictEqual([projectRoot(web, { home }).folder, projectRoot(web, { home }).known], [repo, true]);
    assert.strictEqual(projectRoot(web, { given: true, home }).folder, web);
    const bare = path.join(tmp, 'bare', 'x');
    fs.mkdirSync(bare, { recursive: true });
    assert.deepStrictEqual([projectRoot(bare, { home: tmp }).folder, projectRoot(bare, { home: tmp }).known], [bare, false]);
  });
});
