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

describe('connect / disconnect (project and user MCP configs)', () => {
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
    // A servers object left empty goes with our entry: a file that had none must not keep one (issue 18);
    // an empty one means nothing to VS Code either way.
    assert.deepStrictEqual(read('.vscode/mcp.json'), { inputs: [{ id: 'k', type: 'promptString' }] });
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

  // Read back by a real TOML parser (Python's tomllib): what Codex will see.
  const toml = (file: string): Record<string, unknown> => {
    const r = spawnSync('python3', ['-c', 'import tomllib,sys,json; print(json.dumps(tomllib.load(open(sys.argv[1],"rb"))))', file], { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  const haveTomllib = spawnSync('python3', ['-c', 'import tomllib'], { encoding: 'utf8' }).status === 0;

  it('codex: a fresh ~/.codex/config.toml (CODEX_HOME honoured), repeat runs change nothing, disconnect deletes it', function () {
    if (!haveTomllib) this.skip();
    const home = path.join(dir, 'home');
    const r = connect('codex', dir, CLI, { home, env: {} });
    assert.strictEqual(r.change, 'created');
    assert.strictEqual(r.file, path.join(home, '.codex', 'config.toml'));
    assert.deepStrictEqual(toml(r.file), { mcp_servers: { engram: { command: 'node', args: [CLI, 'mcp'] } } });
    const bytes = fs.readFileSync(r.file, 'utf8');
    assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'unchanged');
    assert.strictEqual(fs.readFileSync(r.file, 'utf8'), bytes);
    assert.strictEqual(disconnect('codex', dir, { home, env: {} }).change, 'deleted-file');
    assert.ok(!fs.existsSync(r.file));
    assert.ok(fs.existsSync(path.join(home, '.codex')), "Codex's own folder is never removed");
    assert.strictEqual(disconnect('codex', dir, { home, env: {} }).change, 'absent');
    assert.strictEqual(connect('codex', dir, CLI, { home, env: { CODEX_HOME: path.join(dir, 'ch') } }).file, path.join(dir, 'ch', 'config.toml'));
  });

  it('codex: keeps the user\'s comments, servers, sub-tables and line endings byte for byte; updates a stale entry in place', function () {
    if (!haveTomllib) this.skip();
    const home = path.join(dir, 'home');
    const file = path.join(home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const original = [
      '# my Codex settings',
      'model = "gpt-5"  # the default',
      'notes = """',
      '[mcp_servers.engram] inside a string is not a table',
      '"""',
      '',
      '[mcp_servers.playwright]',
      'command = "npx"',
      'args = [',
      '  "@playwright/mcp@latest", # pinned later',
      '  "[x]",',
      ']',
      '',
      '[mcp_servers.playwright.env]',
      "TOKEN_VAR = 'PW'",
      '',
      '# profiles below',
      '[profiles.fast]',
      'model = "gpt-5-mini"',
      '',
    ].join('\r\n');
    fs.writeFileSync(file, original, { mode: 0o600 });
    assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'added');
    const added = fs.readFileSync(file, 'utf8');
    assert.ok(added.startsWith(original), 'everything before ours is as it was');
    assert.strictEqual(added.slice(original.length), `\r\n[mcp_servers.engram]\r\ncommand = "node"\r\nargs = ["${CLI}", "mcp"]\r\n`);
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600, 'the file keeps its permissions');
    const parsed = toml(file) as { model: string; mcp_servers: Record<string, unknown>; profiles: unknown };
    assert.deepStrictEqual(Object.keys(parsed.mcp_servers), ['playwright', 'engram']);
    assert.deepStrictEqual(parsed.profiles, { fast: { model: 'gpt-5-mini' } });
    assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'unchanged');
    assert.strictEqual(disconnect('codex', dir, { home, env: {} }).change, 'removed');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), original, 'connect then disconnect gives the file back byte for byte');

    // A stale entry of ours in the middle is updated where it is: only command and args change; the
    // user's own keys and its env sub-table stay (issue 18: re-running connect after an update).
    const stale = 'a = 1\n\n[mcp_servers.engram]\ncommand = "old"\ncwd = "/w"\nstartup_timeout_sec = 30\nenabled = false\n\n[mcp_servers.engram.env]\nX = "1"\n\n# about b\n[b]\nc = 2\n';
    fs.writeFileSync(file, stale);
    assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'updated');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), `a = 1\n\n[mcp_servers.engram]\ncommand = "node"\nargs = ["${CLI}", "mcp"]\ncwd = "/w"\nstartup_timeout_sec = 30\nenabled = false\n\n[mcp_servers.engram.env]\nX = "1"\n\n# about b\n[b]\nc = 2\n`);
    assert.deepStrictEqual(toml(file), { a: 1, mcp_servers: { engram: { command: 'node', args: [CLI, 'mcp'], cwd: '/w', startup_timeout_sec: 30, enabled: false, env: { X: '1' } } }, b: { c: 2 } });
    assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'unchanged');
  });

  it('codex: refuses a file it cannot read, or an engram entry written inline, leaving it untouched', () => {
    const home = path.join(dir, 'home');
    const file = path.join(home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const cases: [string, RegExp][] = [
      ['model = "gpt-5\n', /string that does not end/],
      ['args = [\n"x"\n', /does not end/],
      ['[mcp_servers.x\ncommand = "y"\n', /table header Engram cannot read/],
      ['[mcp_servers]\nengram = { command = "node" }\n', /defines mcp_servers\.engram inline/],
      ['mcp_servers = { other = { command = "x" } }\n', /defines mcp_servers inline/],
      ['[[mcp_servers]]\nname = "x"\n', /array of tables/],
    ];
    for (const [text, why] of cases) {
      fs.writeFileSync(file, text);
      assert.throws(() => connect('codex', dir, CLI, { home, env: {} }), why);
      assert.throws(() => disconnect('codex', dir, { home, env: {} }), why);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), text);
    }
  });

  it('--user: Claude Code\'s ~/.claude.json and Cursor\'s ~/.cursor/mcp.json, every other key kept, permissions too', () => {
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    const claudeJson = path.join(home, '.claude.json');
    const state = { numStartups: 12, projects: { '/p': { mcpServers: { local: { command: 'x' } } } }, mcpServers: { github: { type: 'stdio', command: 'gh-mcp', args: [] } } };
    fs.writeFileSync(claudeJson, JSON.stringify(state, null, 2), { mode: 0o600 });
    assert.strictEqual(connect('claude-code', dir, CLI, { user: true, home }).change, 'added');
    const after = JSON.parse(fs.readFileSync(claudeJson, 'utf8'));
    assert.deepStrictEqual(after, { ...state, mcpServers: { ...state.mcpServers, engram: { command: 'node', args: [CLI, 'mcp'] } } });
    assert.strictEqual(fs.statSync(claudeJson).mode & 0o777, 0o600);
    assert.ok(!fs.existsSync(path.join(dir, '.mcp.json')), 'the project file is not touched');
    assert.strictEqual(connect('claude-code', dir, CLI, { user: true, home }).change, 'unchanged');
    assert.strictEqual(disconnect('claude-code', dir, { user: true, home }).change, 'removed');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(claudeJson, 'utf8')), state);

    const r = connect('cursor', dir, CLI, { user: true, home });
    assert.deepStrictEqual([r.change, r.file], ['created', path.join(home, '.cursor', 'mcp.json')]);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(r.file, 'utf8')), { mcpServers: { engram: { command: 'node', args: [CLI, 'mcp', '--folder', '${workspaceFolder}'] } } });
    assert.strictEqual(disconnect('cursor', dir, { user: true, home }).change, 'deleted-file');
    assert.ok(fs.existsSync(path.join(home, '.cursor')), "Cursor's own folder is never removed");
    assert.throws(() => connect('vscode', dir, CLI, { user: true, home }), /VS Code needs no user-level entry/);
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
    assert.match(bad.stderr, /claude-code, codex, cursor, vscode/);
    fs.writeFileSync(path.join(dir, '.mcp.json'), '{oops');
    const broken = run('connect', 'claude-code');
    assert.strictEqual(broken.status, 1);
    assert.match(broken.stderr, /not plain JSON/);
    // Codex under a temp HOME: the TOML entry is printed as written; --hooks is Claude Code's only.
    const env = { ...process.env, ENGRAM_STORE_DIR: '', HOME: path.join(dir, 'home'), CODEX_HOME: '' };
    const codex = spawnSync(process.execPath, [cli, 'connect', 'codex'], { cwd: dir, encoding: 'utf8', env });
    assert.strictEqual(codex.status, 0, codex.stderr);
    assert.match(codex.stdout, /codex: created .*\.codex\/config\.toml with\n {2}\[mcp_servers\.engram\]\n {2}command = "node"/);
    const wrong = spawnSync(process.execPath, [cli, 'connect', 'cursor', '--hooks'], { cwd: dir, encoding: 'utf8', env });
    assert.strictEqual(wrong.status, 2);
    assert.ok(!fs.existsSync(path.join(dir, '.cursor')), 'nothing is written when the options are wrong');
  });
  it('keeps what the user added to our entry: env in .mcp.json, cwd/startup_timeout_sec/enabled in Codex (issue 18)', () => {
    const mine = { command: 'old-node', args: ['x'], env: { NODE_OPTIONS: '--max-old-space-size=4096' }, type: 'stdio' };
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { engram: mine } }, null, 2) + '\n');
    assert.strictEqual(connect('claude-code', dir, CLI).change, 'updated');
    assert.deepStrictEqual(read('.mcp.json').mcpServers.engram, { command: 'node', args: [CLI, 'mcp'], env: mine.env, type: 'stdio' });
    assert.strictEqual(connect('claude-code', dir, CLI).change, 'unchanged');
  });

  it('writes through a symlinked config, which stays a link (issue 18)', () => {
    const home = path.join(dir, 'home');
    const dotfiles = path.join(dir, 'dotfiles');
    fs.mkdirSync(home);
    fs.mkdirSync(dotfiles);
    const real = path.join(dotfiles, 'claude.json');
    const original = JSON.stringify({ numStartups: 3 }, null, 2) + '\n';
    fs.writeFileSync(real, original, { mode: 0o600 });
    fs.symlinkSync(real, path.join(home, '.claude.json'));
    assert.strictEqual(connect('claude-code', dir, CLI, { user: true, home }).change, 'added');
    assert.ok(fs.lstatSync(path.join(home, '.claude.json')).isSymbolicLink(), 'the link was replaced by a file');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(real, 'utf8')).mcpServers.engram, { command: 'node', args: [CLI, 'mcp'] });
    assert.strictEqual(fs.statSync(real).mode & 0o777, 0o600);
    assert.strictEqual(disconnect('claude-code', dir, { user: true, home }).change, 'removed');
    assert.ok(fs.lstatSync(path.join(home, '.claude.json')).isSymbolicLink());
    assert.strictEqual(fs.readFileSync(real, 'utf8'), original);
  });

  it('disconnect gives the file back byte for byte: indentation, no final newline, a servers key it never had (issue 18)', function () {
    const cases = [
      '{\n    "mcpServers": {\n        "other": {\n            "command": "x"\n        }\n    }\n}',
      '{\n  "numStartups": 12,\n  "projects": {}\n}\n',
      '{\n\t"servers": {\n\t\t"a": {"type": "stdio", "command": "a"}\n\t},\n\t"inputs": []\n}\r\n',
    ];
    for (const [i, text] of cases.entries()) {
      const client = text.includes('"servers"') ? 'vscode' : 'claude-code';
      const file = client === 'vscode' ? path.join(dir, '.vscode', 'mcp.json') : path.join(dir, '.mcp.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      assert.ok(['added', 'updated'].includes(connect(client, dir, CLI).change), `case ${i}`);
      assert.ok(JSON.parse(fs.readFileSync(file, 'utf8')));
      assert.strictEqual(disconnect(client, dir).change, 'removed', `case ${i}`);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), text, `case ${i}`);
      fs.rmSync(file);
    }
    if (!haveTomllib) return;
    const home = path.join(dir, 'home');
    const file = path.join(home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const noFinalNewline = 'model = "gpt-5"\n\n[mcp_servers.other]\ncommand = "x"';
    fs.writeFileSync(file, noFinalNewline);
    assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'added');
    assert.deepStrictEqual(Object.keys((toml(file) as { mcp_servers: object }).mcp_servers), ['other', 'engram']);
    assert.strictEqual(disconnect('codex', dir, { home, env: {} }).change, 'removed');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), noFinalNewline);
  });

  it('refuses an invalid file untouched: a duplicate TOML table, a duplicate JSON key (issue 18)', () => {
    const home = path.join(dir, 'home');
    const file = path.join(home, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const dupTable = '[mcp_servers.other]\ncommand = "x"\n\n[mcp_servers.other]\ncommand = "y"\n';
    fs.writeFileSync(file, dupTable);
    assert.throws(() => connect('codex', dir, CLI, { home, env: {} }), /not valid TOML.*left untouched/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), dupTable);
    const dupKey = '{ "mcpServers": { "a": { "command": "x" }, "a": { "command": "y" } } }\n';
    fs.writeFileSync(path.join(dir, '.mcp.json'), dupKey);
    assert.throws(() => connect('claude-code', dir, CLI), /"mcpServers\.a" twice.*left untouched/);
    assert.throws(() => disconnect('claude-code', dir), /twice/);
    assert.strictEqual(fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8'), dupKey);
  });

  describe('--server URL: the team server\'s MCP over HTTP, the token never written', () => {
    const URL_ = 'https://engram.example.com:7077';
    it('claude-code, cursor: the documented http entries with the token from ENGRAM_TOKEN; repeat runs change nothing', () => {
      assert.strictEqual(connect('claude-code', dir, CLI, { server: URL_ }).change, 'created');
      assert.deepStrictEqual(read('.mcp.json'), { mcpServers: { engram: { type: 'http', url: `${URL_}/mcp`, headers: { Authorization: 'Bearer ${ENGRAM_TOKEN}' } } } });
      assert.strictEqual(connect('claude-code', dir, CLI, { server: `${URL_}/mcp/` }).change, 'unchanged', 'a URL given with /mcp is the same entry');
      assert.strictEqual(connect('cursor', dir, CLI, { server: URL_ }).change, 'created');
      assert.deepStrictEqual(read('.cursor/mcp.json'), { mcpServers: { engram: { url: `${URL_}/mcp`, headers: { Authorization: 'Bearer ${env:ENGRAM_TOKEN}' } } } });
      assert.strictEqual(disconnect('cursor', dir).change, 'deleted-file');
      assert.throws(() => connect('cursor', dir, CLI, { server: 'https://u:p@engram.example.com' }), /never in the URL/);
      assert.throws(() => connect('cursor', dir, CLI, { server: 'ftp://x' }), /http/);
    });

    it('switching kinds swaps only our keys: the user\'s keys and headers stay, and back to stdio gives the entry back', () => {
      const text = '{\n  "mcpServers": {\n    "engram": {\n      "command": "node",\n      "args": ["/old/cli.js", "mcp"],\n      "env": {"A": "1"},\n      "timeout": 30\n    }\n  }\n}\n';
      fs.writeFileSync(path.join(dir, '.mcp.json'), text);
      assert.strictEqual(connect('claude-code', dir, CLI, { server: URL_ }).change, 'updated');
      assert.deepStrictEqual(read('.mcp.json').mcpServers.engram, { env: { A: '1' }, timeout: 30, type: 'http', url: `${URL_}/mcp`, headers: { Authorization: 'Bearer ${ENGRAM_TOKEN}' } });
      // A header of the user's in our entry stays when the URL changes and when the entry goes back to stdio.
      const withHeader = fs.readFileSync(path.join(dir, '.mcp.json'), 'utf8').replace('"Authorization"', '"X-Proxy": "p",\n        "Authorization"');
      fs.writeFileSync(path.join(dir, '.mcp.json'), withHeader);
      assert.strictEqual(connect('claude-code', dir, CLI, { server: 'http://127.0.0.1:7077' }).change, 'updated');
      assert.deepStrictEqual(read('.mcp.json').mcpServers.engram.headers, { 'X-Proxy': 'p', Authorization: 'Bearer ${ENGRAM_TOKEN}' });
      assert.strictEqual(connect('claude-code', dir, CLI).change, 'updated');
      assert.deepStrictEqual(read('.mcp.json').mcpServers.engram, { env: { A: '1' }, timeout: 30, headers: { 'X-Proxy': 'p' }, command: 'node', args: [CLI, 'mcp'] });
    });

    it('vscode: type http with a password input VS Code asks for once; the user\'s inputs stay, disconnect gives the file back', () => {
      fs.mkdirSync(path.join(dir, '.vscode'));
      const text = '{\n\t"inputs": [\n\t\t{"id": "k", "type": "promptString"}\n\t],\n\t"servers": {\n\t\t"a": {"type": "stdio", "command": "a"}\n\t}\n}\n';
      fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), text);
      assert.strictEqual(connect('vscode', dir, CLI, { server: URL_ }).change, 'added');
      const c = read('.vscode/mcp.json');
      assert.deepStrictEqual(c.servers.engram, { type: 'http', url: `${URL_}/mcp`, headers: { Authorization: 'Bearer ${input:engram-token}' } });
      assert.deepStrictEqual(c.inputs, [{ id: 'k', type: 'promptString' }, { type: 'promptString', id: 'engram-token', description: 'Engram team server token (engram serve token create)', password: true }]);
      assert.strictEqual(connect('vscode', dir, CLI, { server: URL_ }).change, 'unchanged', 'the input is not added twice');
      assert.strictEqual(disconnect('vscode', dir).change, 'removed');
      assert.strictEqual(fs.readFileSync(path.join(dir, '.vscode/mcp.json'), 'utf8'), text);
      // A file we created goes whole, input list included.
      fs.rmSync(path.join(dir, '.vscode'), { recursive: true });
      assert.strictEqual(connect('vscode', dir, CLI, { server: URL_ }).change, 'created');
      assert.strictEqual(disconnect('vscode', dir).change, 'deleted-file');
    });

    it('codex: url and bearer_token_env_var; command and args go, the user\'s keys stay, and back again', function () {
      if (!haveTomllib) this.skip();
      const home = path.join(dir, 'home');
      const file = path.join(home, '.codex', 'config.toml');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `# mine\n[mcp_servers.engram]\ncommand = "node"\nargs = ["${CLI}", "mcp"]\nstartup_timeout_sec = 30\n`);
      assert.strictEqual(connect('codex', dir, CLI, { home, env: {}, server: URL_ }).change, 'updated');
      assert.strictEqual(fs.readFileSync(file, 'utf8'), `# mine\n[mcp_servers.engram]\nurl = "${URL_}/mcp"\nbearer_token_env_var = "ENGRAM_TOKEN"\nstartup_timeout_sec = 30\n`);
      assert.deepStrictEqual(toml(file), { mcp_servers: { engram: { url: `${URL_}/mcp`, bearer_token_env_var: 'ENGRAM_TOKEN', startup_timeout_sec: 30 } } });
      assert.strictEqual(connect('codex', dir, CLI, { home, env: {}, server: URL_ }).change, 'unchanged');
      assert.strictEqual(connect('codex', dir, CLI, { home, env: {} }).change, 'updated');
      assert.deepStrictEqual(toml(file), { mcp_servers: { engram: { command: 'node', args: [CLI, 'mcp'], startup_timeout_sec: 30 } } });
    });
  });
});
