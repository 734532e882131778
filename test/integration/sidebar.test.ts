// The sidebar views in a real extension host: the view resolves and its webview says `ready`, the host
// posts state the webview accepts, "Relevant now" follows the active file's errors, actions sent from
// the webview reach the store (Helpful, forget with undo), malformed messages are ignored and logged,
// and the Insights view aggregates the store.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { EngramTestAccess } from '../../src/vscode/api';
import type { MemoryView } from '../../src/views/memoriesProtocol';
import type { HostMessage } from '../../src/views/protocol';
import { TEST_RECEIVE_COMMAND, TEST_STATE_COMMAND } from '../../src/vscode/sidebar/register';
import type { ViewHostState } from '../../src/vscode/sidebar/viewHost';
import { FORGET_DELAY_MS } from '../../src/vscode/sidebar/memoriesView';
import { logText } from './engramLog';
import { engram, openWithError, seedLesson, token, waitFor } from './surfaceHelpers';

type States = { memories: ViewHostState; insights: ViewHostState };
const state = async (): Promise<States> => (await vscode.commands.executeCommand<States>(TEST_STATE_COMMAND));
const send = (raw: unknown, view: 'memories' | 'insights' = 'memories') => vscode.commands.executeCommand(TEST_RECEIVE_COMMAND, view, raw);

/** Rows of the newest `section` message for `section` that contains a row matching `pred`. */
async function postedRow(section: string, pred: (m: MemoryView) => boolean, what: string, timeoutMs = 30_000): Promise<MemoryView> {
  return waitFor(what, async () => {
    const posted = (await state()).memories.posted;
    for (let i = posted.length - 1; i >= 0; i--) {
      const m = posted[i];
      if (m.type === 'section' && m.section === section && m.state.status === 'ready') {
        const row = m.state.items.find(pred);
        if (row) return row;
      }
    }
    return undefined;
  }, timeoutMs);
}


suite('Sidebar', () => {
  let api: EngramTestAccess;
  suiteSetup(async () => {
    api = await engram();
  });

  test('engram.showPanel resolves the view, the webview says ready and accepts what the host posts', async () => {
    await vscode.commands.executeCommand('engram.showPanel');
    const s = await waitFor('the memories webview to say ready', async () => { const st = await state(); return st.memories.ready ? st : undefined; }, 60_000);
    assert.ok(s.memories.resolved, 'no webview was resolved for engram.memories');
    const types = s.memories.posted.map(m => m.type);
    assert.ok(types.includes('init'), `host never posted init: ${types.join(', ')}`);
    await waitFor('the webview to accept posted messages', async () => ((await state()).memories.delivered > 0 ? true : undefined));
    assert.strictEqual(typeof api.reveal, 'function', 'the sidebar gave no reveal');
  });

  test('Relevant now recalls a lesson for the active file\'s error', async () => {
    const t = token('sbrel');
    const lesson = await seedLesson(api, {
      errorText: `Property '${t}' does not exist on type 'Widget'.`,
      rootCause: `the ${t} field was renamed in the widget refactor`,
      fixApproach: `use widget.${t}Id instead`,
    });
    await vscode.commands.executeCommand('engram.showPanel');
    // The file name shares no word with the lesson, so only the error text can recall it.
    const file = `src/relevant${Math.random().toString(36).slice(2, 8)}.ts`;
    await openWithError(file, `interface Widget { id: number }\nconst w: Widget = { id: 1 };\nexport const v = w.${t};\n`);
    const msg = await waitFor('the seeded lesson in Relevant now', async () => (await state()).memories.posted.find(
      (m): m is Extract<HostMessage, { type: 'section' }> => m.type === 'section' && m.section === 'relevant' && m.state.status === 'ready'
        && m.state.items.some(x => x.id === lesson.id)), 60_000);
    const row = msg.state.status === 'ready' ? msg.state.items.find(x => x.id === lesson.id) : undefined;
    assert.ok(row && row.why.length > 0, 'a recalled memory says why');
    assert.strictEqual(msg.context?.file, file);
    assert.ok((msg.context?.errors ?? 0) >= 1, `the query came from the file's errors: ${JSON.stringify(msg.context)}`);
  });

  test('Helpful from the webview raises the confidence in the store and in the rows posted back', async () => {
    const t = token('sbhelp');
    const lesson = await seedLesson(api, { errorText: `Error: ${t} failed to load`, rootCause: 'r', fixApproach: 'f' });
    await vscode.commands.executeCommand('engram.showPanel');
    await waitFor('ready', async () => ((await state()).memories.ready ? true : undefined), 60_000);
    const before = await postedRow('recent', m => m.id === lesson.id, 'the lesson in Recent');
    await send({ type: 'feedback', id: lesson.id, outcome: 'prevented' });
    const store = await api.services.store();
    await waitFor('alpha to grow', () => ((store.get(lesson.id)?.confidence.alpha ?? 0) > lesson.confidence.alpha ? true : undefined));
    const after = await postedRow('recent', m => m.id === lesson.id && m.confidence > before.confidence, 'a higher confidence posted');
    assert.strictEqual(after.helped, before.helped + 1);
  });

  test('malformed and unknown webview messages are ignored and logged', async () => {
    const t = token('sbbad');
    const lesson = await seedLesson(api, { errorText: `Error: ${t}`, rootCause: 'r', fixApproach: 'f' });
    const before = (await state()).memories.rejected;
    await send({ type: 'forget' });                                   // missing id
    await send({ type: 'forget', id: 42 });                           // wrong type
    await send({ type: 'runShell', command: 'rm -rf /' });            // unknown type
    await send(JSON.parse(`{"type":"__proto__","id":"${lesson.id}"}`));
    const after = (await state()).memories.rejected;
    assert.strictEqual(after - before, 4);
    const store = await api.services.store();
    // A well-formed forget sent after the malformed ones: once it has been written, any forget those
    // had queued (same delay, queued earlier) would have been written too.
    const sentinel = await seedLesson(api, { errorText: `Error: ${token('sbsentinel')}`, rootCause: 'r', fixApproach: 'f' });
    await send({ type: 'forget', id: sentinel.id });
    await waitFor('the well-formed forget to be written', () => !store.get(sentinel.id) || undefined, FORGET_DELAY_MS + 30_000);
    assert.ok(store.get(lesson.id), 'a malformed forget must not forget anything');
    await waitFor('the warning in the log', () => (/ignored a malformed or unknown webview message \(type "runShell"\)/.test(logText(api)) ? true : undefined), 20_000);
  });

  test('forget waits for Undo; undo keeps the memory, no undo deletes it', async () => {
    const store = await api.services.store();
    const keep = await seedLesson(api, { errorText: `Error: ${token('sbkeep')}`, rootCause: 'r', fixApproach: 'f' });
    const drop = await seedLesson(api, { errorText: `Error: ${token('sbdrop')}`, rootCause: 'r', fixApproach: 'f' });
    await send({ type: 'forget', id: keep.id });
    await send({ type: 'forget', id: drop.id });
    const pending = (await state()).memories.posted.filter(m => m.type === 'pendingForget').map(m => (m as { id: string }).id);
    assert.ok(pending.includes(keep.id) && pending.includes(drop.id), 'the webview is told to show Undo');
    assert.ok(store.get(keep.id) && store.get(drop.id), 'nothing is deleted before the delay');
    await send({ type: 'undoForget', id: keep.id });
    await waitFor('the deletion', () => (store.get(drop.id) ? undefined : true), FORGET_DELAY_MS + 10_000);
    assert.ok(store.get(keep.id), 'undo kept the memory');
    const settled = (await state()).memories.posted.filter((m): m is Extract<HostMessage, { type: 'forgetSettled' }> => m.type === 'forgetSettled');
    assert.ok(settled.some(m => m.id === keep.id && m.undone));
    assert.ok(settled.some(m => m.id === drop.id && !m.undone));
  });

  test('a quarantined memory is listed under Needs review with its reason, and Restore brings it back', async () => {
    const store = await api.services.store();
    const lesson = await seedLesson(api, { errorText: `Error: ${token('sbq')}`, rootCause: 'r', fixApproach: 'f' });
    await store.quarantine(lesson.id, 'the file it names was deleted');
    const row = await postedRow('review', m => m.id === lesson.id, 'the memory under Needs review');
    assert.strictEqual(row.quarantine, 'the file it names was deleted');
    await send({ type: 'restore', id: lesson.id });
    await waitFor('the restore', () => (store.get(lesson.id)?.quarantined ? undefined : true));
    await postedRow('recent', m => m.id === lesson.id && !m.quarantine, 'the memory back in Recent');
  });

  test('engram.openMemory reveals a memory with its details', async () => {
    const lesson = await seedLesson(api, { errorText: `Error: ${token('sbopen')}`, rootCause: 'the real cause', fixApproach: 'the fix' });
    await vscode.commands.executeCommand('engram.openMemory', lesson.id);
    await postedRow('opened', m => m.id === lesson.id, 'the memory in Opened');
    const details = await waitFor('its details', async () => (await state()).memories.posted.find(
      (m): m is Extract<HostMessage, { type: 'details' }> => m.type === 'details' && m.id === lesson.id && !!m.details));
    assert.strictEqual(details.details?.rootCause, 'the real cause');
    assert.ok(details.details?.history.some(h => h.type === 'recorded'), 'history comes from store.history');
  });

  test('engram.showInsights resolves the insights view and posts aggregated data', async () => {
    await vscode.commands.executeCommand('engram.showInsights');
    const data = await waitFor('insights data', async () => {
      const m = [...(await state()).insights.posted].reverse().find(x => x.type === 'insights' && x.state.status === 'ready');
      return m && m.type === 'insights' && m.state.status === 'ready' ? m.state.data : undefined;
    }, 60_000);
    const store = await api.services.store();
    assert.strictEqual(data.totals.lessons, store.list({ kinds: ['lesson'], includeQuarantined: true }).length);
    assert.strictEqual(data.weeks.length, 12);
    const rejected = (await state()).insights.rejected;
    await send({ type: 'details' }, 'insights');
    assert.strictEqual((await state()).insights.rejected, rejected + 1);
  });
});
