// The demo's README, step by step, as a user does it in the real workbench: `npm run build` in the
// integrated terminal fails with TS2322 (the demo's own TypeScript, installed as `npm start` installs it),
// the line is retyped at human speed and saved, the build passes, and the lesson is in the store and in
// the Engram view; `npm run check` fails until config/settings.json exists; breaking the line again shows
// the lesson in the hover. Keystroke timings and the machine's load are printed.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { demoWindow, installWorkspaceDeps } from '../../../scripts/host/lib.mjs';
import { escape, openContainer, repoRoot, runCommand, startHost, webviewFrame } from '../lib/host.mjs';
import {
  KeyLog, errorOf, goTo, lessons, typeHuman, openFile, openTerminal, retypeLine, runInTerminal, save, userSettings, waitFor, waitForLog, storeSummary, aboutError,
} from '../lib/user.mjs';

const FIXED = 'port: Number(process.env.PORT ?? 8080),';
const BROKEN = "port: process.env.PORT ?? '8080',";

// Typing at human speed on a loaded machine takes a while; the runner reads this.
export const timeoutMs = 1_500_000;

export default async function demo() {
  const load = os.loadavg().map(n => n.toFixed(1)).join(' ');
  const host = await startHost({
    workspace: path.join(repoRoot, 'demo'),
    // The window `npm start` opens (scripts/host/start.mjs): its settings, env and welcome flow, and the
    // copy's own dependencies (the demo's TypeScript); plus the typing user's settings.
    settings: { ...demoWindow.settings, ...userSettings },
    env: demoWindow.env,
    skipWelcome: demoWindow.skipWelcome,
    beforeOpen: ({ workspace }) => { installWorkspaceDeps(workspace); },
  });
  const { page, runDir, storeDir } = host;
  const keys = new KeyLog();
  try {
    // The README is what the user reads first: the welcome flow opens it.
    await waitFor("the demo's README open", () => page.locator('.tabs-container .tab', { hasText: 'README' }).count(), { timeout: 120_000 });
    // 1. npm run build fails with TS2322 (not `tsc: not found`).
    await openTerminal(page);
    assert.equal(await runInTerminal(page, 'npm run build', { keys }), 'error', 'the first build must fail');
    await waitForLog(runDir, /episode opened \(terminal\)/);
    // Fix the line as the README says, at human speed, and save.
    await openFile(page, 'src/config.ts');
    await retypeLine(page, 11, FIXED, { keys });
    await save(page);
    assert.equal(await runInTerminal(page, 'npm run build', { keys }), 'success', 'the build must pass after the fix');
    const [lesson] = await waitFor('a lesson about TS2322 with the fix', () => {
      const ls = lessons(storeDir).filter(l => aboutError(l, /TS2322/) && /Number\(process\.env\.PORT \?\? 8080\)/.test(`${l.fixApproach}\n${l.change ?? ''}`));
      return ls.length ? ls : undefined;
    });
    assert.doesNotMatch(JSON.stringify(lesson), /build\/|tsc: not found/, 'no build output or missing-tsc error in the lesson');

    // The Engram view lists it.
    await openContainer(page, 'engram');
    const frame = await webviewFrame(page, 'engram.memories', { timeout: 60_000 });
    await waitFor('the lesson in the Engram view', async () => /TS2322|not assignable to type 'number'/.test(await frame.locator('body').innerText().catch(() => '')), { timeout: 60_000 });

    // 2. npm run check fails until config/settings.json exists.
    assert.equal(await runInTerminal(page, 'npm run check', { keys }), 'error', 'check fails without the settings file');
    await runInTerminal(page, `mkdir -p config && echo '{"port": 8080}' > config/settings.json`, { keys });
    assert.equal(await runInTerminal(page, 'npm run check', { keys }), 'success', 'check passes with the settings file');
    await waitFor('a lesson about the missing settings file', () => lessons(storeDir).find(l => /ENOENT|settings\.json/.test(errorOf(l))));

    // 3. Break the line again: the hover on the error recalls the lesson.
    await openFile(page, 'src/config.ts');
    await retypeLine(page, 11, BROKEN, { keys });
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 240_000 });
    const text = await waitFor('Engram in the hover on the error', async () => {
      await goTo(page, 11, 4);
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      const t = await page.locator('.monaco-hover:not(.hidden)').first().innerText({ timeout: 5_000 }).catch(() => '');
      return t.includes('Engram remembers') ? t : undefined;
    }, { timeout: 180_000, interval: 2000 });
    assert.match(text, /Number\(process\.env\.PORT \?\? 8080\)/, 'the hover shows the fix');
    await host.screenshot('demo-hover');

    // 4. Engram: Search Memories finds the lesson by its error code.
    await escape(page);
    await runCommand(page, 'Engram: Search Memories');
    await page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible', timeout: 30_000 });
    await typeHuman(page, 'TS2322', { keys });
    const found = await waitFor('the lesson in the search results', async () => {
      const t = await page.locator('.quick-input-widget .quick-input-list').innerText().catch(() => '');
      return /not assignable to type 'number'|Number\(process\.env\.PORT/.test(t) ? t : undefined;
    }, { timeout: 60_000, interval: 1000 });
    assert.match(found, /not assignable|Number\(process/, 'search shows the lesson');
    await page.keyboard.press('Escape');
    console.log(`    keys: ${JSON.stringify(keys.summary())}; load at start ${load}, at end ${os.loadavg().map(n => n.toFixed(1)).join(' ')}`);
  } catch (e) {
    await host.screenshot('demo-failure').catch(() => {});
    console.log(`    store:\n${storeSummary(host.storeDir).replace(/^/gm, '      ')}`);
    throw e;
  } finally {
    await host.stop();
  }
}
