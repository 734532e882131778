// The .vsix as a user gets it: `run-e2e.mjs --installed` packages it (scripts/host/package.mjs), and
// startHost installs it with `code-server --install-extension` and loads no development extension, so
// everything here runs from the installed folder. Checked: the installed folder's own code embeds text
// with a local model and its CLI answers (scripts/host/installed-probe.mjs); the extension activates and
// its Memories view draws; a real failing terminal command and its fix become a success episode with a
// lesson, shown in the sidebar; Connect an Agent… writes a .vscode/mcp.json whose CLI path exists, and
// says so in a toast. (hover.e2e.mjs runs against the installed package too: `alsoInstalled`.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTinyModel } from '../fixtures/make-tiny-model.mjs';
import { cli, containerItem, installedVsix, openContainer, repoRoot, runCommand, startHost, webviewFrame } from './lib/host.mjs';
import { openTerminal, runInTerminal, terminalText } from './lib/user.mjs';

/** Only with a package to install (run-e2e.mjs --installed); the checkout's runs skip this file. */
export const installedOnly = true;

const CHECK = 'node scripts/check.js';

/** Polls `fn` until it returns something truthy; fails with `what` after `ms`. */
async function until(what, fn, ms = 60_000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    try { last = await fn(); if (last) return last; } catch (e) { last = e; }
    await new Promise(r => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
}

export default async function installed() {
  assert.ok(installedVsix, 'run through `npm run test:installed` (run-e2e.mjs --installed), which packages the .vsix');
  const host = await startHost({
    settings: {
      'terminal.integrated.gpuAcceleration': 'off',
      'terminal.integrated.defaultProfile.linux': 'bash',
      'terminal.integrated.profiles.linux': { bash: { path: '/bin/bash' } },
    },
    beforeOpen({ runDir, extensionRoot }) {
      assert.ok(extensionRoot.startsWith(path.join(runDir, 'extensions') + path.sep), `not the installed copy: ${extensionRoot}`);
      // What the extension runs, from the installed folder (no sharp; the worker embeds; the CLI answers).
      const model = path.join(runDir, 'tiny-model');
      makeTinyModel(model);
      const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/host/installed-probe.mjs'), extensionRoot, model], { cwd: runDir, encoding: 'utf8' });
      assert.equal(r.status, 0, `the installed folder does not run:\n${r.stderr}`);
      console.log(`    installed folder runs: ${r.stdout.trim()}`);
    },
  });
  const { page, storeDir, workspace, extensionRoot } = host;
  try {
    // Activation: the container and a drawn Memories view come from the installed extension only.
    await containerItem(page, 'engram').waitFor({ state: 'visible', timeout: 120_000 });
    await openContainer(page, 'engram');
    const frame = await webviewFrame(page, 'engram.memories', { timeout: 60_000 });
    await until('the Memories view to draw', async () => (await frame.locator('body').innerText({ timeout: 5_000 })).trim());

    // A real error and its fix, typed in a shell-integrated terminal (the helpers the real-host tests use).
    await openTerminal(page);
    assert.equal(await runInTerminal(page, CHECK), 'error');
    await until('the failure on screen', async () => /ENOENT/.test(await terminalText(page)));
    assert.equal(await runInTerminal(page, `mkdir -p config && printf '{"port": 8080}\\n' > config/settings.json`), 'success');
    await until('the fix on disk', () => fs.existsSync(path.join(workspace, 'config', 'settings.json')));
    assert.equal(await runInTerminal(page, CHECK), 'success');
    await until('the check to pass', async () => /check ok: port 8080/.test(await terminalText(page)));
    const exported = async () => (await cli(storeDir, 'export')).split('\n').filter(Boolean).map(l => JSON.parse(l));
    const episode = await until('the captured episode in the store (read by the installed CLI)', async () =>
      (await exported()).find(m => m.kind === 'episode' && m.trigger?.includes('scripts/check.js') && m.outcome === 'success'), 90_000);
    assert.match(episode.trigger, /ENOENT: no such file or directory/);
    const lesson = await until('its lesson', async () => (await exported()).find(m => m.kind === 'lesson' && m.evidence?.includes(episode.id)), 30_000);
    assert.match(lesson.errorSignature, /ENOENT/);

    // The sidebar shows it.
    await runCommand(page, 'Engram: Show Memories');
    const view = await webviewFrame(page, 'engram.memories', { timeout: 60_000 });
    await until('the captured lesson in the Memories view', async () => /ENOENT/.test(await view.locator('.section-recent').innerText({ timeout: 5_000 })), 60_000);
    await host.screenshot('installed-sidebar');

    // Connect an Agent…: VS Code's project file, pointing at the installed CLI, confirmed in a toast.
    await runCommand(page, 'Engram: Connect an Agent…');
    const pick = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'VS Code (.vscode/mcp.json)' }).first();
    await pick.waitFor({ state: 'visible', timeout: 15_000 });
    await pick.click();
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: '.vscode/mcp.json' }).first();
    await toast.waitFor({ state: 'visible', timeout: 20_000 });
    const mcp = JSON.parse(fs.readFileSync(path.join(workspace, '.vscode', 'mcp.json'), 'utf8'));
    const entry = mcp.servers?.engram;
    assert.equal(entry?.command, 'node', JSON.stringify(mcp));
    const cliPath = entry.args[0];
    assert.equal(cliPath, path.join(extensionRoot, 'dist', 'cli.js'), 'the agent would run another copy than the installed one');
    assert.ok(fs.existsSync(cliPath), `${cliPath} does not exist`);
    await host.screenshot('installed-connect');
  } catch (e) {
    await host.screenshot('installed-failure').catch(() => {});
    throw e;
  } finally {
    await host.stop();
  }
}
