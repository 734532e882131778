// The window's lifetime (src/vscode/lifetime.ts): shutdown work first (newest first), then the parts in
// reverse order of registration, each awaited, one failure not stopping the rest; both idempotent.
import * as assert from 'assert';
import type { Logger } from '../../src/core/types';
import { Lifetime } from '../../src/vscode/lifetime';

function recordingLogger(lines: string[]): Logger {
  const log = (m: string | Error) => { lines.push(String(m instanceof Error ? m.message : m)); };
  return { trace: log, debug: log, info: log, warn: log, error: log };
}

describe('Lifetime', () => {
  it('runs shutdown tasks newest first, then disposes parts newest first, awaiting each', async () => {
    const order: string[] = [];
    const life = new Lifetime(recordingLogger([]));
    // The stores are registered first, so they close last, after the slow part before them has finished.
    life.register({ dispose: async () => { order.push('stores'); } }, 'stores');
    life.register({ dispose: async () => { await new Promise(r => setImmediate(r)); order.push('capture'); } }, 'capture');
    life.register({ dispose: () => { order.push('sidebar'); } }, 'sidebar');
    life.beforeShutdown('save episodes', async () => { order.push('task: save episodes'); });
    life.beforeShutdown('pending forgets', async () => { order.push('task: pending forgets'); });
    await life.shutdown();
    assert.deepStrictEqual(order, ['task: pending forgets', 'task: save episodes', 'sidebar', 'capture', 'stores']);
  });

  it('is idempotent: a second shutdown or dispose runs nothing again, and nothing registers afterwards', async () => {
    let disposed = 0, ran = 0;
    const life = new Lifetime(recordingLogger([]));
    life.register({ dispose: () => { disposed++; } }, 'part');
    life.beforeShutdown('task', async () => { ran++; });
    const first = life.shutdown();
    assert.strictEqual(life.shutdown(), first, 'a second shutdown is the same promise');
    await first;
    await life.dispose();
    assert.deepStrictEqual({ disposed, ran }, { disposed: 1, ran: 1 });
    assert.throws(() => life.register({ dispose: () => undefined }, 'late'), /late registered after shutdown/);
  });

  it('dispose alone (VS Code disposing the subscriptions) skips the shutdown tasks', async () => {
    const order: string[] = [];
    const life = new Lifetime(recordingLogger([]));
    life.register({ dispose: () => { order.push('part'); } }, 'part');
    life.beforeShutdown('task', async () => { order.push('task'); });
    await life.dispose();
    await life.shutdown();
    assert.deepStrictEqual(order, ['part']);
  });

  it('logs a failing task or part and still ends the others', async () => {
    const lines: string[] = [];
    const order: string[] = [];
    const life = new Lifetime(recordingLogger(lines));
    life.register({ dispose: () => { order.push('stores'); } }, 'stores');
    life.register({ dispose: () => { throw new Error('view gone'); } }, 'memories view');
    life.beforeShutdown('capture', async () => { order.push('capture task'); });
    life.beforeShutdown('pending forgets', async () => { throw new Error('disk full'); });
    await life.shutdown();
    assert.deepStrictEqual(order, ['capture task', 'stores']);
    assert.deepStrictEqual(lines, ['shutdown (pending forgets): disk full', 'disposing memories view: view gone']);
  });
});
