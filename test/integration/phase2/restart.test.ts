// Runs after a full restart (new code-server, browser and extension host, same user data and
// workspace): what phase 1 wrote must still be there.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../../src/vscode/api';
import { testAccess } from '../testAccess';

const EXTENSION_ID = 'engram-dev.engram';
// Same text as RESTART_MARKER in ../activation.test.ts (importing it would re-register its suite here).
const RESTART_MARKER = 'engram-harness: this fact was written before the restart';

suite('After a restart', () => {
  test('activates again and finds the memory written before the restart', async () => {
    const ext = vscode.extensions.getExtension<EngramApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    const api = testAccess(await ext.activate());
    const store = await api.services.store();
    const found = store.list({ kinds: ['fact'] }).filter(m => m.kind === 'fact' && m.content === RESTART_MARKER);
    assert.strictEqual(found.length, 1, `expected the phase-1 fact once in ${api.services.storeDir}, found ${found.length}`);
  });
});
