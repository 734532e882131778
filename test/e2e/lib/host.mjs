// Browser-level checks against the real workbench: code-server with the built extension loaded as a
// development extension (no extensionTestsPath, so the window stays up) and headless Debian Chromium
// driven by playwright-core. See test/e2e/README.md.
//
//   const host = await startHost({ workspace: 'test/fixtures/workspace', settings: { ... } });
//   await runCommand(host.page, 'Engram: Show Memory Panel');
//   await host.screenshot('panel');
//   await host.stop();
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  copyWorkspace, ensureHost, installVsix, launchBrowser, log, makeRunDir, onCleanup, repoRoot, seedUserSettings, startServer, workbenchUrl,
} from '../../../scripts/host/lib.mjs';

export { repoRoot };
export const screenshotDir = path.join(repoRoot, 'test-results', 'screenshots');
/**
 * Set by `run-e2e.mjs --installed` (ENGRAM_E2E_VSIX): every host installs that package with
 * `--install-extension` and loads no development extension, and `cli()` runs the installed dist/cli.js.
 */
export const installedVsix = process.env.ENGRAM_E2E_VSIX || undefined;
/** Where Engram runs from: the checkout, or the folder the .vsix was installed to by the last startHost. */
let extensionRoot = repoRoot;
let hostCache;

/**
 * Starts code-server + Chromium on a fresh copy of `workspace` (default: the integration fixture).
 * `env` goes to the server (so the extension host sees it); ENGRAM_STORE_DIR=<runDir>/store is set, and
 * the folder exists before the window opens, so a test may seed it first through `seed(lines)` or
 * `node dist/cli.js --store <storeDir> import file.jsonl` (pass `beforeOpen`).
 * `skipWelcome: false` keeps the welcome flow (`npm start` does: scripts/host/lib.mjs, demoWindow).
 * Does not build: run-e2e.mjs builds once before all files.
 */
export async function startHost({ workspace = path.join(repoRoot, 'test/fixtures/workspace'), env = {}, settings = {}, beforeOpen, viewport, skipWelcome = true } = {}) {
  hostCache ??= ensureHost();
  const host = hostCache;
  const runDir = makeRunDir('engram-e2e-');
  // Runs after the server and browser are gone, also when a test throws before stop() (the runner
  // calls cleanupAll after every test) or on Ctrl-C.
  const removeRunDir = onCleanup(() => { if (!process.env.ENGRAM_KEEP_RUN) fs.rmSync(runDir, { recursive: true, force: true }); });
  const storeDir = path.join(runDir, 'store');
  fs.mkdirSync(storeDir, { recursive: true });
  const ws = copyWorkspace(path.resolve(repoRoot, workspace), path.join(runDir, 'workspace'));
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  // Every terminal the window opens reports each command's exit status to a file the test polls
  // (terminalStatusFile): the prompt hook runs once per prompt, whatever the screen shows, and the line
  // the user types is unchanged. Its own history file keeps the user's ~/.bash_history out of the run.
  const statusFile = path.join(runDir, 'terminal-status.log');
  const termEnv = { ...terminalStatusEnv(statusFile, path.join(runDir, 'bash_history')), ...settings['terminal.integrated.env.linux'] };
  seedUserSettings(userDataDir, { ...settings, 'terminal.integrated.env.linux': termEnv });
  extensionRoot = installedVsix ? installVsix(host, installedVsix, { runDir, extensionsDir, userDataDir }) : repoRoot;
  if (beforeOpen) await beforeOpen({ runDir, storeDir, workspace: ws, extensionRoot });
  // The smoke-test driver is what makes the workbench read the development-extension payload; it also
  // turns every notification toast off (VS Code's addToast). An installed package needs no payload, so
  // its window runs without the driver and shows toasts as a user's does.
  const server = await startServer(host, { runDir, userDataDir, extensionsDir, smokeDriver: !installedVsix, env: { ENGRAM_STORE_DIR: storeDir, ...env } });
  const browser = await launchBrowser(host, { runDir, viewport });
  const { page } = browser;
  statusFiles.set(page, statusFile);
  const consoleLines = [];
  page.on('console', m => consoleLines.push(`[${m.type()}] ${m.text()}`));
  const url = workbenchUrl(server, { folder: ws, extensionDevelopmentPath: installedVsix ? [] : repoRoot, skipWelcome });
  // Generous timeouts: on a loaded 2-core machine the first workbench load can take a minute.
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 180_000 });
  await page.waitForSelector('.monaco-workbench', { timeout: 180_000 });
  await page.waitForSelector('.part.activitybar', { timeout: 120_000 });
  log(`workbench up at ${server.base} (${path.basename(runDir)})`);
  let stopped = false;
  return {
    page, url, runDir, storeDir, workspace: ws, server, consoleLines, extensionRoot,
    /** Saves test-results/screenshots/<name>.png and returns its path. */
    async screenshot(name) {
      fs.mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await browser.close();
      await server.stop();
      removeRunDir();
      if (process.env.ENGRAM_KEEP_RUN) log(`run folder kept: ${runDir}`);
      else fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}

const statusFiles = new WeakMap();

/**
 * The terminal environment of a harness window: bash runs PROMPT_COMMAND before each prompt (VS Code's
 * shell integration keeps it and restores `$?` for it), so every finished command appends
 * `<exit status>\t<history line>` to `statusFile`. The first prompt appends one line too.
 */
export function terminalStatusEnv(statusFile, historyFile) {
  return {
    ENGRAM_E2E_STATUS_FILE: statusFile,
    HISTFILE: historyFile,
    PROMPT_COMMAND: 'builtin printf \'%s\\t%s\\n\' "$?" "$(builtin history 1)" >> "$ENGRAM_E2E_STATUS_FILE"',
  };
}

/** The file the window's terminals append each command's exit status to (see terminalStatusEnv). */
export function terminalStatusFile(page) {
  return statusFiles.get(page);
}

/**
 * Runs `node dist/cli.js --store <storeDir> ...args` (e.g. 'import', file) and returns its stdout: the
 * checkout's CLI, or the installed one's once startHost installed the .vsix.
 */
export async function cli(storeDir, ...args) {
  const { execFileSync } = await import('node:child_process');
  return execFileSync(process.execPath, [path.join(extensionRoot, 'dist/cli.js'), '--store', storeDir, ...args], { encoding: 'utf8' });
}

/**
 * Escape, to close a quick input, hover or widget, but never into a terminal: there the shell gets the
 * ESC, and readline takes it with the next key typed as Meta-key (ESC then `n` of `npm run build` is
 * M-n, a history search: the line is swallowed and Enter runs nothing).
 */
export async function escape(page) {
  const inTerminal = await page.evaluate(() => !!document.activeElement?.closest('.terminal-wrapper, .terminal-outer-container, .xterm')).catch(() => false);
  if (!inTerminal) await page.keyboard.press('Escape');
}

/** Runs a command through the F1 palette by its label as shown there (e.g. 'Engram: Show Memory Panel'). */
export async function runCommand(page, label, { timeout = 15_000 } = {}) {
  await escape(page);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout });
  await input.fill(`>${label}`);
  // Pick the row whose label matches exactly, not the first fuzzy match.
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout });
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const n = await rows.count();
  for (let i = 0; i < n; i++) {
    const r = rows.nth(i);
    const text = (await r.getAttribute('aria-label')) ?? (await r.innerText());
    if (text.split(/,|\n/)[0].trim() === label) { await r.click(); return; }
  }
  await row.click();
}

/** The activity-bar entry of a contributed view container (class carries the id, whatever the title). */
export function containerItem(page, containerId = 'engram') {
  return page.locator(`.part.activitybar a[class*="activity-workbench-view-extension-${containerId}-"]`).first();
}

/** Shows a contributed view container in the side bar (clicks its activity-bar entry unless open). */
export async function openContainer(page, containerId = 'engram', { timeout = 30_000 } = {}) {
  const item = containerItem(page, containerId);
  await item.waitFor({ state: 'visible', timeout });
  const li = item.locator('xpath=..');
  if ((await li.getAttribute('aria-expanded')) !== 'true') await item.click();
}

/**
 * The inner frame of a webview view (e.g. 'engram.memories'), once the view is visible.
 * Webviews live in iframes overlaid on the view's pane; the one whose box lies in the pane is ours.
 */
export async function webviewFrame(page, viewId, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const pane = await paneBox(page, viewId);
    if (pane) {
      for (const el of await page.locator('iframe.webview').elementHandles()) {
        const box = await el.boundingBox();
        if (!box || box.width < 2 || box.height < 2) continue;
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
        if (cx >= pane.x && cx <= pane.x + pane.width && cy >= pane.y && cy <= pane.y + pane.height) {
          const outer = await el.contentFrame();
          const inner = outer && outer.childFrames().find(f => f.name() === 'active-frame' || /fake\.html|index\.html/.test(f.url()))
            || outer?.childFrames()[0];
          if (inner) {
            try { await inner.waitForLoadState('domcontentloaded', { timeout: 5_000 }); return inner; } catch { /* retry */ }
          }
        }
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`webview view ${viewId} not found (is it visible?)`);
}

/** Bounding box of the body of the pane showing view `viewId`, if it is expanded. */
async function paneBox(page, viewId) {
  return page.evaluate(id => {
    // The pane header's icon element carries the view id as a class: view-<id with dots as dashes>.
    const icon = document.querySelector(`.pane-header .icon.view-${id.replace(/\./g, '-')}`);
    const body = icon?.closest('.pane')?.querySelector('.pane-body');
    if (!body) return undefined;
    const r = body.getBoundingClientRect();
    return r.height > 2 ? { x: r.x, y: r.y, width: r.width, height: r.height } : undefined;
  }, viewId);
}

/** Opens `file` (workspace-relative) in an editor and hovers line/col (1-based); returns the hover element. */
export async function hoverAt(page, file, line, col, { timeout = 15_000 } = {}) {
  await runCommand(page, 'Go to File...').catch(() => {});
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.fill(file);
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor({ timeout });
  await page.keyboard.press('Enter');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ timeout });
  // Ctrl+G puts the cursor exactly at line:col; then the keyboard hover (Ctrl+K Ctrl+I) shows it.
  await page.keyboard.press('Control+G');
  await input.fill(`:${line}:${col}`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  await hover.waitFor({ state: 'visible', timeout });
  return hover;
}

/** Opens a workspace file through the explorer (quick open's file search is unreliable in this host). */
export async function openFromExplorer(page, folder, file) {
  const rows = page.locator('.explorer-folders-view .monaco-list-row');
  const dir = rows.filter({ hasText: new RegExp(`^${folder}$`) }).first();
  await dir.waitFor({ timeout: 60_000 });
  if ((await dir.getAttribute('aria-expanded')) !== 'true') await dir.click();
  await rows.filter({ hasText: file }).first().click();
  // A cold workbench on a loaded machine can take a minute to show the first editor.
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: 90_000 });
}
