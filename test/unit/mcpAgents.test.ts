// What outside MCP clients found (issue 18), each through the real CLI bundle spawned as a stdio server
// and driven by the SDK's own Client (or raw JSON-RPC where the transport's timing is the point): a server
// started in a project's subfolder, long tool output as the query, stdin closing mid-recall, a store that
// does not open, and the one recall schema every surface lists. Tool output is the real corpus's.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RECALL_INPUT_SCHEMA } from '../../src/core/schemaToolInput';
import { buildCli, repoRoot } from './buildCli';

type ToolText = { content: { type: string; text?: string }[]; isError?: boolean };
const textOf = (r: unknown) => (r as ToolText).content.map(c => c.text ?? '').join('\n');

type Ev = { type: string; command?: string; exitCode?: number; output?: string };
const traceDir = () => path.join(repoRoot(), 'test/fixtures/traces');
const traceEvents = (name: string) => fs.readFileSync(path.join(traceDir(), name), 'utf8').trim().split('\n').map(l => JSON.parse(l) as Ev);
/** The real jest run that failed (test/fixtures/traces/jest-cart-total-tax.jsonl). */
const jestFailure = () => traceEvents('jest-cart-total-tax.jsonl').find(e => e.type === 'command' && e.exitCode === 1)!.output!;
/** A long terminal session: every command output of the corpus in order, `times` over, then the jest failure. */
function longLog(times: number): string {
  const outs = fs.readdirSync(traceDir()).filter(f => f.endsWith('.jsonl')).sort()
    .flatMap(f => traceEvents(f).filter(e => e.type === 'command' && e.output).map(e => `$ ${e.command}\n${e.output}`));
  return [...Array(times)].flatMap(() => outs).join('\n') + '\n$ npm test\n' + jestFailure();
}

interface Served { client: Client; stderr: () => string; close(): Promise<void> }

async function serve(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Served> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, ...args, 'mcp'], cwd, env: env as Record<string, string>, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
  const client = new Client({ name: 'engram-agents-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

function importLines(cli: string, store: string, lines: object[]): void {
  const file = path.join(os.tmpdir(), `engram-agents-in-${process.pid}-${Date.now()}.jsonl`);
  fs.writeFileSync(file, lines.map(l => JSON.stringify(l)).join('\n') + '\n');
  try {
    const r = spawnSync(process.execPath, [cli, '--store', store, 'import', file], { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
  } finally { fs.rmSync(file, { force: true }); }
}

describe('engram mcp as outside clients run it (issue 18)', function () {
  this.timeout(120_000);
  let cli = '';
  let tmp: string;
  before(async () => { cli = await buildCli('engram-mcp-agents-'); });
  beforeEach(() => { tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'engram-mcp-agents-'))); });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('started in a subfolder, it takes the project root: a file relative to the agent matches the scope, and nothing valid is quarantined', async () => {
    const proj = path.join(tmp, 'proj');
    const web = path.join(proj, 'packages', 'web');
    fs.mkdirSync(path.join(web, 'src'), { recursive: true });
    fs.mkdirSync(path.join(proj, '.git'));
    fs.writeFileSync(path.join(web, 'package.json'), '{"name":"web"}\n');
    fs.writeFileSync(path.join(web, 'src', 'app.ts'), 'export const port: number = Number(process.env.PORT);\n');
    const store = path.join(tmp, 'store');
    const error = "src/app.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.";
    importLines(cli, store, [{ kind: 'lesson', id: 'web-1', errorSignature: error, errorText: error, rootCause: 'process.env values are strings', fixApproach: 'wrap the value in Number()', scope: ['packages/web/**'] }]);
    const s = await serve(cli, ['--store', store], web);
    try {
      const text = textOf(await s.client.callTool({ name: 'recall', arguments: { query: error, file: 'src/app.ts' } }));
      assert.match(text, /id=web-1/, `${text}\n${s.stderr()}`);
      const abs = textOf(await s.client.callTool({ name: 'recall', arguments: { query: error, file: path.join(web, 'src', 'app.ts') } }));
      assert.match(abs, /id=web-1/);
    } finally { await s.close(); }
    const shown = JSON.parse(spawnSync(process.execPath, [cli, '--store', store, 'show', 'web-1', '--json'], { encoding: 'utf8' }).stdout) as { quarantined?: unknown };
    assert.strictEqual(shown.quarantined, undefined, 'a valid memory was quarantined');
    const where = JSON.parse(spawnSync(process.execPath, [cli, '--store', store, 'where', '--json'], { cwd: web, encoding: 'utf8' }).stdout) as { folder: string };
    assert.strictEqual(where.folder, proj, 'where names the root the server uses');
  });

  it('with no root marker anywhere it quarantines nothing (the check would run against a guess)', async () => {
    const loose = path.join(tmp, 'loose', 'deep');
    fs.mkdirSync(loose, { recursive: true });
    const store = path.join(tmp, 'store');
    const error = "Error: Cannot find module './legacy/config'";
    importLines(cli, store, [{ kind: 'lesson', id: 'gone-1', errorSignature: error, rootCause: 'src/legacy/config.ts was renamed', fixApproach: 'import from src/legacy/config.ts', scope: ['src/legacy/**'] }]);
    // HOME is the temp folder so no dotfiles repository above counts.
    const s = await serve(cli, ['--store', store], loose, { ...process.env, HOME: tmp });
    try {
      assert.match(textOf(await s.client.callTool({ name: 'recall', arguments: { query: error, all: true } })), /id=gone-1/);
    } finally { await s.close(); }
    const shown = JSON.parse(spawnSync(process.execPath, [cli, '--store', store, 'show', 'gone-1', '--json'], { encoding: 'utf8' }).stdout) as { quarantined?: unknown };
    assert.strictEqual(shown.quarantined, undefined);
  });

  it('long tool output is trimmed to its head and tail, not refused, and still finds the lesson', async () => {
    const store = path.join(tmp, 'store');
    const failure = jestFailure();
    const key = failure.split('\n').find(l => l.includes('●'))!.trim();
    // The files the lesson names exist (the stale guard leaves out memories about code that is gone).
    fs.mkdirSync(path.join(tmp, 'src'));
    for (const f of ['cart.js', 'cart.test.js']) fs.writeFileSync(path.join(tmp, 'src', f), '\n');
    importLines(cli, store, [{ kind: 'lesson', id: 'jest-1', errorSignature: failure, errorText: failure, rootCause: 'total() ignored the tax rate', fixApproach: 'multiply the subtotal by 1.2 in src/cart.js' }]);
    const s = await serve(cli, ['--store', store, '--folder', tmp], tmp);
    try {
      const long = longLog(2);
      assert.ok(long.length > 18_500, `a long log (${long.length} chars)`);
      // all: the agent is digging on purpose (whether the gate lets it through unasked is defect 8's test).
      const r = await s.client.callTool({ name: 'recall', arguments: { query: long, all: true } });
      assert.ok(!(r as ToolText).isError, textOf(r));
      assert.match(textOf(r), /id=jest-1/, key);
      const huge = longLog(8);
      const t = await s.client.callTool({ name: 'recall', arguments: { query: huge, all: true } });
      assert.ok(!(t as ToolText).isError, textOf(t));
      assert.match(textOf(t), /its start and end were used/);
      assert.match(textOf(t), /id=jest-1/);
    } finally { await s.close(); }
  });

  it('answers a recall in flight when stdin closes, then exits 0 with the store closed cleanly', async () => {
    const store = path.join(tmp, 'store');
    fs.mkdirSync(path.join(tmp, 'src', 'legacy'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'src', 'legacy', 'config.ts'), 'export {};\n');
    const lines = [...Array(300)].map((_, i) => ({ kind: 'lesson', id: `l-${i}`, errorSignature: `Error: Cannot find module './legacy/config${i}'`, rootCause: `src/legacy/config${i}.ts was renamed`, fixApproach: 'import from src/legacy/config.ts', scope: ['src/legacy/**'] }));
    importLines(cli, store, lines);
    const child = spawn(process.execPath, [cli, '--store', store, 'mcp', '--folder', tmp], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', d => { out += d; });
    child.stderr.on('data', d => { err += d; });
    const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
    // Everything in one write, then stdin closes: the recall is still running when the end arrives.
    child.stdin.end([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'recall', arguments: { query: "Error: Cannot find module './legacy/config7'", all: true, k: 10 } } },
    ].map(m => JSON.stringify(m) + '\n').join(''));
    assert.strictEqual(await exited, 0, err);
    const answers = out.split('\n').filter(Boolean).map(l => JSON.parse(l) as { id?: number; result?: ToolText });
    const recall = answers.find(a => a.id === 2);
    assert.ok(recall?.result, `no answer to the recall:\n${out}\n${err}`);
    assert.match(textOf(recall.result), /id=l-7/);
    assert.doesNotMatch(err, /store is closed/);
  });

  it('answers initialize without waiting for the store: a store that cannot open is each call\'s readable error', async () => {
    const notADir = path.join(tmp, 'store-file');
    fs.writeFileSync(notADir, 'not a store\n');
    const s = await serve(cli, ['--store', notADir, '--folder', tmp], tmp);
    try {
      assert.strictEqual((await s.client.listTools()).tools.length, 5);
      const r = await s.client.callTool({ name: 'recall', arguments: { query: 'anything' } });
      assert.strictEqual((r as ToolText).isError, true);
      assert.ok(textOf(r).length > 0);
    } finally { await s.close(); }
  });

  it('lists recall with the one schema Copilot\'s engram_recall declares (package.json)', async () => {
    const s = await serve(cli, ['--store', path.join(tmp, 'store'), '--folder', tmp], tmp);
    try {
      const recall = (await s.client.listTools()).tools.find(t => t.name === 'recall')!;
      const listed = { ...recall.inputSchema } as Record<string, unknown>;
      delete listed.$schema;
      delete listed.additionalProperties;
      const strip = (p: Record<string, unknown>) => JSON.parse(JSON.stringify(p)) as unknown;
      assert.deepStrictEqual(strip(listed), strip(RECALL_INPUT_SCHEMA));
    } finally { await s.close(); }
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; inputSchema: unknown }[] } };
    const copilot = manifest.contributes.languageModelTools.find(t => t.name === 'engram_recall')!;
    assert.deepStrictEqual(copilot.inputSchema, JSON.parse(JSON.stringify(RECALL_INPUT_SCHEMA)));
  });
});
