// docs/ARCHITECTURE.md names every source file, and names none that is gone: its per-layer tables are the
// map of the tree, and this keeps them from drifting (issue 11 found RecallDeps, compact() and
// HashEmbedder described where they no longer were). A folder entry (`extract/`) covers its files.
import * as assert from 'assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

const root = process.cwd();
const doc = readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');

function filesUnder(dir: string, base = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, base))) {
    const rel = base ? `${base}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) out.push(...filesUnder(dir, rel));
    else if (name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** The backticked names in the section `## src/<layer> …`, up to the next `## `. */
function namesIn(layer: string): string[] {
  const start = doc.search(new RegExp(`^## src/${layer}\\b`, 'm'));
  assert.ok(start >= 0, `docs/ARCHITECTURE.md has no "## src/${layer}" section`);
  const rest = doc.slice(start + 3);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/`([\w./-]+(?:\.ts|\/))`/g)].map(m => m[1]);
}

const LAYERS = readdirSync(join(root, 'src')).filter(n => statSync(join(root, 'src', n)).isDirectory());

describe('docs/ARCHITECTURE.md describes the tree as it is', () => {
  for (const layer of LAYERS) {
    it(`src/${layer}: every file is in its table, and every file in its table exists`, () => {
      const dir = join(root, 'src', layer);
      // Names with a root folder (`src/core/x.ts` in the store's table, `media/src/…`, `test/…`) point elsewhere.
      const names = namesIn(layer).filter(n => !/^(?:src|media|test)\//.test(n));
      const folders = names.filter(n => n.endsWith('/'));
      const missing = filesUnder(dir).filter(f => !names.includes(f) && !folders.some(d => f.startsWith(d)));
      assert.deepStrictEqual(missing, [], `src/${layer} files the doc does not name`);
      const gone = names.filter(n => !existsSync(join(dir, n)));
      assert.deepStrictEqual(gone, [], `names in the src/${layer} table that do not exist`);
    });
  }

  it('every entry point directly under src/ is named', () => {
    const entries = readdirSync(join(root, 'src')).filter(n => n.endsWith('.ts'));
    assert.ok(entries.length > 0);
    assert.deepStrictEqual(entries.filter(n => !doc.includes(`src/${n}`)), []);
  });
});
