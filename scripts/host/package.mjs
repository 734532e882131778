// `npm run package [-- --target TARGET]`: engram-<version>-<target>.vsix for one platform (default: this
// one), then checks what it holds and runs it unpacked. Needs only Node and npm (no VS Code): installing
// it into a real VS Code is test/e2e/installed.e2e.mjs.
//
// Per platform because onnxruntime's native library is most of the package (17.5 MB of ~19 compressed
// for linux-x64): one .vsix with every platform's would be ~100 MB. vsce runs `vscode:prepublish` (the
// production build) itself. .vscodeignore is an allow-list; the target's binary folder is added to a
// copy of it here. README images ship inside the package and its links stay relative (the project has
// no public repository for vsce to point them at): VS Code's extension page resolves them in the
// installed folder.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractVsix, listVsix } from './vsix.mjs';
import { CLI_ENTRIES } from '../cliBundles.mjs';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
/** The Marketplace's limit is far higher; this is ours (issue 21): what one platform needs, no more. */
export const MAX_VSIX_BYTES = 20_000_000;

/** vsce target name -> onnxruntime-node's binary folder (the platforms its package ships). */
export const TARGETS = {
  'linux-x64': 'linux/x64', 'linux-arm64': 'linux/arm64', 'darwin-arm64': 'darwin/arm64',
  'win32-x64': 'win32/x64', 'win32-arm64': 'win32/arm64',
};

function usage(msg) {
  console.error(`${msg}\nusage: npm run package [-- --target ${Object.keys(TARGETS).join('|')}] [--out FILE] [--no-check]`);
  process.exit(2);
}

const argv = process.argv.slice(2);
let target = `${process.platform}-${process.arch}`;
let out;
let check = true;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--target' && argv[i + 1]) target = argv[++i];
  else if (a === '--out' && argv[i + 1]) out = path.resolve(argv[++i]);
  else if (a === '--no-check') check = false;
  else usage(`unknown argument: ${a}`);
}
if (!TARGETS[target]) usage(`no onnxruntime binary for target ${target}`);

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
out ??= path.join(repoRoot, `${pkg.name}-${pkg.version}-${target}.vsix`);
const log = msg => console.error(`[package] ${msg}`);
const binDir = `node_modules/onnxruntime-node/bin/napi-v6/${TARGETS[target]}`;
if (!fs.existsSync(path.join(repoRoot, binDir))) usage(`${binDir} is missing: run npm ci first`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-package-'));
try {
  const ignoreFile = path.join(work, '.vscodeignore');
  fs.writeFileSync(ignoreFile, `${fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8')}\n# ${target}: added by scripts/host/package.mjs\n!${binDir}/**\n`);
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  // --allow-missing-repository: no public repository (see the header); vsce would otherwise ask, and a
  // prompt hangs CI.
  const args = [vsce, 'package', '--target', target, '--out', out, '--ignoreFile', ignoreFile, '--no-rewrite-relative-links', '--allow-missing-repository'];
  log(`vsce ${args.slice(1).join(' ')}`);
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) { console.error(`vsce package failed (exit ${r.status})`); process.exit(r.status ?? 1); }
  const size = fs.statSync(out).size;
  const entries = listVsix(out);
  log(`${path.basename(out)}: ${(size / 1e6).toFixed(2)} MB (${(size / 2 ** 20).toFixed(2)} MiB), ${entries.length} files`);
  if (check) {
    const problems = checkContents(entries, size);
    if (problems.length) { console.error(`package check FAILED:\n  ${problems.join('\n  ')}`); process.exit(1); }
    // Run it as shipped: unpacked outside the checkout, so nothing resolves from this repo's node_modules.
    const unpacked = extractVsix(out, path.join(work, 'unpacked'));
    const models = path.join(work, 'model');
    const { makeTinyModel } = await import(new URL('../../test/fixtures/make-tiny-model.mjs', import.meta.url).href);
    makeTinyModel(models);
    const p = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/host/installed-probe.mjs'), path.join(unpacked, 'extension'), models], { cwd: work, encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } });
    if (p.status !== 0) { console.error(`run-time check FAILED:\n${p.stderr}`); process.exit(1); }
    log(`runs unpacked: ${p.stdout.trim()}`);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(out);

/** What must and must not be in the package; each problem as a sentence. */
function checkContents(entries, size) {
  // vsce writes readme.md and changelog.md in lower case; VS Code finds them either way.
  const names = new Set(entries.map(e => e.name.toLowerCase()));
  const has = f => names.has(`extension/${path.posix.normalize(f.replace(/^\.\//, ''))}`.toLowerCase());
  const problems = [];
  if (size > MAX_VSIX_BYTES) problems.push(`${size} bytes: over the ${MAX_VSIX_BYTES}-byte budget`);
  const never = entries.filter(e => /(^|\/)(sharp|@img)\/|\.map$|\.d\.ts$|\.tsbuildinfo$|(^|\/)src\//.test(e.name.replace(/^extension\//, '')));
  for (const e of never) problems.push(`ships ${e.name}, which nothing loads`);
  for (const f of [pkg.main, ...Object.keys(CLI_ENTRIES).map(name => `dist/${name}.js`), 'dist/store.js', 'dist/vectors.js', 'dist/embedWorker.js', 'dist/webview.js', pkg.icon, 'CHANGELOG.md', 'LICENSE.txt']) {
    if (!has(f)) problems.push(`${f} is missing`);
  }
  // Other platforms' binaries stay out of this target's package.
  for (const e of entries) if (/onnxruntime-node\/bin\//.test(e.name) && !e.name.includes(binDir)) problems.push(`ships another platform's ${e.name}`);
  // Every relative link and image of the README is in the package, so the extension page shows it.
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  for (const m of readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const link = m[1];
    if (/^\w+:/.test(link) || link.startsWith('#')) continue;
    if (!has(link.split('#')[0])) problems.push(`README links ${link}, which is not in the package`);
  }
  return problems;
}
