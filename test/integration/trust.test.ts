// Trust and lifecycle in a real VS Code: a constraint warns where its check matches inside its scope and
// nowhere else; deleting a file a memory names quarantines the memory; forgetting a memory removes it
// from recall, the vector index and the generated instructions file.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Episode, Lesson } from '../../src/core/types';
import { engram, seedLesson, token, waitFor, workspaceRoot, writeFile } from './surfaceHelpers';

const INSTRUCTIONS = '.github/instructions/engram.instructions.md';

function engramDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter(d => d.source === 'Engram');
}

async function open(rel: string, content: string): Promise<vscode.Uri> {
  const uri = await writeFile(rel, content);
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  return uri;
}

/** Concatenated text of the store's vector index files (ids are stored there). */
function indexText(storeDir: string): string {
  const dir = path.join(storeDir, 'index');
  let out = '';
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isFile()) out += fs.readFileSync(p, 'utf8');
  }
  return out;
}

// The machine may be shared with other runs: generous limits, since timing is not what these tests check.
suite('Trust and lifecycle', function () {
  this.timeout(240_000);
  test('a constraint warns in matching files inside its scope, with an Open memory fix, and nowhere else', async () => {
    const api = await engram();
    const forbidden = token('legacyFetch');
    const cause = token('CAUSE');
    const lesson = await seedLesson(api, {
      errorText: `TypeError: ${forbidden} is not a function`,
      rootCause: `${cause} the legacy client was removed from the web bundle`,
      fixApproach: 'call the typed http client instead',
      scope: ['packages/web/**'],
    });
    const store = await api.services.store();
    await vscode.commands.executeCommand('engram.promote', lesson.id);
    await vscode.commands.executeCommand('engram.promote', lesson.id);
    assert.strictEqual(store.get(lesson.id)?.maturity, 'rule', 'two user promotions: observation → pattern → rule');
    await vscode.commands.executeCommand('engram.makeConstraint', lesson.id, { glob: '**/*.ts', pattern: `${forbidden}\\(` });
    const saved = store.get(lesson.id);
    assert.strictEqual(saved?.maturity, 'constraint');
    assert.deepStrictEqual(saved?.kind === 'lesson' && saved.check, { glob: '**/*.ts', pattern: `${forbidden}\\(` });

    const inScope = await open(`packages/web/src/${forbidden}.ts`, `export function f(x: any) {\n  return x.${forbidden}(1);\n}\n`);
    const otherPackage = await open(`packages/api/src/${forbidden}.ts`, `export function f(x: any) {\n  return x.${forbidden}(1);\n}\n`);
    const otherGlob = await open(`packages/web/src/${forbidden}.js`, `module.exports = x => x.${forbidden}(1);\n`);
    const cleanFile = await open(`packages/web/src/${forbidden}_clean.ts`, `export const ok = 1;\n`);

    const [d] = await waitFor('an Engram constraint warning', () => { const ds = engramDiagnostics(inScope); return ds.length ? ds : undefined; }, 90_000);
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.strictEqual(d.range.start.line, 1, 'the warning sits on the matching line');
    assert.match(d.message, /^Engram constraint: call the typed http client instead \(/);
    assert.ok(d.message.includes(cause), d.message);
    assert.strictEqual(typeof d.code === 'object' ? String(d.code.value) : d.code, lesson.id);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', inScope, d.range);
    const openAction = actions?.find(a => a.title === 'Open memory');
    assert.ok(openAction, `no Open memory quick fix among ${actions?.map(a => a.title).join(', ')}`);
    assert.strictEqual(openAction.command?.command, 'engram.openMemory');
    assert.deepStrictEqual(openAction.command?.arguments, [lesson.id]);

    // The other documents must have been checked, at their current text, against this constraint:
    // only then does "no warning" mean the scope and the glob kept it out.
    const checks = api.constraints;
    assert.ok(checks, 'constraint checks did not start');
    for (const uri of [otherPackage, otherGlob, cleanFile]) {
      const doc = await vscode.workspace.openTextDocument(uri);
      await waitFor(`${vscode.workspace.asRelativePath(uri)} to be checked against the constraint`, () => {
        const last = checks.lastCheck(uri);
        return (last && last.version === doc.version && last.constraintIds.includes(lesson.id)) || undefined;
      }, 90_000);
    }
    assert.deepStrictEqual(engramDiagnostics(otherPackage), [], 'warned outside the memory\'s scope (packages/api)');
    assert.deepStrictEqual(engramDiagnostics(otherGlob), [], 'warned outside the check\'s glob (*.js)');
    assert.deepStrictEqual(engramDiagnostics(cleanFile), [], 'warned in a file without a match');

    // Editing the match away clears the warning.
    const doc = await vscode.workspace.openTextDocument(inScope);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(inScope, new vscode.Range(0, 0, doc.lineCount, 0), 'export const fixed = 1;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('the warning to clear after the fix', () => engramDiagnostics(inScope).length === 0 || undefined, 90_000);

    // Demoting the constraint removes the gate everywhere.
    await vscode.commands.executeCommand('engram.demote', lesson.id);
    assert.strictEqual(store.get(lesson.id)?.maturity, 'rule');
  });

  test('deleting a file a memory names quarantines the memory and recall stops showing it', async () => {
    const api = await engram();
    const dir = token('stale');
    const rel = `src/${dir}/routes.ts`;
    const cause = token('ROUTECAUSE');
    await writeFile(rel, 'export const routes = [];\n');
    const lesson = await seedLesson(api, {
      errorText: `Error: route ${cause} not registered`,
      rootCause: `${cause}: routes are declared in ${rel} and must be exported`,
      fixApproach: `export the route from ${rel}`,
    });
    const store = await api.services.store();
    const before = await api.services.recall({ text: `route ${cause} not registered` });
    assert.ok(before.some(r => r.memory.id === lesson.id), 'the memory is recalled while its file exists');

    // Deleted the way the explorer does it (a workspace edit), which tells extensions what was deleted.
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.joinPath(workspaceRoot(), 'src', dir), { recursive: true });
    assert.ok(await vscode.workspace.applyEdit(edit), 'the folder could not be deleted');
    const q = await waitFor('the memory to be quarantined', () => store.get(lesson.id)?.quarantined, 90_000);
    assert.strictEqual(q.reason, `${rel} no longer exists`);
    const after = await api.services.recall({ text: `route ${cause} not registered` });
    assert.ok(!after.some(r => r.memory.id === lesson.id), 'a quarantined memory was still recalled');

    // Restoring is the user's call, and it sticks.
    await vscode.commands.executeCommand('engram.restoreMemory', lesson.id);
    assert.strictEqual(store.get(lesson.id)?.quarantined, undefined);
  });

  test('forgetting a memory removes it from recall, export, the on-disk index and the instructions file', async () => {
    const api = await engram();
    const cause = token('FORGETME');
    const lesson = await seedLesson(api, {
      errorText: `Error: ${cause} handshake failed`,
      rootCause: `${cause} the proxy strips the upgrade header`,
      fixApproach: 'set proxy_set_header Upgrade in the nginx config',
    }, { maturity: 'rule', confidence: { alpha: 9, beta: 1 } });
    assert.strictEqual(lesson.maturity, 'rule');
    const store = await api.services.store();
    const instructions = vscode.Uri.joinPath(workspaceRoot(), INSTRUCTIONS);
    const read = async () => { try { return Buffer.from(await vscode.workspace.fs.readFile(instructions)).toString('utf8'); } catch { return ''; } };

    await vscode.workspace.getConfiguration('engram').update('instructions.enabled', true, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor('the rule in the instructions file', async () => (await read()).includes(cause) || undefined, 90_000);
      const recalled = await api.services.recall({ text: `${cause} handshake failed` });
      assert.ok(recalled.some(r => r.memory.id === lesson.id));

      await vscode.commands.executeCommand('engram.forget', lesson.id, { confirm: false });
      assert.strictEqual(store.get(lesson.id), undefined);
      const gone = await api.services.recall({ text: `${cause} handshake failed` });
      assert.ok(!gone.some(r => r.memory.id === lesson.id), 'a forgotten memory was recalled');
      assert.ok(!store.exportLines().some(l => l.includes(cause)), 'a forgotten memory was exported');
      // A model's vectors are persisted under index/ (hash vectors live in memory only): none may keep it.
      await waitFor('the memory to leave the on-disk vector index', () => !indexText(api.services.storeDir).includes(lesson.id) || undefined, 90_000);
      await waitFor('the rule to leave the instructions file', async () => !(await read()).includes(cause) || undefined, 90_000);
    } finally {
      await vscode.workspace.getConfiguration('engram').update('instructions.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});

suite('Team memory file', function () {
  this.timeout(240_000);
  test('sharing writes a masked, ownerless line; the file loads as capped team memories and follows edits', async () => {
    const api = await engram();
    const store = await api.services.store();
    const cause = token('TEAMCAUSE');
    const home = os.homedir();
    const local = await seedLesson(api, {
      errorText: `Error: ${cause} cannot open ${home}/projects/app/config.yml`,
      rootCause: `${cause} the config path was absolute`,
      fixApproach: 'resolve the config path from the workspace root',
    });
    await vscode.commands.executeCommand('engram.shareWithTeam', local.id);
    const teamUri = vscode.Uri.joinPath(workspaceRoot(), '.engram', 'team.jsonl');
    const shared = Buffer.from(await vscode.workspace.fs.readFile(teamUri)).toString('utf8');
    const line = shared.split('\n').find(l => l.includes(cause));
    assert.ok(line, `the shared line is missing from the team file:\n${shared}`);
    assert.ok(!line.includes(home), `the home directory leaked into the team file: ${line}`);
    assert.deepStrictEqual(JSON.parse(line).owner, { scope: 'team' });
    assert.strictEqual(store.get(local.id)?.owner.scope, 'workspace', 'sharing does not turn the local memory into a team one');

    // A teammate's line claims to be a constraint; it loads as a team pattern (it carries two episodes).
    const teamId = token('team_');
    const teammate = {
      id: teamId, kind: 'lesson', owner: { scope: 'workspace', principal: 'bob' }, maturity: 'constraint', confidence: { alpha: 50, beta: 1 },
      errorSignature: `Error: ${cause} lockfile out of date`, rootCause: `${cause} someone ran npm instead of pnpm`, fixApproach: 'run pnpm install',
      evidence: ['ep_a', 'ep_b'], check: { glob: '**/*.ts', pattern: 'x' }, createdAt: Date.now(), updatedAt: Date.now(),
    };
    await vscode.workspace.fs.writeFile(teamUri, Buffer.from(`${shared.trimEnd()}\n${JSON.stringify(teammate)}\nnot json at all\n`, 'utf8'));
    const loaded = await waitFor('the teammate\'s memory to load', () => store.get(teamId), 90_000);
    assert.deepStrictEqual(loaded.owner, { scope: 'team' });
    assert.strictEqual(loaded.source, 'team');
    assert.strictEqual(loaded.maturity, 'pattern', 'a team line never loads as a constraint');
    assert.deepStrictEqual(loaded.confidence, { alpha: 1, beta: 1 }, 'confidence is earned here, not claimed by the file');

    // Removing the line takes the memory out of recall (quarantined, so it can come back).
    await vscode.workspace.fs.writeFile(teamUri, Buffer.from(shared, 'utf8'));
    const q = await waitFor('the removed line\'s memory to be quarantined', () => store.get(teamId)?.quarantined, 90_000);
    assert.strictEqual(q.reason, 'no longer in the team file');
  });
});

suite('Pattern pass', function () {
  this.timeout(240_000);

  test('three episodes ending for the same reason become one pattern lesson with them as evidence', async () => {
    const api = await engram();
    const store = await api.services.store();
    const domain = token('domain');
    const cause = `${token('cause')} the dev server port was taken by a stale process`;
    const fix = 'kill the stale process on port 5173 and restart the dev server';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const now = Date.now() + i;
      const ep: Episode = {
        id: token('ep_'), kind: 'episode', owner: { scope: 'workspace', workspace: api.services.workspaceId }, createdAt: now, updatedAt: now,
        accessCount: 0, importance: 0.5, source: 'captured', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
        startedAt: now, trigger: 'Error: listen EADDRINUSE: address already in use :::5173', domain, steps: [
          { action: 'npm run dev again', result: 'same error', wasEffective: false },
          { action: fix, result: 'server started', wasEffective: true },
        ], toolsUsed: ['npm'], outcome: 'success', resolution: fix, lessonsLearned: [cause], files: ['packages/web/vite.config.ts'], sourceIds: [],
        summary: 'dev server would not start', errorSignature: 'node:EADDRINUSE:listen <id>: address already in use <n>',
      };
      ids.push((await store.record(ep)).id);
    }
    await api.runPatternPass();
    const patterns = store.list({ kinds: ['lesson'] }).filter((m): m is Lesson => m.kind === 'lesson' && m.rootCause === cause);
    assert.strictEqual(patterns.length, 1, 'one pattern lesson for the recurring cause');
    const p = patterns[0];
    assert.strictEqual(p.maturity, 'pattern');
    assert.deepStrictEqual([...p.evidence].sort(), [...ids].sort());
    assert.strictEqual(p.fixApproach.startsWith(fix), true, p.fixApproach);
    assert.match(p.fixApproach, /did not help: npm run dev again/);

    await api.runPatternPass();
    assert.strictEqual(store.list({ kinds: ['lesson'] }).filter(m => m.kind === 'lesson' && m.rootCause === cause).length, 1, 'a second pass adds nothing');
  });
});
