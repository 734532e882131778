// After the restart: what phase 1's window-closing test (zz-shutdown.test.ts) left is back. The open
// episode is open again in capture, and the memory forgotten in its Undo window stays forgotten.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { EngramApi } from '../../../src/vscode/api';
import { testAccess } from '../testAccess';

suite('Open episodes and pending forgets after a restart', () => {
  test('the episode open when the window closed is open again; the pending forget held', async () => {
    const ext = vscode.extensions.getExtension<EngramApi>('engram-dev.engram');
    assert.ok(ext);
    const api = testAccess(await ext.activate());
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(root, 'engram-shutdown-test.json');
    assert.ok(fs.existsSync(file), 'phase 1 did not leave its marker (did zz-shutdown.test.ts run?)');
    const { episodeId, marker, forgotten } = JSON.parse(fs.readFileSync(file, 'utf8')) as { episodeId: string; marker: string; forgotten: string };
    const open = api.capture!.openEpisodes().find(e => e.id === episodeId);
    assert.ok(open, `episode ${episodeId} was not restored; open: ${api.capture!.openEpisodes().map(e => e.title).join(' | ')}`);
    assert.ok(open.title.includes(marker));
    assert.ok(!fs.existsSync(path.join(api.services.storeDir, 'open-episodes.json')), 'the saved episodes file is removed once restored');
    const store = await api.services.store();
    assert.strictEqual(store.get(forgotten), undefined, 'the forgotten memory came back');
  });
});
