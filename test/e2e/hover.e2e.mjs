// A person hovers a real TS2322 error and sees the seeded memory (root cause, fix, confidence,
// feedback links) in the workbench's hover. Screenshot: test-results/screenshots/hover.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, openFromExplorer, startHost } from './lib/host.mjs';

/** Runs against the installed .vsix too (run-e2e.mjs --installed). */
export const alsoInstalled = true;

const ROOT_CAUSE = 'PORT comes from the environment as a string; the type says number';
const FIX = 'Parse it once at the edge: Number(process.env.PORT ?? 8080)';

/** Puts the cursor at line:col and asks for the keyboard hover (Ctrl+K Ctrl+I). */
async function hoverKeyboard(page, line, col) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(`:${line}:${col}`);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
}

export default async function hover() {
  const host = await startHost({
    async beforeOpen({ runDir, storeDir, workspace }) {
      fs.writeFileSync(path.join(workspace, 'src', 'port.ts'), "// The port the server listens on.\nexport const port: number = 'eight thousand';\n");
      const seed = path.join(runDir, 'seed.jsonl');
      fs.writeFileSync(seed, JSON.stringify({
        kind: 'lesson',
        errorSignature: "error TS2322: Type 'string' is not assignable to type 'number'.",
        rootCause: ROOT_CAUSE, fixApproach: FIX, scope: ['src/**'], tags: ['e2e'],
      }) + '\n');
      await cli(storeDir, 'import', seed);
    },
  });
  const { page } = host;
  try {
    await openFromExplorer(page, 'src', 'port.ts');
    // The TypeScript server needs a while on a cold start before it underlines the error.
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 240_000 });
    let text = '';
    for (let attempt = 0; attempt < 8 && !text.includes('Engram remembers'); attempt++) {
      await hoverKeyboard(page, 2, 14);
      await page.waitForTimeout(2500);
      text = await page.locator('.monaco-hover:not(.hidden)').first().innerText().catch(() => '');
    }
    const file = await host.screenshot('hover');
    assert.ok(text.includes('Engram remembers'), `no Engram section in the hover:\n${text}`);
    assert.ok(text.includes(ROOT_CAUSE), 'root cause missing');
    assert.ok(text.includes('Number(process.env.PORT ?? 8080)'), 'fix missing, or shown with escape characters');
    assert.match(text, /Helpful/);
    assert.match(text, /Didn.t help/);
    assert.match(text, /50% confidence/);
    // The feedback controls are links to Engram's commands; the memory text produced no link at all.
    const hrefs = await page.locator('.monaco-hover:not(.hidden) a').evaluateAll(as => as.map(a => a.getAttribute('data-href') ?? a.getAttribute('href') ?? ''));
    const ours = hrefs.filter(h => h.startsWith('command:engram.'));
    assert.ok(ours.some(h => h.startsWith('command:engram.markHelpful')), `feedback link missing: ${hrefs.join(' ')}`);
    // The status bar counts the memories relevant to this file's errors: one.
    const status = page.locator('.statusbar-item[id$="engram.relevant"]');
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await status.innerText()).trim(), /^1$/, 'status bar count');
    assert.ok((await status.locator('.codicon-lightbulb').count()) > 0, 'status bar lightbulb icon');
    console.log(`    hover links: ${hrefs.length} (${ours.length} Engram commands); screenshot: ${file}`);
  } catch (e) {
    await host.screenshot('hover-failure').catch(() => {});
    throw e;
  } finally {
    await host.stop();
  }
}
