// The one renderer of a recalled memory for people (core/render/memoryAnswer.ts): the hover, @memory chat
// and the CLI say the same fields with their own caps and format, and hostile memory text stays inert.
import * as assert from 'assert';
import { fromBundle } from '../../src/core/l10n';
import { answerFields, renderMemoryAnswer, SURFACES } from '../../src/core/render/memoryAnswer';
import type { Episode, Memory, RecallResult } from '../../src/core/types';
import { aLesson } from './memories';

const result = (memory: Memory, over: Partial<RecallResult> = {}): RecallResult => ({ memory, score: 0.8, reasons: [{ kind: 'signature', code: 'TS2322' }], ...over });
const lesson = aLesson({ id: 'les-1', errorText: "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.", rootCause: 'env values are strings', fixApproach: 'parse with Number() in src/env.ts', scope: ['src/**'] });

describe('memory answer renderer: one for the hover, chat and the CLI', () => {
  it('every surface says the same fields, in the same order', () => {
    for (const surface of Object.values(SURFACES)) {
      const text = renderMemoryAnswer(result(lesson), surface);
      const cause = text.indexOf(surface.format === 'markdown' ? 'env values are strings' : 'Root cause: env values are strings');
      const fix = text.indexOf(surface.format === 'markdown' ? 'parse with Number\\(\\)' : 'Fix: parse with Number()');
      assert.ok(cause >= 0 && fix > cause, `${surface.format}/${surface.maxField}: ${text}`);
    }
    const episode: Episode = {
      id: 'ep-1', kind: 'episode', owner: { scope: 'workspace' }, createdAt: 0, updatedAt: 0, accessCount: 2, importance: 0.5, source: 'terminal',
      tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation', trigger: 'npm test failed', summary: 'npm test failed on the cart',
      startedAt: 0, outcome: 'success', steps: [], files: [], lessonsLearned: [], resolution: 'bumped the tax constant',
    } as unknown as Episode;
    assert.deepStrictEqual(answerFields(episode).map(f => f.label), ['Last time', 'Fix']);
  });

  it('caps fields per surface: a hover is a glance, chat a read, a terminal prints more', () => {
    const long = aLesson({ rootCause: 'x'.repeat(3000), fixApproach: 'f' });
    const cause = (s: string) => s.split(/\n/).find(l => l.includes('xxx'))!.trim().replace(/^.*?:\**\s*/, '').length;
    assert.ok(cause(renderMemoryAnswer(result(long), SURFACES.hover)) <= 300);
    assert.ok(cause(renderMemoryAnswer(result(long), SURFACES.chat)) <= 400);
    assert.ok(cause(renderMemoryAnswer(result(long), SURFACES.cli)) >= 2999);
  });

  it('in Markdown hostile text is escaped: no link, image, HTML or command can form', () => {
    const hostile = aLesson({ rootCause: '<img src=x onerror=alert(1)> [click](command:workbench.action.quit) ![i](https://evil.example/p.png)', fixApproach: '# heading **bold**' });
    for (const surface of [SURFACES.hover, SURFACES.chat]) {
      const md = renderMemoryAnswer(result(hostile), surface);
      assert.ok(!/(^|[^\\])</.test(md) && md.includes('\\<img'), md);
      assert.ok(!/(^|[^\\])\]\(/.test(md.replace(/\]\(command:engram\./g, '')), `a link formed: ${md}`);
      assert.ok(!md.includes('https://evil'), md);
    }
    // A terminal shows the text as written (nothing renders there).
    assert.ok(renderMemoryAnswer(result(hostile), SURFACES.cli).includes('[click](command:workbench.action.quit)'));
  });

  it('says what the surface shows: warnings, the number, the facts, translated', () => {
    const flagged = aLesson({ ...lesson, flagged: ['imperative'] });
    const chat = renderMemoryAnswer(result(flagged, { weak: true }), SURFACES.chat, { n: 3, stale: 'src/env.ts is gone' });
    assert.match(chat, /^3\\\. \*\*/);
    assert.match(chat, /⚠ Flagged/);
    assert.match(chat, /⚠ Possibly stale\\: src\\\/env\\\.ts is gone/);
    assert.match(chat, /why\\: same signature TS2322/);
    const hover = renderMemoryAnswer(result(flagged), SURFACES.hover);
    assert.match(hover, /\$\(warning\) Flagged/);
    assert.match(hover, /seen once/);
    assert.ok(!/why/.test(hover), 'the hover does not list reasons');
    const cli = renderMemoryAnswer(result(flagged, { weak: true }), SURFACES.cli, { n: 1 });
    assert.match(cli, /^1\. \[lesson, observation\] .*\(les-1, score 0\.80, weak match\)/);
    const ko = renderMemoryAnswer(result(lesson), SURFACES.hover, { t: fromBundle({ 'Root cause': '근본 원인' }) });
    assert.match(ko, /\*\*근본 원인:\*\*/);
  });
});
