import * as assert from 'assert';
import { extractPatterns, patternLesson } from '../../src/core/patterns';
import type { Episode, EpisodeStep, Outcome } from '../../src/core/types';

const T0 = Date.UTC(2026, 3, 1);
const MODULE_SIG = "tsc:TS2307:cannot find module <str> or its corresponding type declarations";
const ASSIGN_SIG = 'tsc:TS2322:type <str> is not assignable to type <str>';

/** `resolution` here is what fixed it (the captured episode's fixAction); `fixKey` its identity. */
function ep(id: string, over: { sig?: string; lessons?: string[]; resolution?: string; outcome?: Outcome; steps?: EpisodeStep[]; files?: string[]; domain?: string; at?: number; fixKey?: string; boilerplate?: string }): Episode {
  return {
    id, kind: 'episode', owner: { scope: 'workspace', workspace: 'w' }, createdAt: T0, updatedAt: T0, accessCount: 0, importance: 0.5,
    source: 'captured', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    startedAt: over.at ?? T0, trigger: 'error', domain: over.domain ?? 'typescript', steps: over.steps ?? [], toolsUsed: ['tsc'],
    outcome: over.outcome ?? 'success', resolution: over.boilerplate ?? over.resolution, lessonsLearned: over.lessons ?? [],
    files: over.files ?? ['packages/web/src/a.ts'], sourceIds: [], summary: 's', errorSignature: over.sig ?? MODULE_SIG,
    ...(over.resolution ? { fixAction: over.resolution } : {}), ...(over.fixKey ? { fixKey: over.fixKey } : {}),
  };
}

const aliasLesson = 'the path alias @app was missing from tsconfig paths';
const aliasFix = 'Add "@app/*" to compilerOptions.paths in tsconfig.json';

function aliasEpisodes(): Episode[] {
  return [
    ep('e1', { lessons: [aliasLesson], resolution: aliasFix, at: T0 + 1, steps: [{ action: 'npm install', result: 'same error', wasEffective: false }] }),
    ep('e2', { lessons: ['tsconfig paths lacked the @app alias'], resolution: aliasFix, at: T0 + 2, files: ['packages/web/src/b.ts'], steps: [{ action: 'npm install', result: 'same error', wasEffective: false }] }),
    ep('e3', { lessons: [aliasLesson], resolution: 'add the @app alias to tsconfig paths', at: T0 + 3 }),
  ];
}

describe('patterns: extractPatterns', () => {
  it('turns three episodes with the same family and cause into one candidate with evidence', () => {
    const [c, ...rest] = extractPatterns(aliasEpisodes());
    assert.strictEqual(rest.length, 0);
    assert.strictEqual(c.domain, 'typescript');
    assert.strictEqual(c.family, 'tsc:module');
    assert.deepStrictEqual(c.evidence, ['e1', 'e2', 'e3']);
    assert.strictEqual(c.recommendedAction, aliasFix, 'the fix used most often');
    assert.strictEqual(c.cause, aliasLesson);
    assert.deepStrictEqual(c.avoid, ['npm install'], 'tried twice without effect');
    assert.strictEqual(c.successRate, 1);
  });

  it('needs at least minGroup episodes', () => {
    assert.deepStrictEqual(extractPatterns(aliasEpisodes().slice(0, 2)), []);
    assert.strictEqual(extractPatterns(aliasEpisodes().slice(0, 2), 2).length, 1);
  });

  it('does not mix families or unrelated causes', () => {
    const eps = [
      ...aliasEpisodes().slice(0, 2),
      ep('x1', { sig: ASSIGN_SIG, lessons: [aliasLesson], resolution: aliasFix }),
      ep('x2', { lessons: ['the package was not installed in the workspace'], resolution: 'run pnpm add zod in packages/web' }),
    ];
    assert.deepStrictEqual(extractPatterns(eps), []);
  });

  it('gives no advice when nothing worked', () => {
    const failed = aliasEpisodes().map(e => ({ ...e, outcome: 'failure' as const }));
    assert.deepStrictEqual(extractPatterns(failed), []);
  });

  it('is deterministic under input order', () => {
    const eps = [...aliasEpisodes(), ep('e4', { lessons: [aliasLesson], resolution: aliasFix, at: T0 + 4 })];
    const a = extractPatterns(eps);
    const b = extractPatterns([...eps].reverse());
    assert.deepStrictEqual(a, b);
  });

  it('a candidate becomes a pattern-maturity lesson scoped to the episodes\' files', () => {
    const [c] = extractPatterns(aliasEpisodes());
    const l = patternLesson(c, { id: 'p1', now: T0 + 10, owner: { scope: 'workspace', workspace: 'w' } });
    assert.strictEqual(l.maturity, 'pattern');
    assert.deepStrictEqual(l.evidence, ['e1', 'e2', 'e3']);
    assert.strictEqual(l.errorSignature, MODULE_SIG);
    assert.deepStrictEqual(l.scope, ['packages/web/src/**']);
    assert.match(l.fixApproach, /did not help: npm install/);
  });

  it('never recommends the resolution boilerplate: episodes with nothing observed give no advice', () => {
    const eps = [1, 2, 3].map(i => ep(`b${i}`, { lessons: ['Unexplained: no fix was observed.'], boilerplate: i % 2 ? 'the error is gone' : '`python app.py` passed', at: T0 + i }));
    assert.deepStrictEqual(extractPatterns(eps), []);
  });

  it('groups episodes by what fixed them and recommends that fix', () => {
    const PY = 'python:ModuleNotFoundError:no module named <id>';
    const pip = (i: number) => ep(`p${i}`, {
      sig: PY, domain: 'terminal:python', at: T0 + i, boilerplate: '`python app.py` passed', fixKey: 'cmd:pip install requests',
      lessons: ['Ran `pip install requests`, then `python app.py` passed.'], resolution: 'Ran `pip install requests`, then `python app.py` passed.',
    });
    const other = ep('o1', { sig: PY, domain: 'terminal:python', at: T0 + 9, fixKey: 'cmd:pip install numpy', lessons: ['Ran `pip install numpy`.'], resolution: 'Ran `pip install numpy`.' });
    const [c, ...rest] = extractPatterns([pip(1), other, pip(2), pip(3)]);
    assert.strictEqual(rest.length, 0);
    assert.deepStrictEqual(c.evidence, ['p1', 'p2', 'p3']);
    assert.strictEqual(c.recommendedAction, 'Ran `pip install requests`, then `python app.py` passed.');
  });
});
