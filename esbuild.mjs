// Bundles the extension host entry, the lazily loaded store, the embedding worker, the CLI (an entry and
// its per-command bundles) and the webview. `--production` minifies; `--watch` rebuilds on change; `--tests` also transpiles tests.
import * as esbuild from 'esbuild';
import { readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyCodicons } from './scripts/copy-codicons.mjs';
import { embedWorkerBuild, vectorsPlugin } from './scripts/never-loaded.mjs';
import { layering } from './scripts/layering.mjs';
import { CLI_ENTRIES } from './scripts/cliBundles.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Problem-matcher friendly output for `npm run watch`. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd(result => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // transformers.js loads native onnxruntime at run time; it stays a real dependency, loaded only by
  // the embedding worker.
  // The team server's database drivers stay real dependencies too, required only by `engram serve`:
  // PGlite loads its WebAssembly and data files from its own package folder.
  external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp', 'pg', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'],
  // jsonc-parser's default (UMD) build requires its parts at run time, which a bundle does not carry.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  plugins: [layering(process.cwd()), ...(watch ? [problemMatcher] : [])],
};

// The vector index (Vectra's LocalIndex, 0.2 MB without its BM25 packages) is a bundle of its own, dist/vectors.js, that
// src/store/vectorLoader.ts loads only when a model's vectors are in use: the CLI and dist/store.js do not
// parse it on every start. (Test bundles keep it inside.)
const splitVectors = {
  name: 'split-vectors',
  setup(build) {
    build.onResolve({ filter: /^\.\/vectorIndex$/ }, args => (args.importer.endsWith('vectorLoader.ts') ? { path: './vectors.js', external: true } : undefined));
  },
};

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const configs = [
  // The extension host entry stays small: the store (vectra and friends) is its own bundle, required
  // only when first needed, so activation parses almost nothing.
  { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
  // The CLI: a small entry and the bundles it loads per command (scripts/cliBundles.mjs).
  { ...node, entryPoints: { store: 'src/store/index.ts', ...CLI_ENTRIES }, outdir: 'dist', plugins: [...node.plugins, splitVectors] },
  // Without Vectra's BM25 packages, and the worker with transformers.js inside but not sharp: never loaded
  // (scripts/never-loaded.mjs).
  { ...node, entryPoints: { vectors: 'src/store/vectorIndex.ts' }, outdir: 'dist', plugins: [...node.plugins, vectorsPlugin] },
  { ...node, entryPoints: { embedWorker: 'src/store/embedWorker.ts' }, outdir: 'dist', external: ['vscode', ...embedWorkerBuild.external], plugins: [...node.plugins, ...embedWorkerBuild.plugins] },
  {
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', sourcemap: !production, minify: production,
    logLevel: 'warning', entryPoints: { webview: 'media/src/main.ts' }, outdir: 'dist', plugins: [layering(process.cwd()), ...(watch ? [problemMatcher] : [])],
  },
];

if (tests) {
  rmSync('out', { recursive: true, force: true });
  const entryPoints = [...walk('test/unit'), ...walk('test/integration'), ...walk('test/e2e').filter(() => false)];
  configs.push({
    ...node, entryPoints, outdir: 'out/test', outbase: 'test', sourcemap: true,
    // Tests import the sources directly; packages stay external so mocha loads real node_modules, where
    // jsonc-parser's default build finds its parts (its ESM build's extensionless imports do not load in Node).
    packages: 'external', alias: {},
  });
}

if (watch) {
  const contexts = await Promise.all(configs.map(c => esbuild.context(c)));
  await Promise.all(contexts.map(c => c.watch()));
} else {
  await Promise.all(configs.map(c => esbuild.build(c)));
}
// The webviews load the codicon font from dist/, never from node_modules.
copyCodicons();
