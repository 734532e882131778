// The workbench opens with the extension loaded: Engram's activity-bar container is there, its
// Memories view opens and shows a webview, and a screenshot records what a user would see.
import * as assert from 'node:assert';
import { containerItem, openContainer, startHost, webviewFrame } from './lib/host.mjs';

export default async function smoke() {
  const host = await startHost({});
  try {
    const item = containerItem(host.page, 'engram');
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    const label = await item.getAttribute('aria-label');
    assert.match(label ?? '', /^Engram/, `activity-bar entry is labelled ${JSON.stringify(label)} (untranslated %key%?)`);
    await openContainer(host.page, 'engram');
    const frame = await webviewFrame(host.page, 'engram.memories');
    // The frame's document exists before the webview script has drawn anything: wait for content.
    let text = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && !text.trim(); await host.page.waitForTimeout(250)) {
      text = await frame.locator('body').innerText({ timeout: 5_000 }).catch(() => '');
    }
    assert.ok(text.trim().length > 0, 'the Memories webview is empty');
    await host.page.mouse.move(700, 450); // no activity-bar tooltip over the view in the picture
    await host.screenshot('smoke-workbench');
  } catch (e) {
    await host.screenshot('smoke-failure').catch(() => {});
    throw e;
  } finally {
    await host.stop();
  }
}
