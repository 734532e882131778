// `engram connect/disconnect`: each client's project file written in its documented shape, other
// entries kept, repeat runs change nothing, disconnect undoes, malformed files are never rewritten.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { connect, disconnect } from '../../src/mcp/connect';
import { buildCli } from './buildCli';

const CLI = '/opt/engram/dist/cli.js';

describe('connect / disconnect (project MCP configs)', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-connect-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8'));

  it('claude-code: a fresh .mcp.json with mcpServers, then repeat runs change nothing, then disconnect deletes it', () => {
    assert.strictEqual(connect('claude-code', dir, CLI).change, 'created');
    assert.deepStrictEqual(read('.mcp.json'), { mcpServers: { engram: { command: 'node', args: [CLI, 'mcp'] } } });
    const bytes = fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8');
    assert.strictEqual(connect('claude-code', dir, CLI).change, 'unchanged');
    assert.strictEqual(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8'), bytes);
    assert.strictEqual(disconnect('claude-code', dir).change, 'deleted-file');
    assert.ok(!fs.existsSync(path.join(dir, '.mcp.json')));
    assert.strictEqual(disconnect('claude-code', dir).change, 'absent');
  });

  it('cursor: keeps the other servers and keys, updates a stale engram entry, disconnect leaves the rest', () => {
    fs.mkdirSync(path.join(dir, '.cursor'));
    const other = { command: 'npx', args: ['-y', '@playwright/mcp'], env: { A: '1' } };
    fs.writeFileSync(path.join(dir, '.cursor/mcp.json'), JSON.stringify({ mcpServers: { playwright: other, engram: { command: 'old' } }, extra: true }));
    assert.strictEqual(connect('cursor', dir, CLI).change, 'updated');
    const c = read('.cursor/mcp.json');
    assert.deepStrictEqual(c.mcpServers.playwright, other);
    assert.deepStrictEqual(c.mcpServers.engram, { command: 'node', args: [CLI, 'mcp', '--folder', '${workspaceFolder}'] });
    assert.strictEqual(c.extra, true);
    assert.strictEqual(disconnect('cursor', dir).change, 'removed');
    assert.deepStrictEqual(read('.cursor/mcp.json'), { mcpServers: { playwright: other }, extra: true });
  });

  it('vscode: "servers" with type stdio, next to inputs; disconnect of a file we created removes .vscode when empty', () => {
    assert.strictEqual(connect('vscode', dir, CLI).change, 'created');
    assert.deepStrictEqual(read('.vscode/mcp.json'), { servers: { engram: { type: 'stdio', command: 'node', args: [CLI, 'mcp', '--folder', '${workspaceFolder}'] } } });
    assert.strictEqual(disconnect('vscode', dir).change, 'deleted-file');
    assert.ok(!fs.existsSync(path.join(dir, '.vscode')));

    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), JSON.stringify({ inputs: [{ id: 'k', type: 'promptString' }], servers: {} }));
    assert.strictEqual(connect('vscode', dir, CLI).change, 'added');
    assert.deepStrictEqual(read('.vscode/mcp.json').inputs, [{ id: 'k', type: 'promptString' }]);
    assert.strictEqual(disconnect('vscode', dir).change, 'removed');
    assert.deepStrictEqual(read('.vscode/mcp.json'), { inputs: [{ id: 'k', type: 'promptString' }], servers: {} });
  });

  it('refuses to touch a malformed or commented file', () => {
    fs.mkdirSync(path.join(dir, '.vscode'));
    const jsonc = '{\n  // my servers\n  "servers": {}\n}\n';
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), jsonc);
    assert.throws(() => connect('vscode', dir, CLI), /not plain JSON.*left untouched/);
    assert.strictEqual(fs.readFileSync(path.join(dir, '.vscode/mcp.json'), 'utf8'), jsonc);
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: [] }));
    assert.throws(() => connect('claude-code', dir, CLI), /"mcpServers" in .* is not an object/);
    assert.throws(() => disconnect('claude-code', dir), /is not an object/);
  });

  it('the CLI prints what changed and exits non-zero on a bad client or file', async function () {
    this.timeout(60_000);
    const cli = await buildCli('engram-connect-');
    const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ENGRAM_STORE_DIR: '' } });
    const c = run('connect', 'claude-code');
    assert.strictEqual(c.status, 0, c.stderr);
    assert.match(c.stdout, /claude-code: created .*\.mcp\.json/);
    assert.deepStrictEqual(read('.mcp.json').mcpServers.engram.args, [cli, 'mcp']);
    assert.match(run('connect', 'claude-code').stdout, /nothing changed/);
    assert.match(run('disconnect', 'claude-code').stdout, /deleted/);
    const bad = run('connect', 'emacs');
    assert.strictEqual(bad.status, 2);
    assert.match(bad.stderr, /claude-code, cursor, vscode/);
    fs.writeFileSync(path.join(dir, '.mcp.json'), '{oops');
    const broken = run('connect', 'claude-code');
    assert.strictEqual(broken.status, 1);
    assert.match(broken.stderr, /not plain JSON/);
  });
});
