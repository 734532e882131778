// The webview protocol is the trust boundary between the host and the webview: these tests pin what
// passes and what is dropped.
import * as assert from 'assert';
import { describeRejected } from '../../src/views/common';
import type { MemoryView } from '../../src/views/memoriesProtocol';
import { parseHostMessage, parseWebviewMessage } from '../../src/views/protocol';

const row: MemoryView = {
  id: 'les_1', kind: 'lesson', title: 'Cannot find module "x"', maturity: 'pattern', confidence: 67, helped: 1, notHelped: 0,
  evidence: 2, scope: ['src/**'], why: ['same signature'], createdAt: 1, updatedAt: 2, pinned: false, source: 'captured',
};

describe('sidebar protocol: webview → host', () => {
  it('accepts each well-formed action and returns a copy', () => {
    const msgs = [
      { type: 'ready', view: 'memories' },
      { type: 'search', query: '모듈을 찾을 수 없음' },
      { type: 'feedback', id: 'les_1', outcome: 'prevented' },
      { type: 'feedback', id: 'les_1', outcome: 'still_failed' },
      { type: 'pin', id: 'les_1', pinned: true },
      { type: 'forget', id: 'les_1' },
      { type: 'undoForget', id: 'les_1' },
      { type: 'run', action: 'recordLesson' },
    ];
    for (const m of msgs) {
      const parsed = parseWebviewMessage(m);
      assert.deepStrictEqual(parsed, m);
      assert.notStrictEqual(parsed, m, 'the parser must return a fresh object');
    }
  });

  it('rejects unknown types, wrong field types and missing fields', () => {
    const bad: unknown[] = [
      undefined, null, 'ready', 42, [], [{ type: 'ready' }],
      { type: 'launchMissiles' },
      { type: 'ready' },                                   // missing view
      { type: 'ready', view: 'terminal' },                 // not a view
      { type: 'feedback', id: 'les_1', outcome: 'great' }, // not an outcome
      { type: 'feedback', id: 42, outcome: 'prevented' },
      { type: 'pin', id: 'les_1', pinned: 'yes' },
      { type: 'forget', id: '' },
      { type: 'search', query: 'x'.repeat(10_001) },
      { type: 'run', action: 'workbench.action.quit' },    // only named actions, never command ids
      { type: 'toString' }, { type: 'constructor' }, { type: '__proto__' },
    ];
    for (const m of bad) assert.strictEqual(parseWebviewMessage(m), undefined, JSON.stringify(m));
  });

  it('drops unknown keys and never lets __proto__ reach a prototype', () => {
    const hostile = JSON.parse('{"type":"forget","id":"les_1","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"extra":1}') as unknown;
    const parsed = parseWebviewMessage(hostile);
    assert.deepStrictEqual(parsed, { type: 'forget', id: 'les_1' });
    assert.strictEqual(Object.getPrototypeOf(parsed), Object.prototype);
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
    assert.strictEqual((parsed as unknown as Record<string, unknown>).polluted, undefined);
  });

  it('rejects objects with a foreign prototype (not plain data)', () => {
    class Sneaky { type = 'forget'; id = 'x'; }
    assert.strictEqual(parseWebviewMessage(new Sneaky()), undefined);
  });

  it('describes rejected messages briefly for the log', () => {
    assert.strictEqual(describeRejected({ type: 'launchMissiles', payload: 'x'.repeat(1000) }), 'type "launchMissiles"');
    assert.strictEqual(describeRejected([1]), 'non-object (array)');
  });
});

describe('sidebar protocol: host → webview', () => {
  it('accepts a section with memory rows and keeps hostile text as data', () => {
    const hostile = { ...row, title: '<img src=x onerror=alert(1)>', why: ['[x](command:workbench.action.quit)'] };
    const msg = { type: 'section', section: 'relevant', state: { status: 'ready', items: [row, hostile] }, context: { file: 'src/a.ts', errors: 1 } };
    assert.deepStrictEqual(parseHostMessage(msg), msg);
  });

  it('rejects a section when any row is malformed, so the webview never renders half-valid data', () => {
    const broken = { ...row, confidence: 'high' };
    assert.strictEqual(parseHostMessage({ type: 'section', section: 'recent', state: { status: 'ready', items: [row, broken] } }), undefined);
    assert.strictEqual(parseHostMessage({ type: 'section', section: 'nowhere', state: { status: 'loading' } }), undefined);
    assert.strictEqual(parseHostMessage({ type: 'section', section: 'recent', state: { status: 'done' } }), undefined);
    const { title: _t, ...untitled } = row;
    assert.strictEqual(parseHostMessage({ type: 'section', section: 'recent', state: { status: 'ready', items: [untitled] } }), undefined);
  });

  it('accepts loading and error states', () => {
    assert.deepStrictEqual(parseHostMessage({ type: 'section', section: 'recent', state: { status: 'loading' } }),
      { type: 'section', section: 'recent', state: { status: 'loading' } });
    assert.deepStrictEqual(parseHostMessage({ type: 'episodes', state: { status: 'error', message: 'store locked' } }),
      { type: 'episodes', state: { status: 'error', message: 'store locked' } });
  });

  it('validates insights payloads deeply', () => {
    const data = {
      now: 10, totals: { memories: 1, episodes: 1, lessons: 0, rules: 0, facts: 0, constraints: 0 },
      weeks: [{ weekStart: 0, counts: { success: 1, partial: 0, failure: 0, abandoned: 0 } }],
      signatures: [{ signature: 'tsc:TS2322:x', label: 'x', count: 1 }],
      promotions: [{ at: 5, total: 1, to: 'pattern' }],
      timeSaved: { totalMs: 0, prevented: 0, unestimated: 0, rows: [] },
    };
    assert.deepStrictEqual(parseHostMessage({ type: 'insights', state: { status: 'ready', data } }), { type: 'insights', state: { status: 'ready', data } });
    const badWeek = { ...data, weeks: [{ weekStart: 0, counts: { success: '1', partial: 0, failure: 0, abandoned: 0 } }] };
    assert.strictEqual(parseHostMessage({ type: 'insights', state: { status: 'ready', data: badWeek } }), undefined);
    const badMaturity = { ...data, promotions: [{ at: 5, total: 1, to: 'god' }] };
    assert.strictEqual(parseHostMessage({ type: 'insights', state: { status: 'ready', data: badMaturity } }), undefined);
  });

  it('rejects non-finite numbers', () => {
    assert.strictEqual(parseHostMessage({ type: 'pendingForget', id: 'a', title: 't', deadline: Number.NaN }), undefined);
    assert.strictEqual(parseHostMessage({ type: 'init', view: 'memories', now: Infinity, captureAvailable: true }), undefined);
  });
});
