// What a sidebar row says about a memory, and what "Copy as markdown" puts on the clipboard.
import * as assert from 'assert';
import type { Episode, HistoryEntry, Lesson, Memory } from '../../src/core/types';
import { nextMaturity, toDetails, toMarkdown, toMemoryView, type MemoryLookup } from '../../src/views/memoriesModel';

function base(id: string) {
  return {
    id, owner: { scope: 'workspace' as const }, createdAt: 1_000, updatedAt: 2_000, accessCount: 0, importance: 0.5,
    source: 'captured' as const, tags: [], scope: ['packages/web/**'], confidence: { alpha: 4, beta: 2 }, maturity: 'pattern' as const,
  };
}
const episode: Episode = {
  ...base('e1'), kind: 'episode', startedAt: Date.UTC(2026, 10, 1), trigger: 'TS2307', outcome: 'success', toolsUsed: [], lessonsLearned: [],
  files: ['packages/web/src/app.ts'], sourceIds: [], summary: 'Fixed the alias', steps: [{ action: 'extend root tsconfig', result: 'passes', wasEffective: true }],
};
const lesson: Lesson = {
  ...base('l1'), kind: 'lesson', errorSignature: 'tsc:TS2307:x', errorText: "Cannot find module '@app/shared'\n```\n<img src=x onerror=alert(1)>",
  errorCategory: 'module', stack: [], rootCause: 'tsconfig does not extend the root', fixApproach: 'add "extends"', evidence: ['e1', 'gone'],
};
const history: Record<string, HistoryEntry[]> = { l1: [{ type: 'recorded', source: 'captured', at: 1_000, detail: 'recorded (captured)' }, { type: 'feedback', outcome: 'prevented', at: 1_500, detail: 'prevented' }] };
const store: MemoryLookup = { get: id => ({ e1: episode, l1: lesson } as Record<string, Memory>)[id], history: id => history[id] ?? [] };

describe('sidebar view model', () => {
  it('shows the posterior mean as a percentage with the outcomes and evidence behind it', () => {
    const v = toMemoryView(lesson, ['same signature']);
    assert.strictEqual(v.confidence, 67); // 4 / (4 + 2)
    assert.deepStrictEqual([v.helped, v.notHelped, v.evidence], [3, 1, 2]);
    assert.deepStrictEqual(v.why, ['same signature']);
    assert.strictEqual(v.title, "Cannot find module '@app/shared'");
    const fresh = toMemoryView({ ...episode, confidence: { alpha: 1, beta: 1 } });
    assert.deepStrictEqual([fresh.confidence, fresh.evidence, fresh.outcome], [50, 0, 'success']);
  });

  it('a step whose run exited non-zero is never drawn as a success, whatever the episode says (issue 17)', () => {
    const ep = { ...episode, steps: [{ action: 'run npm run build', result: "exit 2: Type 'string' is not assignable to type 'number'.", wasEffective: true }, { action: 'run npm run build', result: 'passed', wasEffective: true }] };
    const d = toDetails({ ...lesson, evidence: [ep.id] }, { get: id => (id === ep.id ? ep : undefined), history: () => [] });
    assert.deepStrictEqual(d.episodes[0].steps.map(s => s.effective), [false, true]);
  });

  it('marks quarantined memories with the reason', () => {
    assert.strictEqual(toMemoryView({ ...lesson, quarantined: { reason: 'file deleted', at: 5 } }).quarantine, 'file deleted');
  });

  it('details carry root cause, fix, source episodes with their steps, files and history; missing evidence is skipped', () => {
    const d = toDetails(lesson, store);
    assert.strictEqual(d.rootCause, 'tsconfig does not extend the root');
    assert.deepStrictEqual(d.episodes.map(e => e.id), ['e1']);
    assert.strictEqual(d.episodes[0].steps[0].effective, true);
    assert.deepStrictEqual(d.files, ['packages/web/src/app.ts']);
    assert.deepStrictEqual(d.history.map(h => h.type), ['recorded', 'feedback']);
  });

  it('markdown fences the error text with a fence longer than any backtick run inside it', () => {
    const md = toMarkdown(lesson, store);
    assert.ok(md.includes('````\nCannot find module'), md);
    assert.ok(md.includes('<img src=x onerror=alert(1)>\n````'), 'the hostile line stays inside the fence');
    assert.ok(md.includes('**Root cause**') && md.includes('add "extends"'));
    assert.ok(md.startsWith("### Cannot find module '@app/shared'\n"));
    const hostile = toMarkdown({ ...lesson, rootCause: '<script>x</script> [go](command:workbench.action.quit)' }, store);
    assert.ok(hostile.includes('&lt;script&gt;x&lt;/script&gt; \\[go\\](command:workbench.action.quit)'), hostile);
    assert.ok(md.includes('- 2026-11-01 success: Fixed the alias'));
  });

  it('promotion goes one step up the ladder and stops at constraint', () => {
    assert.strictEqual(nextMaturity(lesson), 'rule');
    assert.strictEqual(nextMaturity({ ...lesson, maturity: 'constraint' }), undefined);
  });
});
