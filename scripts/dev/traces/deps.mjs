// npm tool sets (jest, vitest, eslint) installed once into a cache folder and linked into each temp
// project, so a regeneration does not download them once per trace.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, run } from './session.mjs';

const SETS = {
  jest: { type: 'commonjs', packages: ['jest@29'] },
  vitest: { type: 'module', packages: ['vitest@3'] },
  eslint: { type: 'commonjs', packages: ['eslint@9', '@eslint/js@9', 'typescript-eslint@8', 'typescript@5'] },
  pyright: { type: 'commonjs', packages: ['pyright@1.1.414'] },
  jsbuild: { type: 'module', packages: ['esbuild@0.25', 'prettier@3', '@biomejs/biome@2', 'mocha@11'] },
  webpack: { type: 'commonjs', packages: ['webpack@5', 'webpack-cli@6'] },
  rollup: { type: 'module', packages: ['rollup@4'] },
  pkgmanagers: { type: 'commonjs', packages: ['pnpm@9', 'yarn@1'] },
};

/** The folder whose node_modules holds the named tool set. */
export function deps(name) {
  const dir = join(tmpdir(), 'engram-trace-deps', name);
  if (existsSync(join(dir, 'node_modules', '.package-lock.json'))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'deps', private: true, type: SETS[name].type }) + '\n');
  const r = run('npm', ['install', '--no-audit', '--no-fund', ...SETS[name].packages], dir, cleanEnv());
  if (r.status !== 0) throw new Error(`npm install ${SETS[name].packages.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return dir;
}
