// Builds src/cli.ts exactly as esbuild.mjs builds dist/cli.js, but into a private folder, so CLI tests
// neither depend on the rest of the tree compiling nor race a concurrent `node esbuild.mjs`.
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';

/** The repository root (where src/cli.ts is), found from this file whether run from out/ or a temp bundle. */
export function repoRoot(): string {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) if (fs.existsSync(path.join(d, 'src', 'cli.ts'))) return d;
  return process.cwd();
}

/**
 * Returns the path of a freshly built cli.js in a new temp folder named after `prefix`. With
 * ENGRAM_TEST_CLI set, that bundle instead: the same tests run against another build (say main's, to see
 * a new test fail there before the change that makes it pass).
 */
export async function buildCli(prefix: string): Promise<string> {
  if (process.env.ENGRAM_TEST_CLI) return path.resolve(process.env.ENGRAM_TEST_CLI);
  const root = repoRoot();
  const cli = path.join(fs.mkdtempSync(path.join(os.tmpdir(), prefix)), 'cli.js');
  // Resolved from the repo: the test bundle may run from a temp folder with no node_modules beside it.
  const esbuild = createRequire(path.join(root, 'package.json'))('esbuild') as typeof import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'src/cli.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outfile: cli, logLevel: 'error', external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp', 'pg', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'],
    nodePaths: [path.join(root, 'node_modules')], alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  });
  return cli;
}

/** Builds src/hookMain.ts as dist/hook.js is built, beside `cli` (it loads cli.js from its own folder). */
export async function buildHook(cli: string): Promise<string> {
  const root = repoRoot();
  const hook = path.join(path.dirname(cli), 'hook.js');
  const esbuild = createRequire(path.join(root, 'package.json'))('esbuild') as typeof import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'src/hookMain.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outfile: hook, logLevel: 'error', nodePaths: [path.join(root, 'node_modules')],
  });
  return hook;
}
