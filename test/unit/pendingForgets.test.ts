import * as assert from 'assert';
import { PendingForgets, type ForgetEvent } from '../../src/vscode/pendingForgets';

/** The next settled event for `id`. */
function settled(p: PendingForgets, id: string): Promise<Extract<ForgetEvent, { type: 'settled' }>> {
  return new Promise(resolve => {
    const sub = p.onDidChange(e => { if (e.type === 'settled' && e.id === id) { sub.dispose(); resolve(e); } });
  });
}

describe('pending forgets (one Undo window for every surface)', () => {
  it('writes the forget when the window closes, and only then', async () => {
    const written: string[] = [];
    const p = new PendingForgets(async id => { written.push(id); }, 20);
    const events: ForgetEvent[] = [];
    p.onDidChange(e => events.push(e));
    const deadline = p.schedule('m1', 'title', 'forgotten by the user');
    assert.ok(deadline && deadline > Date.now() - 1);
    assert.deepStrictEqual(written, [], 'nothing is written while Undo is possible');
    assert.ok(p.isPending('m1'));
    assert.strictEqual(p.schedule('m1', 'title', 'again'), undefined, 'a second forget of the same memory does not restart the window');
    const e = await settled(p, 'm1');
    assert.deepStrictEqual([e.undone, written], [false, ['m1']]);
    assert.ok(!p.isPending('m1'));
    assert.deepStrictEqual(events.map(x => x.type), ['pending', 'settled']);
  });

  it('undo keeps the memory: nothing is written, the id stays', async () => {
    const written: string[] = [];
    const p = new PendingForgets(async id => { written.push(id); }, 60_000);
    p.schedule('keep', 'k', 'r');
    const e = settled(p, 'keep');
    assert.strictEqual(p.undo('keep'), true);
    assert.strictEqual((await e).undone, true);
    assert.strictEqual(p.undo('keep'), false, 'a second undo has nothing to undo');
    await p.flush();
    assert.deepStrictEqual(written, []);
  });

  it('flush writes every waiting forget with its reason (the window is closing)', async () => {
    const written: [string, string][] = [];
    const p = new PendingForgets(async (id, reason) => { written.push([id, reason]); }, 60_000);
    p.schedule('a', 'A', 'from the palette');
    p.schedule('b', 'B', 'from the sidebar');
    assert.deepStrictEqual(p.list().map(x => x.id), ['a', 'b']);
    await p.flush();
    assert.deepStrictEqual(written, [['a', 'from the palette'], ['b', 'from the sidebar']]);
    assert.deepStrictEqual(p.list(), []);
  });

  it('a failed write settles as undone with the error: the memory is still there', async () => {
    const p = new PendingForgets(async () => { throw new Error('disk full'); }, 60_000);
    p.schedule('x', 'X', 'r');
    const e = settled(p, 'x');
    await p.flush();
    const got = await e;
    assert.strictEqual(got.undone, true);
    assert.match(String(got.error), /disk full/);
  });
});
