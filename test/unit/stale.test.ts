import * as assert from 'assert';
import { checkStale, extractRefs, memoriesNaming, StaleCache, type StaleProbe } from '../../src/core/stale';
import { cleanupCandidates } from '../../src/core/expiry';
import { scopeMatches } from '../../src/core/scope';
import type { Episode, Fact, Lesson, Memory } from '../../src/core/types';
import { aLesson } from './memories';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

function lesson(over: Partial<Lesson> = {}): Lesson {
  return aLesson({ owner: { scope: 'workspace', workspace: 'w' }, createdAt: NOW, updatedAt: NOW, source: 'captured', errorSignature: 'sig', errorCategory: 'x', ...over });
}

/** A probe over an in-memory file list, counting calls. */
function probe(files: string[], symbols?: Record<string, boolean | undefined>): StaleProbe & { calls: number } {
  const p = {
    calls: 0,
    async fileExists(rel: string) { p.calls++; return files.includes(rel) || files.some(f => f.startsWith(`${rel}/`)); },
    async globHasMatch(glob: string) {
      p.calls++;
      return files.some(f => scopeMatches([glob], f));
    },
    symbolExists: symbols ? async (n: string) => { p.calls++; return symbols[n]; } : undefined,
  };
  return p;
}

describe('stale: references a memory names', () => {
  it('finds relative paths in the root cause and fix, and scope globs; not in the error text', () => {
    const m = lesson({
      scope: ['packages/web/**', 'src/legacy'],
      errorText: "src/api/client.ts(12,5): error TS2339: Property 'fetchUser' does not exist",
      rootCause: 'the `UserService` in ./src/services/user.ts was renamed',
      fixApproach: 'import from packages/web/src/index.ts; see https://example.com/docs/a.ts and node_modules/foo/index.js',
    });
    const refs = extractRefs(m);
    // The error's own file is one place the error happened, not what the lesson depends on.
    assert.deepStrictEqual(refs.files, ['packages/web/src/index.ts', 'src/services/user.ts']);
    assert.deepStrictEqual(refs.globs, ['packages/web/**', 'src/legacy']);
    // fetchUser is named by the error (missing by nature), so only the explanation's symbol counts.
    assert.deepStrictEqual(refs.symbols, ['UserService']);
  });

  it('takes declarations (not paths) from an episode\'s code excerpt, and paths from its lessons', () => {
    const e = {
      id: 'e1', kind: 'episode', owner: { scope: 'workspace' }, createdAt: NOW, updatedAt: NOW, accessCount: 0, importance: 0.5,
      source: 'captured', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
      startedAt: NOW, trigger: 'boom in tmp/x/y.py', steps: [], toolsUsed: [], outcome: 'success', lessonsLearned: ['settings live in lib/conf/settings.py'],
      files: ['lib/a.py'], sourceIds: [], summary: 'fixed', codeBefore: 'import "./lib/util.py"\ndef parse_config(path):\n    return load(path)\nconst x = 1',
    } as Episode;
    const refs = extractRefs(e);
    assert.deepStrictEqual(refs.files, ['lib/conf/settings.py']);
    assert.deepStrictEqual(refs.symbols, ['parse_config']);
  });
});

describe('stale: checkStale', () => {
  it('reports a named file that was deleted', async () => {
    const m = lesson({ rootCause: 'src/config/paths.ts exports the alias table', errorText: 'dist/tmp/gone.js:3 TypeError' });
    assert.strictEqual(await checkStale(m, probe(['src/config/paths.ts']), 1000), undefined);
    assert.strictEqual(await checkStale(m, probe(['src/other.ts']), 1000), 'src/config/paths.ts no longer exists');
  });

  it('is not stale while any named file remains', async () => {
    const m = lesson({ rootCause: 'moved from src/old/a.ts to src/new/a.ts' });
    assert.strictEqual(await checkStale(m, probe(['src/new/a.ts']), 1000), undefined);
  });

  it('reports a scope that matches nothing any more', async () => {
    const m = lesson({ scope: ['packages/legacy/**'] });
    assert.strictEqual(await checkStale(m, probe(['packages/web/a.ts']), 1000), 'its scope packages/legacy/** matches no file any more');
    assert.strictEqual(await checkStale(m, probe(['packages/legacy/x/y.ts']), 1000), undefined);
  });

  it('reports symbols only when every one is known to be gone', async () => {
    const m = lesson({ fixApproach: 'call `normaliseUrl` before `fetchJson`' });
    assert.strictEqual(await checkStale(m, probe([], { normaliseUrl: false, fetchJson: false }), 1000), 'the symbols fetchJson, normaliseUrl no longer exist');
    assert.strictEqual(await checkStale(m, probe([], { normaliseUrl: false, fetchJson: true }), 1000), undefined);
    assert.strictEqual(await checkStale(m, probe([], { normaliseUrl: false, fetchJson: undefined }), 1000), undefined, 'unknown is not missing');
    assert.strictEqual(await checkStale(m, probe([]), 1000), undefined, 'no symbol provider: cannot tell');
  });

  it('gives up (not stale) when the probe is slower than the budget', async () => {
    const m = lesson({ rootCause: 'src/gone.ts' });
    const slow: StaleProbe = { fileExists: () => new Promise(r => setTimeout(() => r(false), 200)), globHasMatch: async () => false };
    assert.strictEqual(await checkStale(m, slow, 20), undefined);
  });

  it('memories naming nothing are never stale and cost no probe call', async () => {
    const p = probe([]);
    assert.strictEqual(await checkStale(lesson({ rootCause: 'the cache was cold' }), p, 1000), undefined);
    assert.strictEqual(p.calls, 0);
  });
});

describe('stale: cache and deletions', () => {
  it('caches by memory revision and drops entries naming a deleted file', () => {
    const cache = new StaleCache(60_000);
    const a = lesson({ id: 'a', rootCause: 'src/a/x.ts' });
    const b = lesson({ id: 'b', rootCause: 'src/b/y.ts' });
    cache.set(a, undefined, NOW);
    cache.set(b, undefined, NOW);
    assert.deepStrictEqual(cache.get(a, NOW + 1), { hit: true, reason: undefined });
    assert.deepStrictEqual(cache.get({ ...a, updatedAt: NOW + 5 }, NOW + 1), { hit: false }, 'a new revision is checked again');
    assert.deepStrictEqual(cache.get(a, NOW + 60_001), { hit: false }, 'entries expire');
    assert.deepStrictEqual(cache.invalidate('src/a'), ['a']);
    assert.deepStrictEqual(cache.get(a, NOW + 1), { hit: false });
    assert.deepStrictEqual(cache.get(b, NOW + 1), { hit: true, reason: undefined });
  });

  it('finds the memories that name a deleted file or folder', () => {
    const ms: Memory[] = [lesson({ id: 'a', rootCause: 'see src/a/x.ts' }), lesson({ id: 'b', scope: ['src/a/**'] }), lesson({ id: 'c', rootCause: 'src/c.ts' })];
    assert.deepStrictEqual(memoriesNaming(ms, 'src/a/x.ts').map(m => m.id), ['a']);
    assert.deepStrictEqual(memoriesNaming(ms, 'src/a').map(m => m.id), ['a', 'b']);
  });
});

describe('expiry: cleanupCandidates', () => {
  const policy = { ttlDays: 365, minAgeDays: 90, minAccesses: 2, minImportance: 0.3 };
  const old = (over: Partial<Lesson>) => lesson({ createdAt: NOW - 120 * DAY, updatedAt: NOW - 120 * DAY, ...over });

  it('expires memories past their expiresAt, with the date', () => {
    const c = cleanupCandidates([lesson({ id: 'x', expiresAt: NOW - DAY }), lesson({ id: 'y', expiresAt: NOW + DAY })], NOW, policy);
    assert.deepStrictEqual(c, [{ id: 'x', reason: 'expired on 2026-05-31' }]);
  });

  it('expires memories unused for longer than the retention period', () => {
    const m = lesson({ id: 'x', createdAt: NOW - 400 * DAY, updatedAt: NOW - 400 * DAY, lastAccessedAt: NOW - 370 * DAY, accessCount: 9, importance: 0.9 });
    assert.deepStrictEqual(cleanupCandidates([m], NOW, policy).map(c => c.reason), ['not used for 370 days (retention 365 days)']);
    assert.deepStrictEqual(cleanupCandidates([{ ...m, lastAccessedAt: NOW - 10 * DAY }], NOW, policy), []);
    assert.deepStrictEqual(cleanupCandidates([m], NOW, { ...policy, ttlDays: 0 }), [], 'ttl 0 keeps forever');
  });

  it('cleans old, unused, unimportant memories and keeps any one that is not all three', () => {
    const base = old({ id: 'x', accessCount: 1, importance: 0.1 });
    assert.strictEqual(cleanupCandidates([base], NOW, policy).length, 1);
    assert.match(cleanupCandidates([base], NOW, policy)[0].reason, /older than 90 days, recalled 1 time, importance 0.10/);
    assert.deepStrictEqual(cleanupCandidates([{ ...base, createdAt: NOW - 30 * DAY, updatedAt: NOW - 30 * DAY }], NOW, policy), [], 'young');
    assert.deepStrictEqual(cleanupCandidates([{ ...base, accessCount: 2 }], NOW, policy), [], 'used');
    assert.deepStrictEqual(cleanupCandidates([{ ...base, importance: 0.3 }], NOW, policy), [], 'important');
  });

  it('never touches pinned memories, and constraints only by explicit expiry', () => {
    const stale = old({ accessCount: 0, importance: 0, lastAccessedAt: NOW - 900 * DAY, createdAt: NOW - 900 * DAY, updatedAt: NOW - 900 * DAY });
    assert.deepStrictEqual(cleanupCandidates([{ ...stale, id: 'p', pinned: true, expiresAt: NOW - DAY }], NOW, policy), []);
    assert.deepStrictEqual(cleanupCandidates([{ ...stale, id: 'c', maturity: 'constraint' }], NOW, policy), []);
    assert.strictEqual(cleanupCandidates([{ ...stale, id: 'c', maturity: 'constraint', expiresAt: NOW - DAY }], NOW, policy).length, 1);
  });

  it('keeps superseded facts as history', () => {
    const f = { ...old({ accessCount: 0, importance: 0 }), kind: 'fact', content: 'npm', type: 'fact', supersededBy: 'f2' } as unknown as Fact;
    assert.deepStrictEqual(cleanupCandidates([f], NOW, policy), []);
  });
});
