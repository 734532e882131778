// After a full restart (new server, browser and extension host, same storage): the episodes and
// lessons capture recorded in phase 1 (test/integration/capture.test.ts) are still in the store.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../../src/vscode/api';
import { testAccess } from '../testAccess';
import type { Episode, Lesson } from '../../../src/core/types';

const EXTENSION_ID = 'engram-dev.engram';
// The same literals as capture.test.ts (importing it would register its suite in this phase).
const DEMO_FILE = 'src/capture-demo.ts';
const CHECK_COMMAND = 'node scripts/check.js';

suite('Captured episodes after a restart', () => {
  test('the diagnostics and terminal episodes of phase 1, and their lessons, are still stored', async () => {
    const ext = vscode.extensions.getExtension<EngramApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    const api = testAccess(await ext.activate());
    const store = await api.services.store();
    const episodes = store.list({ kinds: ['episode'] }).filter((m): m is Episode => m.kind === 'episode');
    const lessons = store.list({ kinds: ['lesson'] }).filter((m): m is Lesson => m.kind === 'lesson');

    const diag = episodes.filter(e => e.files.includes(DEMO_FILE) && e.outcome === 'success');
    assert.strictEqual(diag.length, 1, `diagnostics episode for ${DEMO_FILE}: found ${diag.length} in ${api.services.storeDir}`);
    assert.match(diag[0].errorSignature ?? '', /^tsc:TS2322:/);
    assert.ok(diag[0].steps.some(s => s.detail?.includes('String(n)')), 'the fix diff did not survive the restart');

    const term = episodes.filter(e => e.trigger.includes(CHECK_COMMAND) && e.outcome === 'success');
    assert.strictEqual(term.length, 1, `terminal episode for ${CHECK_COMMAND}: found ${term.length}`);

    for (const ep of [...diag, ...term]) {
      assert.ok(lessons.some(l => l.evidence.includes(ep.id)), `the lesson of ${ep.id} is gone`);
    }
  });
});
