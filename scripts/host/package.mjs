// `npm run package`: engram-<version>.vsix with vsce under the cached Node 24 (vsce needs Node >= 22),
// then proves it installs: `code-server --install-extension` into a throw-away extensions folder.
// vsce runs `vscode:prepublish` (the production build) itself. .vscodeignore is an allow-list.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureHost, log, makeRunDir, repoRoot } from './lib.mjs';

const host = ensureHost();
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const out = path.join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
const env = { ...process.env, PATH: `${host.node24Bin}:${process.env.PATH}` };
const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
const extra = process.argv.slice(2);
// Interactive prompts would hang CI: allow a missing repository/license instead of asking.
const args = [vsce, 'package', '--out', out, '--allow-missing-repository', '--skip-license', ...extra];
log(`vsce ${args.slice(1).join(' ')}`);
let r = spawnSync(path.join(host.node24Bin, 'node'), args, { cwd: repoRoot, env, stdio: 'inherit' });
if (r.status !== 0) { console.error(`vsce package failed (exit ${r.status})`); process.exit(r.status ?? 1); }

const size = fs.statSync(out).size;
log(`${path.basename(out)}: ${(size / 1024 / 1024).toFixed(1)} MB`);

// Install check, offline, into a temp extensions folder.
const runDir = makeRunDir('engram-pkg-');
try {
  const extDir = path.join(runDir, 'extensions');
  const started = Date.now();
  r = spawnSync(host.codeServer, ['--extensions-dir', extDir, '--user-data-dir', path.join(runDir, 'ud'), '--install-extension', out], {
    env: { ...env, XDG_CONFIG_HOME: path.join(runDir, 'xdg', 'config'), XDG_DATA_HOME: path.join(runDir, 'xdg', 'data') },
    encoding: 'utf8',
  });
  process.stdout.write(r.stdout ?? ''); process.stderr.write(r.stderr ?? '');
  const installed = fs.existsSync(extDir) ? fs.readdirSync(extDir).filter(d => d.startsWith(`${pkg.publisher}.${pkg.name}-`)) : [];
  if (r.status !== 0 || installed.length !== 1) { console.error('install check FAILED'); process.exit(1); }
  const main = path.join(extDir, installed[0], pkg.main);
  if (!fs.existsSync(main)) { console.error(`install check FAILED: ${pkg.main} missing in the installed extension`); process.exit(1); }
  log(`install check ok in ${Date.now() - started} ms: ${installed[0]}`);
  // The shipped node_modules must be a complete run-time closure: load transformers.js (which loads
  // onnxruntime-node's native binary and sharp at require time) from the installed copy, no model.
  const probe = "const p=require.resolve('@huggingface/transformers',{paths:[process.cwd()]});const t=require(p);" +
    "if(typeof t.pipeline!=='function')throw new Error('no pipeline export');console.log('transformers.js loads from the vsix:',p)";
  r = spawnSync(path.join(host.node24Bin, 'node'), ['-e', probe], { cwd: path.join(extDir, installed[0]), encoding: 'utf8' });
  process.stdout.write(r.stdout ?? '');
  if (r.status !== 0) { console.error(`run-time dependency check FAILED:\n${(r.stderr ?? '').split('\n').slice(0, 12).join('\n')}`); process.exit(1); }
} finally {
  fs.rmSync(runDir, { recursive: true, force: true });
}
console.log(out);
