// Packages a bundle names but Engram never runs, replaced at build time by a function that refuses, so
// neither the bundle nor the .vsix carries them. One place for esbuild.mjs and the tests that build the
// same bundles (test/unit/store-helpers.ts).
//  - sharp, in the embedding worker: transformers.js requires it at load time for its image pipelines
//    (and throws "Unable to load image processing library" when it is absent). Engram runs text feature
//    extraction, which never calls it; shipping it cost 8.2 MB of libvips in the .vsix.
//  - wink-nlp, its English model and wink-bm25-text-search, in the vector index: Vectra's LocalIndex
//    requires them for its BM25 query mode (setupBm25), which Engram never uses (its own lexical index
//    ranks words). The model alone was 3.1 MB of dist/vectors.js, parsed on every load.

const REASONS = {
  sharp: 'Engram ships no image library (sharp): text models only',
  'wink-nlp': "Engram does not use Vectra's BM25 mode",
  'wink-eng-lite-web-model': "Engram does not use Vectra's BM25 mode",
  'wink-bm25-text-search': "Engram does not use Vectra's BM25 mode",
};

/** esbuild plugin: each named package resolves to a function that throws its reason when called. */
export function neverLoaded(names) {
  const filter = new RegExp(`^(${names.map(n => n.replace(/[-/.]/g, '\\$&')).join('|')})$`);
  return {
    name: 'never-loaded',
    setup(build) {
      build.onResolve({ filter }, args => ({ path: args.path, namespace: 'never-loaded' }));
      build.onLoad({ filter: /.*/, namespace: 'never-loaded' }, args => ({
        contents: `// Never loaded by Engram: see scripts/never-loaded.mjs\nmodule.exports = function () { throw new Error(${JSON.stringify(REASONS[args.path])}); };\n`,
        loader: 'js',
      }));
    },
  };
}

/** The embedding worker: transformers.js inside, sharp out, onnxruntime from node_modules (it loads a
 * native binary from its own folder; onnxruntime-common must be the one instance it and transformers.js share). */
export const embedWorkerBuild = { external: ['onnxruntime-node', 'onnxruntime-common'], plugins: [neverLoaded(['sharp'])] };

/** Vectra's BM25 dependencies, out of the vector index bundle. */
export const vectorsPlugin = neverLoaded(['wink-nlp', 'wink-eng-lite-web-model', 'wink-bm25-text-search']);
