// `engram serve` as processes: the CLI's token command (printed once, alone on the last line), two
// servers on one PostgreSQL database seeing each other's writes (a long poll on one woken by a write on
// the other, through LISTEN/NOTIFY), a database outage (503, nothing acknowledged lost), the embedded
// folder refusing a second process, and the CLI's --server and team push.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { buildCli, repoRoot } from './buildCli';
import { stopServe, whenListening, type ServeProcess } from './serveProcess';
import { embeddedBackend, onEachDatabase, type Backend } from './serverDb';

let cli: string;
/** The CLI is built into a temp folder: its external packages (pg, PGlite) resolve from the repository. */
const ENV = { ...process.env, NODE_PATH: path.join(repoRoot(), 'node_modules') };
before(async function () {
  this.timeout(120_000);
  cli = await buildCli('engram-serve-cli-');
});

function dbArgs(b: Backend): string[] {
  const w = b.where();
  return w.database ? ['--database', w.database] : ['--data', w.dataDir!];
}

function tokenFor(b: Backend, tenant: string, principal: string, role = 'member'): string {
  const r = spawnSync(process.execPath, [cli, 'serve', 'token', 'create', '--tenant', tenant, '--principal', principal, '--role', role, ...dbArgs(b)], { encoding: 'utf8', timeout: 120_000, env: ENV });
  assert.strictEqual(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  const token = lines[lines.length - 1];
  assert.match(token, /^eng_[A-Za-z0-9_-]{43}$/, 'the token alone on the last line');
  return token;
}

type Proc = ServeProcess;

function serve(b: Backend | string[], extra: string[] = []): Promise<Proc> {
  const child = spawn(process.execPath, [cli, 'serve', ...(Array.isArray(b) ? b : dbArgs(b)), '--port', '0', '--rate', '0', ...extra], { stdio: ['ignore', 'ignore', 'pipe'], env: ENV });
  return whenListening(child);
}

const stop = stopServe;

async function post(url: string, token: string, route: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url + route, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

onEachDatabase('engram serve processes', backend => {
  it('prints a token once on its last line, serves it, and the CLI recalls through --server with ENGRAM_TOKEN', async () => {
    const token = tokenFor(backend(), 'cli-team', 'ana', 'reviewer');
    const p = await serve(backend());
    try {
      assert.match(p.stderr(), new RegExp(`database ${backend().name === 'postgres' ? 'postgres://' : 'embedded'}`));
      const env = { ...ENV, ENGRAM_TOKEN: token };
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-push-'));
      const team = path.join(dir, 'team.jsonl');
      fs.writeFileSync(team, [
        JSON.stringify({ id: 'team-1', kind: 'lesson', errorText: "ModuleNotFoundError: No module named 'requests'", rootCause: 'requests is not installed in the venv', fixApproach: 'Ran `pip install requests`' }),
        JSON.stringify({ id: 'team-2', kind: 'fact', content: 'The CI runners use Python 3.11' }),
        '{not json',
      ].join('\n') + '\n');
      const push = spawnSync(process.execPath, [cli, 'team', 'push', team, '--server', p.url, '--json'], { encoding: 'utf8', env, timeout: 60_000 });
      assert.strictEqual(push.status, 0, push.stderr);
      const summary = JSON.parse(push.stdout) as { pushed: number; errors: unknown[] };
      assert.strictEqual(summary.pushed, 2);
      assert.strictEqual(summary.errors.length, 1);
      const again = JSON.parse(spawnSync(process.execPath, [cli, 'team', 'push', team, '--server', p.url, '--json'], { encoding: 'utf8', env }).stdout) as { pushed: number; alreadyThere: number };
      assert.deepStrictEqual([again.pushed, again.alreadyThere], [0, 2], 'a second push changes nothing');
      const rec = spawnSync(process.execPath, [cli, 'recall', "ModuleNotFoundError: No module named 'requests'", '--server', p.url, '--json'], { encoding: 'utf8', env });
      assert.strictEqual(rec.status, 0, rec.stderr);
      const out = JSON.parse(rec.stdout) as { query: string; results: { id: string; kind: string; score: number; why: string[] }[] };
      assert.strictEqual(out.results[0].id, 'team-1');
      assert.ok(out.results[0].why.length > 0);
      const noToken = spawnSync(process.execPath, [cli, 'recall', 'x', '--server', p.url], { encoding: 'utf8', env: { ...ENV, ENGRAM_TOKEN: '' } });
      assert.strictEqual(noToken.status, 1);
      assert.match(noToken.stderr, /ENGRAM_TOKEN/);
      const wrong = spawnSync(process.execPath, [cli, 'recall', 'x', '--server', p.url], { encoding: 'utf8', env: { ...ENV, ENGRAM_TOKEN: 'eng_' + 'x'.repeat(43) } });
      assert.match(wrong.stderr, /401/);
    } finally {
      await stop(p);
    }
  });
});

onEachDatabase('two engram serve processes on one database', backend => {
  it('serve the same data, and a write on one wakes a long poll on the other', async () => {
    const token = tokenFor(backend(), 'pair', 'ana', 'admin');
    const [a, b] = await Promise.all([serve(backend()), serve(backend())]);
    try {
      assert.match(a.stderr(), /changes by LISTEN\/NOTIFY/);
      const head = await (await fetch(`${b.url}/v1/changes?after=0`, { headers: { authorization: `Bearer ${token}` } })).json() as { revision: number };
      const started = Date.now();
      const poll = fetch(`${b.url}/v1/changes?after=${head.revision}&wait=20`, { headers: { authorization: `Bearer ${token}` } }).then(r => r.json()) as Promise<{ memories: { memory: { id: string } }[] }>;
      await new Promise(r => setTimeout(r, 300));
      const w = await post(a.url, token, '/v1/memories', { kind: 'fact', content: 'the pair test database is shared by two servers' });
      assert.strictEqual(w.status, 201);
      const page = await poll;
      assert.deepStrictEqual(page.memories.map(m => m.memory.id), [w.body.id]);
      assert.ok(Date.now() - started < 15_000, 'woken by the notification, not by the 20 s timeout');
      const r = await post(b.url, token, '/v1/recall', { query: 'which database is shared by two servers' });
      assert.deepStrictEqual((r.body.results as { id: string }[]).map(x => x.id), [w.body.id]);
    } finally {
      await Promise.all([stop(a), stop(b)]);
    }
  });
}, 'postgres');

describe('the embedded database', function () {
  this.timeout(180_000);
  it('is served by one process: a second engram serve on the folder is refused with the reason', async () => {
    const b = embeddedBackend();
    const a = await serve(b);
    try {
      const second = spawnSync(process.execPath, [cli, 'serve', ...dbArgs(b), '--port', '0'], { encoding: 'utf8', timeout: 60_000, env: ENV });
      assert.strictEqual(second.status, 1);
      assert.match(second.stderr, /another engram serve \(pid \d+\) uses the embedded database/);
    } finally {
      await stop(a);
      await b.teardown();
    }
  });

  it('takes token commands while a server runs on it: create, list and revoke go through that server', async () => {
    const b = embeddedBackend();
    const a = await serve(b);
    try {
      const token = tokenFor(b, 'live-team', 'lee', 'member');
      assert.match(spawnSync(process.execPath, [cli, 'serve', 'token', 'list', ...dbArgs(b)], { encoding: 'utf8', env: ENV }).stdout, /live-team {2}lee {2}member/);
      // The token works at once on the running server (it went into that server's database).
      const stored = await post(a.url, token, '/v1/memories', { kind: 'fact', content: 'the live-team staging database resets on Mondays' });
      assert.strictEqual(stored.status, 201, JSON.stringify(stored.body));
      const revoke = spawnSync(process.execPath, [cli, 'serve', 'token', 'revoke', token, ...dbArgs(b)], { encoding: 'utf8', env: ENV });
      assert.strictEqual(revoke.status, 0, revoke.stderr);
      assert.match(revoke.stderr, /holds its database; asking it/);
      assert.strictEqual((await post(a.url, token, '/v1/recall', { query: 'staging database' })).status, 401);
      // The route wants the folder's key: a request without it is refused.
      const res = await fetch(`${a.url}/v1/local/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ op: 'list' }) });
      assert.strictEqual(res.status, 403);
      const control = JSON.parse(fs.readFileSync(path.join(b.where().dataDir!, 'engram-serve.json'), 'utf8')) as { key: string };
      assert.strictEqual(fs.statSync(path.join(b.where().dataDir!, 'engram-serve.json')).mode & 0o777, 0o600);
      assert.ok(control.key.length >= 40);
      await stop(a);
      assert.ok(!fs.existsSync(path.join(b.where().dataDir!, 'engram-serve.json')), 'the control file goes with the server');
    } finally {
      await stop(a);
      await b.teardown();
    }
  });
});

/** A TCP proxy in front of PostgreSQL that the test can cut and restore: the server's database outage. */
class Proxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}
  async up(): Promise<void> {
    this.server = net.createServer(c => {
      const u = net.connect(this.target.port, this.target.host);
      this.sockets.add(c); this.sockets.add(u);
      c.pipe(u); u.pipe(c);
      const end = () => { c.destroy(); u.destroy(); this.sockets.delete(c); this.sockets.delete(u); };
      c.on('error', end); u.on('error', end); c.on('close', end); u.on('close', end);
    });
    await new Promise<void>(r => this.server!.listen(this.port, '127.0.0.1', () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>(r => (this.server ? this.server.close(() => r()) : r()));
    this.server = undefined;
  }
}

onEachDatabase('a database outage', backend => {
  it('answers 503 with Retry-After and no internals while the database is away, and loses nothing acknowledged', async () => {
    const token = tokenFor(backend(), 'outage', 'ana', 'admin');
    const url = new URL(backend().where().database!);
    const proxy = new Proxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.up();
    const via = new URL(url.toString());
    via.port = String(proxy.port);
    const p = await serve(['--database', via.toString()]);
    const acknowledged: string[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const r = await post(p.url, token, '/v1/memories', { kind: 'fact', content: `outage fact number ${i} about flumbering` });
        assert.strictEqual(r.status, 201);
        acknowledged.push(r.body.id as string);
      }
      await proxy.down();
      const during = await fetch(`${p.url}/v1/memories`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'fact', content: 'written during the outage' }) });
      assert.ok(during.status === 503, `status ${during.status}`);
      assert.strictEqual(during.headers.get('retry-after'), '5');
      const text = await during.text();
      assert.ok(!/ECONN|5432|at |Error:/.test(text), text);
      assert.strictEqual((await fetch(`${p.url}/v1/health`)).status, 503);
      await proxy.up();
      let back = 0;
      for (let i = 0; i < 40 && back !== 201; i++) {
        back = (await post(p.url, token, '/v1/memories', { kind: 'fact', content: 'written after the outage about flumbering' }).catch(() => ({ status: 0 }))).status;
        if (back !== 201) await new Promise(r => setTimeout(r, 250));
      }
      assert.strictEqual(back, 201, 'the server recovers by itself once the database is back');
      const page = await (await fetch(`${p.url}/v1/changes?after=0`, { headers: { authorization: `Bearer ${token}` } })).json() as { memories: { memory: { id: string } }[] };
      const have = new Set(page.memories.map(m => m.memory.id));
      for (const id of acknowledged) assert.ok(have.has(id), `acknowledged ${id} is kept`);
    } finally {
      await stop(p);
      await proxy.down();
    }
  });
}, 'postgres');
