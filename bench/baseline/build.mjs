// Builds the CLI with the v0.1 lesson writer (bench/baseline/episodeSummary-v0.1.ts) in place of the
// current one, everything else as it is now, so bench/lessons.mjs can measure both in the same run.
// Prints the path of the built CLI.
import * as esbuild from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const baselineWriter = join(repo, 'bench', 'baseline', 'episodeSummary-v0.1.ts');

export async function buildBaselineCli() {
  const outfile = join(mkdtempSync(join(tmpdir(), 'engram-baseline-cli-')), 'cli.js');
  await esbuild.build({
    entryPoints: [join(repo, 'src', 'cli.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    // The same externals and jsonc-parser alias as the product's CLI build (esbuild.mjs): the default jsonc-parser
    // build requires its parts at run time, which a bundle does not carry (every replay failed without it).
    external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp', 'pg', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'],
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' }, logLevel: 'warning',
    nodePaths: [join(repo, 'node_modules')],
    plugins: [{
      name: 'v0.1-lesson-writer',
      setup(b) {
        // Only the episode → memories step takes the old writer; the old file's own imports resolve normally.
        b.onResolve({ filter: /episodeSummary$/ }, args => args.importer.endsWith(join('capture', 'episodeMemories.ts')) ? { path: baselineWriter } : undefined);
      },
    }],
  });
  return outfile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(await buildBaselineCli());
