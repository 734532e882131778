// The extension against a running `engram serve` (the embedded database, started here as its own process
// from dist/cli.js): sign in with a token (kept in SecretStorage), a memory written to the server reaches
// the window's store as a team memory and its recall; Share with Team sends a masked copy to the server
// instead of the team file; a memory forgotten on the server leaves the window; with the server stopped the
// window says it is offline and recalls from its copy; started again, it catches up; sign out forgets the token.
import * as assert from 'assert';
import { execFile, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { EngramTestAccess } from '../../src/vscode/api';
import { tokenKey } from '../../src/vscode/teamServer';
import { stopServe, whenListening, type ServeProcess } from '../unit/serveProcess';
import { engram, seedLesson, token, waitFor, workspaceRoot } from './surfaceHelpers';

const repo = path.resolve(__dirname, '../../..');
const cli = path.join(repo, 'dist', 'cli.js');

type Server = ServeProcess;

function serve(dataDir: string, port: number): Promise<Server> {
  const child = spawn(process.execPath, [cli, 'serve', '--data', dataDir, '--port', String(port), '--rate', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return whenListening(child);
}

const stop = stopServe;

async function call(url: string, tok: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url + route, {
    method, headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

suite('Team server client (extension host against engram serve)', function () {
  this.timeout(400_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-team-it-'));
  let server: Server | undefined;
  let url = '';
  let adminToken = '';
  let api: EngramTestAccess;

  suiteSetup(async () => {
    api = await engram();
    // Not spawnSync: the extension host must keep answering while PGlite starts in the child.
    const stdout = await new Promise<string>((resolve, reject) => execFile(process.execPath, [cli, 'serve', 'token', 'create', '--data', dataDir, '--tenant', 'team_it', '--principal', 'ana', '--role', 'admin'],
      { encoding: 'utf8', timeout: 150_000 }, (e, out, err) => (e ? reject(new Error(`${e.message}\n${err}`)) : resolve(out))));
    adminToken = stdout.trimEnd().split('\n').pop()!;
    server = await serve(dataDir, 0);
    url = server.url;
  });

  suiteTeardown(async () => {
    await stop(server);
    await vscode.workspace.getConfiguration('engram').update('team.server', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('signs in, mirrors team memories, shares through the server, works offline and catches up', async () => {
    const word = token('TEAMSRV');
    const first = await call(url, adminToken, 'POST', '/v1/memories', {
      kind: 'lesson', errorText: `Error: ${word} cache directory is not writable`, rootCause: `the ${word} cache lives under /var and CI runs as a user`, fixApproach: `Set ${word}_CACHE to a folder under the workspace`,
    });
    assert.strictEqual(first.status, 201, JSON.stringify(first.body));
    const firstId = first.body.id as string;

    // Sign in: the token is checked, kept under the server's origin, and the setting points at the server.
    await vscode.commands.executeCommand('engram.team.signIn', { url, token: adminToken });
    assert.strictEqual(await api.services.context.secrets.get(tokenKey(url)), adminToken);
    assert.strictEqual(vscode.workspace.getConfiguration('engram').get('team.server'), url);
    const team = api.team!;
    await waitFor('the feed online', () => team.state.kind === 'online' || undefined, 60_000);

    const store = await api.services.store();
    const mirrored = await waitFor('the server memory in the window store', () => store.get(firstId), 60_000);
    assert.strictEqual(mirrored.owner.scope, 'team');
    const recalled = await api.services.recall({ text: `Error: ${word} cache directory is not writable`, k: 5 });
    assert.ok(recalled.some(r => r.memory.id === firstId), `recall finds the team memory: ${recalled.map(r => r.memory.id).join(', ')}`);

    // Share with Team goes to the server, not to the team file.
    const teamFile = vscode.Uri.joinPath(workspaceRoot(), '.engram', 'team.jsonl');
    const before = await vscode.workspace.fs.readFile(teamFile).then(b => Buffer.from(b).toString('utf8'), () => '');
    const local = await seedLesson(api, { errorText: `TypeError: ${word}Client is not a constructor`, rootCause: `${word}Client is a default export`, fixApproach: `import ${word}Client from the package default` });
    await vscode.commands.executeCommand('engram.shareWithTeam', local.id);
    const got = await call(url, adminToken, 'GET', `/v1/memories/${encodeURIComponent(local.id)}`);
    assert.strictEqual(got.status, 200, JSON.stringify(got.body));
    assert.strictEqual(got.body.visibility, 'team');
    const after = await vscode.workspace.fs.readFile(teamFile).then(b => Buffer.from(b).toString('utf8'), () => '');
    assert.strictEqual(after, before, 'the team file is untouched while a team server is set');

    // Forgotten on the server: the window's copy goes too.
    const del = await call(url, adminToken, 'DELETE', `/v1/memories/${encodeURIComponent(firstId)}`);
    assert.strictEqual(del.status, 200);
    await waitFor('the forgotten memory gone from the window', () => (store.get(firstId) ? undefined : true), 60_000);

    // Offline: a second memory is mirrored, then the server stops; the window says so and recalls from its copy.
    const second = await call(url, adminToken, 'POST', '/v1/memories', {
      kind: 'lesson', errorText: `Error: ${word} lockfile is out of date`, rootCause: `package-lock.json was written by another ${word} version`, fixApproach: 'Ran npm install with the pinned npm and committed the lockfile',
    });
    const secondId = second.body.id as string;
    await waitFor('the second memory mirrored', () => store.get(secondId), 60_000);
    const port = new URL(url).port;
    await stop(server);
    await waitFor('the feed offline', () => team.state.kind === 'offline' || undefined, 60_000);
    const offline = await api.services.recall({ text: `Error: ${word} lockfile is out of date`, k: 5 });
    assert.ok(offline.some(r => r.memory.id === secondId), 'recall works from the local copy while the server is down');

    // Back (same folder, same port): the feed catches up with what was written meanwhile.
    server = await serve(dataDir, Number(port));
    const third = await call(url, adminToken, 'POST', '/v1/memories', { kind: 'fact', content: `The ${word} staging database is reset every Monday` });
    await vscode.commands.executeCommand('engram.team.retry');
    await waitFor('the feed online again', () => team.state.kind === 'online' || undefined, 90_000);
    await waitFor('the memory written while offline mirrored', () => store.get(third.body.id as string), 60_000);

    // Sign out: the token is forgotten, the copy stays for recall.
    await vscode.commands.executeCommand('engram.team.signOut');
    assert.strictEqual(await api.services.context.secrets.get(tokenKey(url)), undefined);
    await waitFor('the feed signed out', () => team.state.kind === 'signedOut' || undefined, 10_000);
    assert.ok(store.get(secondId), 'the local copy stays after sign-out');
  });
});
