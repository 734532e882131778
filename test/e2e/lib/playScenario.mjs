// One real-host test of a live-session scenario (scenarios.mjs): a fresh host on the demo workspace the
// scenario prepared, the scenario typed at human speed, then the test's own checks. Every such test reports
// the same way — on failure a screenshot and what the store holds, always the keystroke summary and the
// machine's load — so a failure on a loaded machine can be told from a product defect.
import * as os from 'node:os';
import { startHost } from './host.mjs';
import { DEMO, scenarios } from './scenarios.mjs';
import { KeyLog, storeSummary, userSettings } from './user.mjs';

const loadNow = () => os.loadavg().map(n => n.toFixed(1)).join(' ');

/**
 * Plays `scenarios[name]`, then `check(host, ctx)` (ctx: { keys, …what the scenario noted }); a line the
 * check returns is printed before the keystroke summary. The screenshot is named `<shot>-failure`.
 */
export async function playScenario(name, shot, check) {
  const load = loadNow();
  const s = scenarios[name];
  const host = await startHost({ workspace: DEMO, settings: userSettings, beforeOpen: ({ workspace }) => s.prepare(workspace) });
  const ctx = { keys: new KeyLog() };
  try {
    await s.play(host, ctx);
    const said = await check(host, ctx);
    console.log(`${said ? `    ${said}\n` : ''}    keys: ${JSON.stringify(ctx.keys.summary())}; load at start ${load}, at end ${loadNow()}`);
  } catch (e) {
    await host.screenshot(`${shot}-failure`).catch(() => {});
    console.log(`    store:\n${storeSummary(host.storeDir).replace(/^/gm, '      ')}`);
    throw e;
  } finally {
    await host.stop();
  }
}
