// Builds src/cli.ts exactly as esbuild.mjs builds dist/cli.js, but into a private folder, so CLI tests
// neither depend on the rest of the tree compiling nor race a concurrent `node esbuild.mjs`.
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';

/** The repository root (where src/cli.ts is), found from this file whether run from out/ or a temp bundle. */
export function repoRoot(): string {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) if (fs.existsSync(path.join(d, 'src', 'cli.ts'))) return d;
  return process.cwd();
}

/**
 * Returns the path of a freshly built cli.js in a new temp folder named after `prefix`, with the bundles it
 * loads per command beside it (scripts/cliBundles.mjs: the same entries esbuild.mjs builds). With
 * ENGRAM_TEST_CLI set, that bundle instead: the same tests run against another build (say main's, to see
 * a new test fail there before the change that makes it pass).
 */
export async function buildCli(prefix: string): Promise<string> {
  if (process.env.ENGRAM_TEST_CLI) return path.resolve(process.env.ENGRAM_TEST_CLI);
  const root = repoRoot();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // Resolved from the repo: the test bundle may run from a temp folder with no node_modules beside it.
  const esbuild = createRequire(path.join(root, 'package.json'))('esbuild') as typeof import('esbuild');
  const { CLI_ENTRIES } = await import(pathToFileURL(path.join(root, 'scripts/cliBundles.mjs')).href) as { CLI_ENTRIES: Record<string, string> };
  await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(CLI_ENTRIES).map(([name, src]) => [name, path.join(root, src)])), bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outdir: dir, logLevel: 'error', external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp', 'pg', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'],
    nodePaths: [path.join(root, 'node_modules')], alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  });
  return path.join(dir, 'cli.js');
}

/** dist/hook.js beside `cli`: buildCli builds it with the CLI's other bundles (it loads cliStore.js from its own folder). */
export async function buildHook(cli: string): Promise<string> {
  const hook = path.join(path.dirname(cli), 'hook.js');
  if (!fs.existsSync(hook)) throw new Error(`no hook.js beside ${cli}`);
  return hook;
}
