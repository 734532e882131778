// Copies the codicon font and stylesheet next to the webview bundle (dist/codicons/), so the
// webviews load them from the extension itself (localResourceRoots) and never from node_modules.
// Called by esbuild.mjs; also runnable on its own: node scripts/copy-codicons.mjs
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export function copyCodicons(outDir = join(root, 'dist', 'codicons')) {
  const src = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  mkdirSync(outDir, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(join(src, f), join(outDir, f));
  return outDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`codicons copied to ${copyCodicons()}`);
}
