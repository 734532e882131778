// Issue 17, real host: errors that exist only while a line is being typed never become an episode or a
// lesson. A clean demo file; `port: Number(process.env.PORT ?? 8080),` retyped over its own line at
// 200–400 ms a key with pauses (the editor underlines half-typed names meanwhile), then saved. Then a
// real failure and its fix in the terminal (`npm run check` without its settings file): once that lesson
// is stored, everything before it was decided, and nothing may be about the typed line.
import * as assert from 'node:assert/strict';
import { expectRun } from './lib/scenarios.mjs';
import { playScenario } from './lib/playScenario.mjs';
import { engramLog, memories, openTerminal, waitFor, errorOf } from './lib/user.mjs';

// Typing at human speed on a loaded machine takes a while (140–190 s at load 6–7); the runner reads this.
export const timeoutMs = 900_000;

export default async function typing() {
  await playScenario('typing-transient-errors', 'typing', async (host, ctx) => {
    assert.ok(ctx.sawErrors, 'the editor never underlined an error while the line was typed: the test would prove nothing');
    // The sentinel: a real failure and fix, stored as a lesson after the typing was over.
    await openTerminal(host.page);
    await expectRun(host.page, 'npm run check', 'error', ctx.keys);
    await expectRun(host.page, `mkdir -p config && echo '{"port": 8080}' > config/settings.json`, 'success', ctx.keys);
    await expectRun(host.page, 'npm run check', 'success', ctx.keys);
    await waitFor('the lesson of the check failure', () => memories(host.storeDir).find(m => m.kind === 'lesson' && /ENOENT|settings\.json/.test(errorOf(m))));
    const log = engramLog(host.runDir);
    const diag = log.split('\n').filter(l => /episode opened \(diagnostics\)/.test(l));
    // The actual keystroke intervals: a stall as long as the noise threshold (4 s) on a loaded machine
    // is a pause the product may rightly take for a finished line.
    const keysSeen = `keystrokes actually ${JSON.stringify(ctx.keys.summary().actual)} ms apart`;
    assert.deepEqual(diag, [], `typing opened an episode (${keysSeen})`);
    const typed = memories(host.storeDir).filter(m => (m.kind === 'lesson' || m.kind === 'episode') && !/ENOENT|settings\.json/.test(`${errorOf(m)} ${m.trigger ?? ''}`));
    assert.deepEqual(typed.map(m => `${m.kind}: ${m.kind === 'lesson' ? errorOf(m) : m.trigger}`), [], `a memory about an error that existed only while typing (${keysSeen})`);
  });
}
