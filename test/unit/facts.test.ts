import * as assert from 'assert';
import { MemoryState } from '../../src/core/reduce';
import type { Fact } from '../../src/core/types';
import { workspaceIdOf } from '../../src/core/workspaceId';
import { classifyFact, factHistory, profile, resolveFactUpdate } from '../../src/core/facts';

const T0 = Date.UTC(2026, 2, 1);
let n = 0;
function fact(content: string, over: Partial<Fact> = {}): Fact {
  n++;
  return {
    id: `f${n}`, kind: 'fact', owner: { scope: 'workspace', workspace: 'w' }, createdAt: T0 + n, updatedAt: T0 + n, accessCount: 0,
    importance: 0.5, source: 'manual', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation', type: 'fact', content, ...over,
  };
}

/** Applies resolveFactUpdate through the real reducer, as the store does. */
function remember(state: MemoryState, f: Fact): void {
  const existing = state.all().filter((m): m is Fact => m.kind === 'fact');
  state.applyAll(resolveFactUpdate(f, existing));
}

describe('facts: classifyFact', () => {
  const cases: [string, string, string | undefined][] = [
    ['We use pnpm for installs', 'fact', 'packageManager'],
    ['이 저장소는 패키지 매니저로 yarn을 쓴다', 'fact', 'packageManager'],
    ['Tests run with vitest', 'fact', 'testRunner'],
    ['Always use 2 spaces for indentation', 'preference', 'codeStyle'],
    ['We decided to switch to Fastify', 'decision', 'framework'],
    ['The codebase is written in TypeScript', 'fact', 'language'],
    ['Answer in Korean please', 'fact', 'replyLanguage'],
    ['The staging database is reset every Sunday', 'fact', undefined],
    ['I prefer small pull requests', 'preference', undefined],
  ];
  for (const [text, type, key] of cases) {
    it(`${text} → ${type}${key ? `/${key}` : ''}`, () => {
      assert.deepStrictEqual(classifyFact(text), key ? { type, key } : { type });
    });
  }
});

describe('facts: profile (latest wins, history kept)', () => {
  it('a new value for a profile key supersedes the old one, which stays as history', () => {
    const s = new MemoryState();
    const a = fact('We use npm');
    const b = fact('We switched to pnpm as the package manager');
    remember(s, a);
    remember(s, b);
    const oldA = s.get(a.id) as Fact;
    const newB = s.get(b.id) as Fact;
    assert.strictEqual(oldA.supersededBy, b.id);
    assert.strictEqual(newB.supersedes, a.id);
    assert.strictEqual(newB.key, 'packageManager');
    const p = profile(s.all() as Fact[]);
    assert.strictEqual(p.packageManager.content, 'We switched to pnpm as the package manager');
    assert.deepStrictEqual(factHistory(newB, id => s.get(id) as Fact).map(f => f.content), ['We use npm']);
  });

  it('different keys do not touch each other', () => {
    const s = new MemoryState();
    remember(s, fact('We use yarn'));
    remember(s, fact('Tests run with jest'));
    assert.deepStrictEqual(Object.keys(profile(s.all() as Fact[])).sort(), ['packageManager', 'testRunner']);
    assert.ok((s.all() as Fact[]).every(f => !f.supersededBy));
  });

  it('another workspace\'s profile is not superseded', () => {
    const s = new MemoryState();
    const a = fact('We use npm', { owner: { scope: 'workspace', workspace: 'other' } });
    remember(s, a);
    remember(s, fact('We use pnpm'));
    assert.strictEqual((s.get(a.id) as Fact).supersededBy, undefined);
  });

  it('a profile filed under the folder\'s old name is superseded by the same folder, not by a same-named one elsewhere', () => {
    const here = workspaceIdOf('file:///home/a/w', 'w');
    const s = new MemoryState();
    const a = fact('We use npm'); // workspace 'w': the folder name, as ids were before they carried a hash
    remember(s, a);
    remember(s, fact('We use pnpm', { owner: { scope: 'workspace', workspace: here } }));
    assert.ok((s.get(a.id) as Fact).supersededBy, 'the old-name fact is this folder\'s');
    const b = fact('We use yarn', { owner: { scope: 'workspace', workspace: workspaceIdOf('file:///home/b/w', 'w') } });
    remember(s, b);
    remember(s, fact('We use bun', { owner: { scope: 'workspace', workspace: here } }));
    assert.strictEqual((s.get(b.id) as Fact).supersededBy, undefined, 'another folder named w keeps its own profile');
  });
});

describe('facts: collection (deduplicated, same subject supersedes)', () => {
  it('a word-for-word repeat is not stored twice', () => {
    const s = new MemoryState();
    const a = fact('The staging database is reset every Sunday');
    remember(s, a);
    remember(s, fact('the staging database is reset every sunday.'));
    assert.strictEqual(s.size, 1);
    assert.strictEqual(s.get(a.id)!.accessCount, 1, 'the repeat counts as seeing it again');
  });

  it('a newer fact on the same subject supersedes the older', () => {
    const s = new MemoryState();
    const a = fact('The staging database is reset every Sunday night');
    const b = fact('The staging database is reset every Monday night');
    remember(s, a);
    remember(s, b);
    assert.strictEqual((s.get(a.id) as Fact).supersededBy, b.id);
  });

  it('same topic supersedes even when the words differ', () => {
    const s = new MemoryState();
    const a = fact('Deploys go out on Fridays', { topic: 'release day' });
    const b = fact('Ship on Tuesdays from now on', { topic: 'Release day' });
    remember(s, a);
    remember(s, b);
    assert.strictEqual((s.get(a.id) as Fact).supersededBy, b.id);
  });

  it('unrelated facts are both kept', () => {
    const s = new MemoryState();
    remember(s, fact('The staging database is reset every Sunday'));
    remember(s, fact('Feature flags live in config/flags.yaml'));
    assert.strictEqual(s.size, 2);
    assert.ok((s.all() as Fact[]).every(f => !f.supersededBy));
  });
});
