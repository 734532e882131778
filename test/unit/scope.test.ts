import * as assert from 'assert';
import { narrowestGlobs, scopeMatches, scopeSpecificity, toWorkspaceRelative } from '../../src/core/scope';

describe('scope', () => {
  it('empty scope applies everywhere; no file means no filter', () => {
    assert.ok(scopeMatches([], 'any/file.ts'));
    assert.ok(scopeMatches(['packages/web/**'], undefined));
  });

  it('matches globs against workspace-relative files', () => {
    assert.ok(scopeMatches(['packages/web/**'], 'packages/web/src/app.tsx'));
    assert.ok(!scopeMatches(['packages/web/**'], 'packages/api/src/app.ts'));
    assert.ok(scopeMatches(['**/*.py'], 'tools/gen.py'));
    assert.ok(scopeMatches(['packages/web'], 'packages/web/src/a.ts'), 'a bare folder covers what is under it');
    assert.ok(scopeMatches(['packages/web/**'], 'packages\\web\\src\\a.ts'), 'backslashes are normalised');
    assert.ok(scopeMatches(['.github/**'], '.github/workflows/ci.yml'), 'dot folders match');
  });

  it('a tighter glob is more specific than a looser one for the same file', () => {
    const f = 'packages/web/src/app.tsx';
    assert.ok(scopeSpecificity(['packages/web/src/**'], f) > scopeSpecificity(['packages/web/**'], f));
    assert.ok(scopeSpecificity(['packages/web/**'], f) > scopeSpecificity(['packages/**'], f));
    assert.ok(scopeSpecificity(['packages/**'], f) > scopeSpecificity(['**'], f));
    assert.strictEqual(scopeSpecificity([], f), 0);
    assert.strictEqual(scopeSpecificity(['packages/api/**'], f), 0, 'a glob that does not match adds nothing');
  });

  it('narrowestGlobs finds the common folder of each group of files', () => {
    assert.deepStrictEqual(narrowestGlobs(['packages/web/src/a.ts', 'packages/web/src/b/c.ts']), ['packages/web/src/**']);
    assert.deepStrictEqual(narrowestGlobs(['packages/web/a.ts', 'tools/x.py']).sort(), ['packages/web/**', 'tools/**']);
    assert.deepStrictEqual(narrowestGlobs(['README.md']), ['**']);
    // What `npx jest -u` rewrites (jest-snapshot-update): the snapshot stands for its test's folder.
    assert.deepStrictEqual(narrowestGlobs(['src/__snapshots__/badge.test.js.snap']), ['src/**']);
    assert.deepStrictEqual(narrowestGlobs(['__snapshots__/label.test.js.snap']), ['**']);
    assert.deepStrictEqual(narrowestGlobs([]), []);
  });

  it('toWorkspaceRelative strips a root, and refuses files outside it', () => {
    assert.strictEqual(toWorkspaceRelative('/repo/packages/web/a.ts', ['/repo']), 'packages/web/a.ts');
    assert.strictEqual(toWorkspaceRelative('C:\\repo\\src\\a.ts', ['c:\\Repo']), 'src/a.ts');
    assert.strictEqual(toWorkspaceRelative('/elsewhere/a.ts', ['/repo']), undefined);
    assert.strictEqual(toWorkspaceRelative('src/a.ts', ['/repo']), 'src/a.ts');
  });
});
