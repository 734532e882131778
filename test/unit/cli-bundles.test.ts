// dist/cli.js loads only the bundle its command needs (scripts/cliBundles.mjs, src/cli/bundles.ts): a
// recall parses no MCP SDK, zod, ajv or team server; `engram where` parses no store. Checked by what a
// real process has loaded when it exits, not by timing.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildCli } from './buildCli';

describe('cli bundles: each command loads what it needs', function () {
  this.timeout(120_000);
  let cli = '';
  let dir = '';
  let preload = '';
  let store = '';
  before(async () => {
    cli = await buildCli('engram-cli-bundles-');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-cli-bundles-run-'));
    store = path.join(dir, 'store');
    // At exit, the files of the CLI's folder this process required, on stderr.
    preload = path.join(dir, 'loaded.js');
    fs.writeFileSync(preload, `process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache).filter(f => f.startsWith(${JSON.stringify(path.dirname(cli) + path.sep)})).map(f => require('path').basename(f)).sort()) + '\\n'));\n`);
    const lesson = JSON.stringify({ kind: 'lesson', id: 'mod-1', errorSignature: "Error: Cannot find module 'lodash'", rootCause: 'not a dependency of this package', fixApproach: 'add it to the package that imports it' });
    fs.writeFileSync(path.join(dir, 'in.jsonl'), lesson + '\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function loaded(...args: string[]): { files: string[]; out: string; code: number | null } {
    const r = spawnSync(process.execPath, ['-r', preload, cli, ...args], { encoding: 'utf8', cwd: dir, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    const line = r.stderr.split('\n').find(l => l.startsWith('LOADED '));
    assert.ok(line, r.stderr);
    return { files: JSON.parse(line.slice('LOADED '.length)) as string[], out: r.stdout, code: r.status };
  }

  it('where and help load the entry alone; the store commands load cliStore.js and nothing of the MCP server', () => {
    assert.deepStrictEqual(loaded('--store', store, 'where').files, ['cli.js']);
    assert.deepStrictEqual(loaded('--help').files, ['cli.js']);
    const imported = loaded('--store', store, 'import', path.join(dir, 'in.jsonl'));
    assert.strictEqual(imported.code, 0);
    assert.deepStrictEqual(imported.files, ['cli.js', 'cliStore.js']);
    const recall = loaded('--store', store, 'recall', "Error: Cannot find module 'lodash'", '--json');
    assert.strictEqual(recall.code, 0);
    assert.deepStrictEqual((JSON.parse(recall.out) as { results: { id: string }[] }).results.map(r => r.id), ['mod-1']);
    assert.deepStrictEqual(recall.files, ['cli.js', 'cliStore.js']);
    for (const cmd of [['stats'], ['show', 'mod-1']]) assert.deepStrictEqual(loaded('--store', store, ...cmd).files, ['cli.js', 'cliStore.js'], cmd[0]);
    // A design rule, not a timing: the MCP SDK, its validators and the team server are not in them.
    for (const file of ['cli.js', 'cliStore.js']) {
      const text = fs.readFileSync(path.join(path.dirname(cli), file), 'utf8');
      for (const name of ['@modelcontextprotocol/sdk', 'node_modules/zod/', 'node_modules/ajv/', 'src/server/']) assert.ok(!text.includes(name), `${name} is in ${file}`);
    }
  });

  it('engram mcp loads cliMcp.js, not the team server, and answers initialize', async () => {
    const child = spawn(process.execPath, ['-r', preload, cli, '--store', store, 'mcp'], { cwd: dir, env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const answered = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('\n')) resolve(out); });
      child.on('exit', () => reject(new Error(`exited before answering: ${err}`)));
    });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bundles-test', version: '1' } } }) + '\n');
    const first = JSON.parse((await answered).split('\n')[0]) as { id: number; result?: { serverInfo?: { name: string } } };
    assert.strictEqual(first.id, 1);
    assert.ok(first.result?.serverInfo, out);
    const exited = new Promise(resolve => child.on('exit', resolve));
    child.stdin.end();
    await exited;
    const line = err.split('\n').find(l => l.startsWith('LOADED '));
    assert.ok(line, err);
    assert.deepStrictEqual(JSON.parse(line.slice('LOADED '.length)), ['cli.js', 'cliMcp.js']);
  });
});
