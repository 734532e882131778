// Runs last in phase 1 (file order): the window "closes" (Services.shutdown, what deactivate awaits) with a
// forget still in its Undo window and an episode still open. The forget must be written and the episode
// saved, masked, for the next start; phase2/restored.test.ts checks both after the real restart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { MemoryStore } from '../../src/store/memoryStore';
import { TEST_RECEIVE_COMMAND } from '../../src/vscode/sidebar/register';
import { engram, seedLesson, token, waitFor } from './surfaceHelpers';

export const SHUTDOWN_MARKER = 'engram-shutdown-test.json';
const GITHUB_TOKEN = 'ghp_' + 'Zq8Lk2Wm9Xt4Vb7Nc1Yp6Hs3Dg0Ja5UeRiQo';

suite('Window closing (runs last in phase 1)', function () {
  this.timeout(120_000);

  test('a pending forget is written and an open episode is saved, masked, before the stores close', async () => {
    const api = await engram();
    const capture = api.capture!;
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const lesson = await seedLesson(api, { errorText: `shutdown test ${token('forget')}`, rootCause: 'r', fixApproach: 'f' });
    await vscode.commands.executeCommand(TEST_RECEIVE_COMMAND, 'memories', { type: 'forget', id: lesson.id });

    const marker = token('shutdownboom');
    const terminal = vscode.window.createTerminal({ name: 'engram-shutdown-test', cwd: root, shellPath: '/bin/bash' });
    const si = await waitFor('shell integration', () => terminal.shellIntegration, 30_000);
    const ended = new Promise<number | undefined>(resolve => {
      const sub = vscode.window.onDidEndTerminalShellExecution(e => { if (e.terminal === terminal) { sub.dispose(); resolve(e.exitCode); } });
    });
    si.executeCommand(`node -e "throw new RangeError('${marker} ${GITHUB_TOKEN}')"`);
    assert.strictEqual(await ended, 1);
    const open = await waitFor('the episode to open', () => capture.openEpisodes().find(e => e.title.includes(marker)));

    await api.services.shutdown();

    const saved = path.join(api.services.storeDir, 'open-episodes.json');
    const text = fs.readFileSync(saved, 'utf8');
    assert.ok(text.includes(open.id) && text.includes(marker), 'the open episode was not saved');
    assert.ok(!text.includes(GITHUB_TOKEN), 'a secret reached the saved episodes');
    assert.strictEqual(fs.statSync(saved).mode & 0o777, 0o600);
    // The forget was written before the store closed (read back from disk by a fresh store).
    const store = await MemoryStore.open(api.services.storeDir, { readOnly: true });
    try {
      assert.strictEqual(store.get(lesson.id), undefined, 'the forget pending in its Undo window was lost');
    } finally {
      await store.close();
    }
    fs.writeFileSync(path.join(root, SHUTDOWN_MARKER), JSON.stringify({ episodeId: open.id, marker, forgotten: lesson.id }));
    terminal.dispose();
  });
});
