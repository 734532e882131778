// Shared by the store-*.test.ts files: fixtures, temp folders, and bundling the child process and the
// embedding worker the way esbuild.mjs bundles them.
import { createRequire } from 'module';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import type { Fact, Memory } from '../../src/core/types';
import { ViewFile } from '../../src/store/viewFile';
import { VIEW_FILE } from '../../src/store/viewFormat';

export const repoRoot = process.cwd();
export const bundleDir = path.join(repoRoot, 'node_modules', '.cache', 'engram-store-test');

export function testMemory(id: string, content: string): Memory {
  const m: Fact = {
    id, kind: 'fact', type: 'fact', content,
    owner: { scope: 'workspace', workspace: 'test' },
    createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000, accessCount: 0, importance: 0.5,
    source: 'manual', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
  };
  return m;
}

export function tmpDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `engram-${tag}-`));
}

/** Every byte under `dir` (recursively) as one string, to prove some text is gone from disk. */
export function allBytes(dir: string): string {
  let out = '';
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    out += e.isDirectory() ? allBytes(p) : fs.readFileSync(p, 'latin1');
  }
  return out;
}

/**
 * Like allBytes, but the store's view (view.bin, binary: offsets, counts and checksums) counts as the text
 * it holds: every memory's and history's JSON and every string of its tables (words, keys, ids).
 */
export function textBytes(dir: string): string {
  let out = '';
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out += textBytes(p);
    else if (e.name === VIEW_FILE) out += viewText(dir);
    else out += fs.readFileSync(p, 'latin1');
  }
  return out;
}

function viewText(dir: string): string {
  const v = ViewFile.open(dir);
  if (!(v instanceof ViewFile)) throw new Error(`view.bin does not open: ${v?.problem}`);
  const parts: string[] = [];
  try {
    for (let d = 0; d < v.docs; d++) parts.push(v.docId(d), v.rawRecord(d)!.toString('latin1'), v.rawHistory(d)!.toString('latin1'));
    for (let k = 0; k < v.termCount; k++) parts.push(v.termAt(k));
    for (let i = 0; i < v.signatureCount; i++) parts.push(v.signatureAt(i));
    for (let i = 0; i < v.episodeCount; i++) parts.push(v.episodeAt(i));
    for (let i = 0; i < v.tombstoneCount; i++) parts.push(v.tombstoneAt(i));
  } finally {
    v.close();
  }
  return parts.join('\n');
}

/**
 * Bundles a TS entry like esbuild.mjs does (packages external). Output goes to node_modules/.cache, not
 * out/: `esbuild.mjs --tests` wipes out/ while other suites may be running, and node_modules resolves from there.
 */
export async function bundle(entry: string, name: string): Promise<string> {
  // Resolved from the repo, not from wherever this test bundle was written.
  const esbuild = createRequire(path.join(repoRoot, 'package.json'))('esbuild') as typeof import('esbuild');
  const outfile = path.join(bundleDir, `${name}.js`);
  await esbuild.build({
    entryPoints: [path.join(repoRoot, entry)], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp'], packages: 'external', logLevel: 'warning',
  });
  return outfile;
}

/**
 * Bundles the embedding worker exactly as esbuild.mjs does for the .vsix: transformers.js inside, sharp
 * replaced by a function that refuses, onnxruntime left to node_modules (scripts/never-loaded.mjs).
 */
export async function bundleWorker(): Promise<string> {
  const esbuild = createRequire(path.join(repoRoot, 'package.json'))('esbuild') as typeof import('esbuild');
  const { embedWorkerBuild } = await import(pathToFileURL(path.join(repoRoot, 'scripts/never-loaded.mjs')).href) as {
    embedWorkerBuild: { external: string[]; plugins: import('esbuild').Plugin[] };
  };
  const outfile = path.join(bundleDir, 'embedWorker.js');
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'src/store/embedWorker.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: embedWorkerBuild.external, plugins: embedWorkerBuild.plugins, logLevel: 'warning',
  });
  return outfile;
}

/**
 * Bundles a TS entry with its packages into a fresh world-readable temp folder, for a child run as another
 * user: that user may not be able to enter the checkout at all (a clone under /root, or in a 0700 mktemp folder).
 * The embedding model stays external; the store only loads it on demand.
 */
export async function bundleStandalone(entry: string, name: string): Promise<string> {
  const esbuild = createRequire(path.join(repoRoot, 'package.json'))('esbuild') as typeof import('esbuild');
  const dir = tmpDir(`${name}-standalone`);
  fs.chmodSync(dir, 0o755);
  const outfile = path.join(dir, `${name}.js`);
  await esbuild.build({
    entryPoints: [path.join(repoRoot, entry)], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode', '@huggingface/transformers', 'onnxruntime-node', 'sharp'], logLevel: 'warning',
  });
  fs.chmodSync(outfile, 0o644);
  return outfile;
}
