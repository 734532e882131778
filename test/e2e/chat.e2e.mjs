// What @memory answers, shown where a person can see it. This host has no language model, so its chat
// UI never calls a participant (see /work/shared/reference/vscode-host/README.md). Instead:
//  1. one extension-host run calls the real @memory handler with a recording stream for an English and
//     a Korean question (test/integration/chat.test.ts, "records … transcripts") and saves exactly the
//     markdown it streamed;
//  2. the workbench opens each transcript in VS Code's markdown preview (the same markdown rendering
//     chat uses) and screenshots it: test-results/screenshots/chat-en.png and chat-ko.png.
// It also screenshots the real chat view with "@memory …" typed (chat-view.png) and sent
// (chat-view-sent.png), to record honestly what this host does there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runPhase } from '../../scripts/host/run-integration.mjs';
import { build, copyWorkspace, ensureHost, freePort, makeRunDir, onCleanup, seedUserSettings } from '../../scripts/host/lib.mjs';
import { openFromExplorer, repoRoot, runCommand, startHost } from './lib/host.mjs';

const TEST = 'records Korean and English transcripts';

async function recordTranscripts() {
  const host = ensureHost();
  build({ tests: true });
  const runDir = makeRunDir('engram-chat-');
  if (!process.env.ENGRAM_KEEP_RUN) onCleanup(() => fs.rmSync(runDir, { recursive: true, force: true }));
  const transcripts = path.join(runDir, 'transcripts');
  const workspace = copyWorkspace(path.join(repoRoot, 'test/fixtures/workspace'), path.join(runDir, 'workspace'));
  const userDataDir = path.join(runDir, 'user-data');
  seedUserSettings(userDataDir);
  const result = await runPhase(host, {
    runDir, port: await freePort(), workspace, userDataDir, label: 'chat transcripts',
    testsPath: path.join(repoRoot, 'out/test/integration/index.js'),
    env: { ENGRAM_TEST_GREP: TEST, ENGRAM_TRANSCRIPT_DIR: transcripts },
    timeoutMs: 300_000, resultsDir: path.join(repoRoot, 'test-results', 'chat', 'host-run'),
  });
  assert.equal(result.code, 0, 'the transcript run failed (see test-results/chat/host-run)');
  assert.equal(result.passed, 1, `expected the one transcript test to run, got ${JSON.stringify(result)}`);
  const out = {};
  for (const lang of ['en', 'ko']) out[lang] = fs.readFileSync(path.join(transcripts, `transcript-${lang}.md`), 'utf8');
  fs.mkdirSync(path.join(repoRoot, 'test-results', 'chat'), { recursive: true });
  for (const [lang, text] of Object.entries(out)) fs.writeFileSync(path.join(repoRoot, 'test-results', 'chat', `transcript-${lang}.md`), text);
  return out;
}

export default async function chat() {
  const transcripts = await recordTranscripts();
  // What the participant streamed: the memory, why it was recalled, successes and failures apart.
  for (const [lang, md] of Object.entries(transcripts)) {
    const text = md.replace(/\\(.)/g, '$1'); // the words a reader sees, without markdown escapes
    assert.match(text, /ESM-only/, `${lang}: the lodash-es memory is missing`);
    assert.match(text, /Past successes to follow/, lang);
    assert.match(text, /Past failures to avoid/, lang);
    assert.match(text, /why: words: .*lodash-es/, `${lang}: no why`);
  }
  const host = await startHost({
    async beforeOpen({ workspace }) {
      fs.mkdirSync(path.join(workspace, 'chat'), { recursive: true });
      for (const [lang, text] of Object.entries(transcripts)) fs.writeFileSync(path.join(workspace, 'chat', `transcript-${lang}.md`), text);
    },
  });
  const { page } = host;
  try {
    for (const lang of ['en', 'ko']) {
      await openFromExplorer(page, 'chat', `transcript-${lang}.md`);
      await runCommand(page, 'Markdown: Open Preview');
      // The preview is a webview: give it a moment to render before the screenshot.
      await page.locator('iframe.webview').last().waitFor({ state: 'attached', timeout: 30_000 });
      await page.waitForTimeout(4000);
      console.log(`    screenshot: ${await host.screenshot(`chat-${lang}`)}`);
      await page.keyboard.press('Control+W');
    }
    // The real chat view, for the record: without a model the host cannot run participants.
    try {
      await runCommand(page, 'Chat: Open Chat', { timeout: 10_000 });
      await page.waitForTimeout(2000);
      await page.keyboard.type('@memory lodash-es 모듈을 찾을 수 없어요');
      await page.waitForTimeout(1500);
      console.log(`    screenshot: ${await host.screenshot('chat-view')}`);
      // Sending it shows what the host answers without a model (recorded, not asserted).
      await page.keyboard.press('Enter');
      await page.waitForTimeout(6000);
      console.log(`    screenshot: ${await host.screenshot('chat-view-sent')}`);
    } catch (e) {
      console.log(`    chat view not available in this host: ${String(e).split('\n')[0]}`);
    }
  } catch (e) {
    await host.screenshot('chat-failure').catch(() => {});
    throw e;
  } finally {
    await host.stop();
  }
}
