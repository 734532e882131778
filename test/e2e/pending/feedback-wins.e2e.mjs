// Issue 17, real host: the user's word wins. A seeded lesson about TS2322 is shown in the hover of the
// error a user just typed; the user clicks *Didn't help*; then fixes the error. The memory's history has
// the user's still_failed and no automatic `prevented` for that recurrence. A terminal failure and fix
// afterwards is the sentinel: the finaliser writes in order, so once its lesson is stored the episode's
// automatic outcomes have been decided.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROKEN, CONFIG_LINE, DEMO, FIXED, cleanDemo, expectRun, someSquiggle } from '../lib/scenarios.mjs';
import { cli, startHost } from '../lib/host.mjs';
import {
  KeyLog, errorOf, goTo, memories, openFile, openTerminal, retypeLine, save, showMemory, userSettings, waitFor, waitForLog, storeSummary, aboutError,
} from '../lib/user.mjs';

// Typing at human speed on a loaded machine takes a while; the runner reads this.
export const timeoutMs = 1_500_000;

export default async function feedbackWins() {
  const load = os.loadavg().map(n => n.toFixed(1)).join(' ');
  const host = await startHost({
    workspace: DEMO, settings: userSettings,
    async beforeOpen({ runDir, storeDir, workspace }) {
      cleanDemo(workspace);
      const seed = path.join(runDir, 'seed.jsonl');
      fs.writeFileSync(seed, JSON.stringify({
        kind: 'lesson', errorSignature: "error TS2322: Type 'string' is not assignable to type 'number'.",
        rootCause: 'PORT comes from the environment as a string; the type says number',
        fixApproach: 'Parse it once at the edge: Number(process.env.PORT ?? 8080)', scope: ['src/**'], tags: ['e2e'],
      }) + '\n');
      await cli(storeDir, 'import', seed);
    },
  });
  const { page, runDir, storeDir } = host;
  const keys = new KeyLog();
  try {
    const [seeded] = memories(storeDir).filter(m => m.kind === 'lesson');
    assert.ok(seeded, 'the seeded lesson');
    await openFile(page, 'src/config.ts');
    await retypeLine(page, CONFIG_LINE, BROKEN, { keys });
    await save(page);
    await someSquiggle(page);
    await waitForLog(runDir, /episode opened \(diagnostics\)/);
    // The hover on the error shows the memory; the user says it did not help.
    const link = page.locator(`.monaco-hover:not(.hidden) a[data-href^="command:engram.markNotHelpful"]`).first();
    await waitFor('Engram in the hover, with its feedback links', async () => {
      await goTo(page, CONFIG_LINE, 4);
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      return link.isVisible({ timeout: 5_000 }).catch(() => false);
    }, { timeout: 180_000, interval: 2000 });
    await link.click();
    await waitFor("the user's still_failed in the memory's history", () => showMemory(storeDir, seeded.id).history.some(h => h.type === 'feedback' && h.outcome === 'still_failed' && !h.auto));
    // The fix, typed and saved.
    await page.keyboard.press('Escape');
    await retypeLine(page, CONFIG_LINE, FIXED, { keys });
    await save(page);
    await waitFor('the TS2322 episode stored as fixed', () => memories(storeDir).find(m => m.kind === 'episode' && m.outcome === 'success' && aboutError(m, /TS2322/)));
    // Sentinel: a later finaliser job.
    await openTerminal(page);
    await expectRun(page, 'npm run check', 'error', keys);
    await expectRun(page, `mkdir -p config && echo '{"port": 8080}' > config/settings.json`, 'success', keys);
    await expectRun(page, 'npm run check', 'success', keys);
    await waitFor('the sentinel lesson', () => memories(storeDir).find(m => m.kind === 'lesson' && /ENOENT|settings\.json/.test(errorOf(m))));
    const history = showMemory(storeDir, seeded.id).history.filter(h => h.type === 'feedback');
    assert.deepEqual(history.filter(h => h.outcome === 'prevented').map(h => h.detail), [], 'an automatic prevented after the user said it did not help');
    assert.equal(history.filter(h => h.outcome === 'still_failed').length, 1, `one still_failed (the user's): ${history.map(h => h.detail).join(' | ')}`);
    console.log(`    history: ${history.map(h => `${h.outcome}${h.auto ? ' (auto)' : ''}`).join(', ')}\n    keys: ${JSON.stringify(keys.summary())}; load at start ${load}, at end ${os.loadavg().map(n => n.toFixed(1)).join(' ')}`);
  } catch (e) {
    await host.screenshot('feedback-wins-failure').catch(() => {});
    console.log(`    store:\n${storeSummary(host.storeDir).replace(/^/gm, '      ')}`);
    throw e;
  } finally {
    await host.stop();
  }
}
