// The build enforces the layering (scripts/layering.mjs, used by every bundle in esbuild.mjs): each rule
// is broken once in a throwaway tree and the build must fail naming it; an allowed tree builds.
import * as assert from 'assert';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { repoRoot } from './buildCli';

describe('layering enforced by the build', function () {
  this.timeout(60_000);
  const root = repoRoot();
  const esbuild = createRequire(path.join(root, 'package.json'))('esbuild') as typeof import('esbuild');

  async function build(files: Record<string, string>, entry: string): Promise<string[]> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-layering-'));
    for (const [f, text] of Object.entries(files)) { fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true }); fs.writeFileSync(path.join(dir, f), text); }
    const { layering } = await import(pathToFileURL(path.join(root, 'scripts', 'layering.mjs')).href) as { layering(root: string): import('esbuild').Plugin };
    try {
      await esbuild.build({ entryPoints: [path.join(dir, entry)], bundle: true, write: false, platform: 'node', external: ['vscode'], logLevel: 'silent', plugins: [layering(dir)] });
      return [];
    } catch (e) {
      return ((e as { errors?: { text: string }[] }).errors ?? []).map(x => x.text);
    }
  }

  it('src/core may not import vscode, Node built-ins or the layers above it', async () => {
    const errors = await build({
      'src/core/a.ts': "import * as vscode from 'vscode';\nimport * as fs from 'fs';\nimport { s } from '../store/s';\nexport const x = [vscode, fs, s];\n",
      'src/store/s.ts': 'export const s = 1;\n',
    }, 'src/core/a.ts');
    assert.deepStrictEqual(errors.sort(), [
      "layering: src/core/a.ts imports 'vscode'; src/core is pure TypeScript",
      'layering: src/core/a.ts imports src/store/s (src/store is a layer above it); src/core is pure TypeScript',
      "layering: src/core/a.ts imports the Node built-in 'fs'; src/core is pure TypeScript",
    ]);
  });

  it('src/store may use Node but not vscode or src/vscode; a tree that keeps the rules builds', async () => {
    const bad = await build({ 'src/store/b.ts': "import { v } from '../vscode/v';\nexport const b = v;\n", 'src/vscode/v.ts': 'export const v = 1;\n' }, 'src/store/b.ts');
    assert.deepStrictEqual(bad, ['layering: src/store/b.ts imports src/vscode/v (src/vscode is a layer above it); src/store is Node-only']);
    const good = await build({
      'src/store/b.ts': "import * as fs from 'fs';\nimport { c } from '../core/c';\nexport const b = [fs, c];\n",
      'src/core/c.ts': 'export const c = 1;\n',
    }, 'src/store/b.ts');
    assert.deepStrictEqual(good, []);
  });

  it('src/views (shared with the webview) may use src/core only; the webview may use src/views but not src/vscode', async () => {
    const views = await build({
      'src/views/p.ts': "import * as vscode from 'vscode';\nimport * as fs from 'fs';\nimport { v } from '../vscode/v';\nimport { c } from '../core/c';\nexport const p = [vscode, fs, v, c];\n",
      'src/vscode/v.ts': 'export const v = 1;\n',
      'src/core/c.ts': 'export const c = 1;\n',
    }, 'src/views/p.ts');
    assert.deepStrictEqual(views.sort(), [
      "layering: src/views/p.ts imports 'vscode'; src/views is shared with the webview (a browser)",
      "layering: src/views/p.ts imports the Node built-in 'fs'; src/views is shared with the webview (a browser)",
      'layering: src/views/p.ts imports src/vscode/v (src/vscode is a layer above it); src/views is shared with the webview (a browser)',
    ].sort());
    const webview = await build({
      'media/src/main.ts': "import { p } from '../../src/views/p';\nimport { v } from '../../src/vscode/v';\nexport const m = [p, v];\n",
      'src/views/p.ts': "import { c } from '../core/c';\nexport const p = c;\n",
      'src/core/c.ts': 'export const c = 1;\n',
      'src/vscode/v.ts': 'export const v = 1;\n',
    }, 'media/src/main.ts');
    assert.deepStrictEqual(webview, ['layering: media/src/main.ts imports src/vscode/v (src/vscode is a layer above it); the webview runs in a browser']);
    const core = await build({ 'src/core/c.ts': "import { p } from '../views/p';\nexport const c = p;\n", 'src/views/p.ts': 'export const p = 1;\n' }, 'src/core/c.ts');
    assert.deepStrictEqual(core, ['layering: src/core/c.ts imports src/views/p (src/views is a layer above it); src/core is pure TypeScript']);
  });
});
