// The import-cycle measure (scripts/dev/cycles.mjs, issue 11): it finds a cycle made only of type imports
// in a throwaway tree and exits 1 naming it, and our own sources have none.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { repoRoot } from './buildCli';

function runCycles(cwd: string, ...roots: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [path.join(repoRoot(), 'scripts', 'dev', 'cycles.mjs'), ...roots], { cwd, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('import cycles', function () {
  this.timeout(30_000);

  it('reports a cycle through type-only imports and re-exports, and exits 1', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-cycles-'));
    try {
      const files: Record<string, string> = {
        'src/api.ts': "import type { Services } from './services';\nexport interface Api { s: Services }\n",
        'src/services.ts': "// import { nothing } from './leaf';\nimport type { Api } from './api';\nexport class Services { api?: Api }\n",
        'src/embedder.ts': "export interface Embedder { id: string }\nexport { Hash } from './hash';\n",
        'src/hash.ts': "// import { nothing } from './leaf';\nimport type { Embedder } from './embedder';\nexport class Hash implements Embedder { id = 'h' }\n",
        'src/leaf.ts': "import { Hash } from './hash';\nexport const nothing = Hash;\n",
      };
      for (const [f, text] of Object.entries(files)) { fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true }); fs.writeFileSync(path.join(dir, f), text); }
      const { status, out } = runCycles(dir, 'src');
      assert.strictEqual(status, 1, out);
      assert.match(out, /cycle \(2 files in the component\): src\/api\.ts -\(type\)-> src\/services\.ts -\(type\)-> src\/api\.ts/);
      assert.match(out, /cycle \(2 files in the component\): src\/embedder\.ts -> src\/hash\.ts -\(type\)-> src\/embedder\.ts/);
      assert.match(out, /^2 cycle\(s\)$/m, 'a commented-out import or a one-way import counted as a cycle');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds none in src and media/src', () => {
    const { status, out } = runCycles(repoRoot());
    assert.strictEqual(status, 0, out);
    assert.match(out, /no import cycles/);
  });
});
