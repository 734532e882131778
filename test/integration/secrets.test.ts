// Secrets through every door of the real extension: a TypeScript diagnostic whose message quotes a token,
// a failing command that prints tokens in an integrated terminal, @memory /remember, engram.import, then
// engram.export, engram.shareWithTeam and the instructions file. Afterwards no byte of the storage folder,
// the export, .engram/team.jsonl or .github/instructions/*.md may hold any of them (or a piece of one).
// capture.test.ts covers secrets in captured code context; this covers the other inputs and outputs.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Episode, Lesson } from '../../src/core/types';
import type { ImportReport } from '../../src/store/memoryStore';
import { maskSecrets } from '../../src/core/mask';
import { createChatHandler } from '../../src/vscode/chat/participant';
import { SECRET_CORPUS, secretNeedles as needles } from '../fixtures/secrets';
import { engram, token, waitFor, workspaceRoot } from './surfaceHelpers';

const DIAG_FILE = 'src/secret-diagnostic.ts';
const LEAK_SCRIPT = 'scripts/secret-leak.js';

function filesUnder(p: string): string[] {
  if (!fs.existsSync(p)) return [];
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs.readdirSync(p).flatMap(n => filesUnder(path.join(p, n)));
}

/** "<secret kind> in <file>" for every needle found in any of the files. */
function leaksIn(files: string[]): string[] {
  const found = new Set<string>();
  for (const f of files) {
    const bytes = fs.readFileSync(f);
    const texts = [bytes.toString('latin1'), bytes.toString('utf8')];
    for (const s of SECRET_CORPUS) {
      for (const n of needles(s.value)) if (texts.some(t => t.includes(n))) found.add(`${s.kind} (${n.slice(0, 10)}…) in ${f}`);
    }
  }
  return [...found];
}

/**
 * What the diagnostic quotes: secrets that identify themselves (a token prefix or format, masked on their
 * own), and one-line contexts that carry their key name (DB_PASSWORD=..., sig=...). A bare random string
 * with no name and no format (a password alone) cannot be told from an identifier; see the report.
 */
const literalSafe = [
  ...SECRET_CORPUS.filter(s => maskSecrets(s.value) !== s.value).map(s => s.value),
  ...SECRET_CORPUS.filter(s => maskSecrets(s.value) === s.value).map(s => s.context),
].filter(v => !/['"\\\n]/.test(v) && v.length <= 200);

function recorder(): vscode.ChatResponseStream {
  const noop = () => undefined;
  return { markdown: noop, anchor: noop, button: noop, filetree: noop, progress: noop, reference: noop, push: noop } as unknown as vscode.ChatResponseStream;
}

suite('Secrets never reach disk (extension host)', function () {
  this.timeout(300_000);
  const exportUri = vscode.Uri.file(path.join(os.tmpdir(), `engram-secrets-export-${Date.now()}.jsonl`));
  const importUri = vscode.Uri.file(path.join(os.tmpdir(), `engram-secrets-import-${Date.now()}.jsonl`));
  const marker = token('SECRETRULE');
  const shareIds: string[] = [];

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('engram').update('instructions.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    for (const u of [exportUri, importUri]) fs.rmSync(u.fsPath, { force: true });
  });

  test('a secret quoted in a real TypeScript diagnostic is masked in the episode and lesson', async () => {
    const api = await engram();
    const capture = api.capture;
    assert.ok(capture, 'capture is not running');
    if (capture.paused) capture.setPaused(false);
    assert.ok(literalSafe.length >= 5, 'the corpus has one-line secrets to quote');
    const uri = vscode.Uri.joinPath(workspaceRoot(), DIAG_FILE);
    // Each line is a TS2322 whose message quotes the literal: Type '"<secret>"' is not assignable to type '"redacted"'.
    const bad = literalSafe.map((v, i) => `export const k${i}: 'redacted' = '${v}';`).join('\n') + '\n';
    fs.writeFileSync(uri.fsPath, bad);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    const diag = await waitFor('TS2322 quoting the secret', () => vscode.languages.getDiagnostics(uri)
      .find(d => d.severity === vscode.DiagnosticSeverity.Error && d.message.includes(literalSafe[0])), 120_000);
    assert.match(diag.message, /is not assignable to type '"redacted"'/);
    const open = await waitFor('the diagnostic episode to open', () => capture.openEpisodes().find(e => e.file === DIAG_FILE), 60_000);

    // The fix: every literal becomes the allowed value.
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), literalSafe.map((_, i) => `export const k${i}: 'redacted' = 'redacted';`).join('\n') + '\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('the errors to clear', () => vscode.languages.getDiagnostics(uri).every(d => d.severity !== vscode.DiagnosticSeverity.Error) || undefined, 120_000);
    await waitFor('the episode to close', () => !capture.openEpisodes().some(e => e.id === open.id) || undefined, 60_000);
    await capture.flush();
    const store = await api.services.store();
    const ep = store.get(open.id) as Episode | undefined;
    assert.ok(ep, 'the episode was stored');
    assert.match(ep.trigger + ep.summary, /TS2322|not assignable/, 'the stored episode still says what the error was');
    const lesson = store.list({ kinds: ['lesson'] }).find(l => (l as Lesson).evidence.includes(ep.id));
    if (lesson) shareIds.push(lesson.id);
    shareIds.push(ep.id);
  });

  test('tokens printed by a failing command in an integrated terminal are masked in the episode', async () => {
    const api = await engram();
    const capture = api.capture!;
    const root = workspaceRoot().fsPath;
    const okFlag = path.join(root, 'config', 'secret-leak.ok');
    fs.rmSync(okFlag, { force: true });
    const printed = SECRET_CORPUS.filter(s => !s.context.includes('\n')).slice(0, 20).map(s => s.context);
    fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(root, LEAK_SCRIPT), [
      "const fs = require('fs');",
      "if (fs.existsSync('config/secret-leak.ok')) { console.log('deploy ok'); process.exit(0); }",
      `for (const l of ${JSON.stringify(printed)}) console.error(l);`,
      "console.error('Error: 401 Unauthorized: the deploy token above was rejected');",
      'process.exit(1);',
      '',
    ].join('\n'));
    const terminal = vscode.window.createTerminal({ name: 'engram-secrets-test', cwd: root, shellPath: '/bin/bash' });
    try {
      terminal.show();
      const si = await waitFor('shell integration in the secrets terminal', () => terminal.shellIntegration, 30_000);
      const run = async () => {
        const ended = new Promise<number | undefined>(resolve => {
          const sub = vscode.window.onDidEndTerminalShellExecution(e => {
            if (e.terminal === terminal && e.execution.commandLine.value.includes(LEAK_SCRIPT)) { sub.dispose(); resolve(e.exitCode); }
          });
        });
        si.executeCommand(`node ${LEAK_SCRIPT}`);
        return ended;
      };
      assert.strictEqual(await run(), 1);
      const open = await waitFor('the terminal episode to open', () => capture.openEpisodes().find(e => e.source === 'terminal' && e.title.includes(LEAK_SCRIPT)), 60_000);
      fs.mkdirSync(path.dirname(okFlag), { recursive: true });
      const edit = new vscode.WorkspaceEdit();
      edit.createFile(vscode.Uri.file(okFlag), { contents: Buffer.from('ok\n'), ignoreIfExists: true });
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.strictEqual(await run(), 0);
      await waitFor('the terminal episode to close', () => !capture.openEpisodes().some(e => e.id === open.id) || undefined, 60_000);
      await capture.flush();
      const ep = (await api.services.store()).get(open.id) as Episode | undefined;
      assert.ok(ep, 'the terminal episode was stored');
      assert.match(ep.trigger, /401 Unauthorized|secret-leak/, 'the output that mattered was kept (masked), not dropped');
      shareIds.push(ep.id);
    } finally {
      terminal.dispose();
    }
  });

  test('@memory /remember masks every secret it is told', async () => {
    const api = await engram();
    const handler = createChatHandler(api.services, api.capture);
    const cts = new vscode.CancellationTokenSource();
    const ids: string[] = [];
    for (const s of SECRET_CORPUS) {
      const request = { prompt: `the staging setup uses ${s.context}`, command: 'remember', references: [], toolReferences: [], toolInvocationToken: undefined } as unknown as vscode.ChatRequest;
      const result = await handler(request, { history: [] } as unknown as vscode.ChatContext, recorder(), cts.token);
      const saved = (result?.metadata as { ids?: string[] } | undefined)?.ids ?? [];
      assert.strictEqual(saved.length, 1, `/remember saved nothing for ${s.kind}`);
      ids.push(saved[0]);
    }
    const store = await api.services.store();
    const facts = ids.map(id => store.get(id));
    assert.ok(facts.every(f => f && f.source === 'chat'), 'every /remember is stored as a chat memory');
    shareIds.push(ids[0], ids[ids.length - 1]);
  });

  test('engram.import, engram.export, engram.shareWithTeam and the instructions file hold no secret', async () => {
    const api = await engram();
    const store = await api.services.store();
    const contexts = SECRET_CORPUS.map(s => s.context);
    const ruleId = `${marker}-lesson`;
    const lines = [
      ...contexts.map((c, i) => JSON.stringify({ kind: 'lesson', id: `${marker}-imp-${i}`, errorSignature: `Error: upstream rejected ${c}`, rootCause: `leaked ${c}`, fixApproach: `rotate: ${c}` })),
      ...contexts.map((c, i) => JSON.stringify({ kind: 'fact', id: `${marker}-fact-${i}`, content: `prod creds ${c}` })),
      JSON.stringify({ kind: 'lesson', id: ruleId, errorSignature: `Error: ${marker} deploy authentication failed`, rootCause: `the deploy script carried ${contexts.slice(0, 12).join(' and ')}`, fixApproach: `read credentials from the environment, not from files (${contexts[4]})`, scope: ['scripts/**'] }),
    ];
    fs.writeFileSync(importUri.fsPath, lines.join('\n') + '\n');
    const report = await vscode.commands.executeCommand<ImportReport>('engram.import', importUri);
    assert.deepStrictEqual(report.errors, [], 'secret-bearing lines import (masked), none is rejected');
    assert.strictEqual(report.imported, lines.length);

    // Instructions: a lesson promoted to a rule is written to .github/instructions/, masked.
    await vscode.workspace.getConfiguration('engram').update('instructions.enabled', true, vscode.ConfigurationTarget.Workspace);
    assert.ok(!store.get(ruleId)?.flagged?.length, `the lesson to promote was flagged: ${store.get(ruleId)?.flagged}`);
    await store.promote(ruleId, 'rule');
    api.services.fireChanged();
    const instructionsDir = vscode.Uri.joinPath(workspaceRoot(), '.github', 'instructions');
    await waitFor('the promoted rule in the instructions file', () => filesUnder(instructionsDir.fsPath).some(f => fs.readFileSync(f, 'utf8').includes(marker)) || undefined, 90_000);

    // Team file: share what came in through each door.
    for (const id of [...shareIds, `${marker}-imp-0`, `${marker}-imp-${contexts.length - 1}`, ruleId]) {
      if (store.get(id)) await vscode.commands.executeCommand('engram.shareWithTeam', id);
    }
    const teamFile = path.join(workspaceRoot().fsPath, '.engram', 'team.jsonl');
    const team = fs.readFileSync(teamFile, 'utf8');
    assert.ok(team.includes(ruleId), 'the shared lines are in the team file');

    const res = await vscode.commands.executeCommand<{ count: number }>('engram.export', exportUri);
    const exported = fs.readFileSync(exportUri.fsPath, 'utf8');
    assert.ok(res.count > lines.length && exported.includes(ruleId), 'the export holds the imported memories');
    assert.match(exported, /aws_secret_access_key/, 'masking keeps the key names (the memory stays useful)');

    const files = [
      ...filesUnder(api.services.storeDir), ...filesUnder(api.services.personalStoreDir),
      exportUri.fsPath, teamFile, ...filesUnder(instructionsDir.fsPath),
    ];
    assert.ok(filesUnder(api.services.storeDir).length > 0, `nothing in ${api.services.storeDir}`);
    assert.deepStrictEqual(leaksIn(files), []);
    // The diagnostic and terminal secrets went through capture: prove those episodes are part of what was read.
    assert.ok(shareIds.length >= 4, `every door produced a memory to check (${shareIds.length})`);
  });
});
