// JavaScript package managers other than a plain `npm install`: pnpm and yarn (from the npm registry,
// on the terminal's PATH as a global install would put them) adding a missing package, with their
// progress lines and lockfiles; yarn's missing script; and `npm ci` refusing a lockfile out of sync.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { story } from './story.mjs';
import { deps } from './deps.mjs';

const pkg = (extra = {}) => JSON.stringify({ name: 'tool', version: '1.0.0', private: true, ...extra }, null, 2) + '\n';
/** pnpm and yarn on the session's PATH, as `npm install -g pnpm yarn` would leave them. */
const managers = s => { for (const bin of ['pnpm', 'yarn']) symlinkSync(join(deps('pkgmanagers'), 'node_modules', '.bin', bin), join(s.bin, bin)); };

export const episodes = [
  story({
    name: 'pnpm-add-missing-module', family: 'pnpm',
    files: { 'package.json': pkg(), 'app.js': "const ms = require('ms');\n\nconsole.log(`timeout: ${ms('2m')} ms`);\n" },
    steps: [
      managers,
      ['open', 'app.js'],
      ['run', 'node app.js', 'fail'],
      ['run', 'pnpm add ms@2', 0],
      ['run', 'node app.js', 0],
    ],
    label: {
      description: "node app.js: Error: Cannot find module 'ms' (Require stack: app.js); pnpm add ms@2 installed it (pnpm's progress lines, package.json and pnpm-lock.yaml changed by the command), and the rerun passed",
      mustContain: ['pnpm add ms@2'], mustNotClaim: ['app.js'],
      errors: ["Cannot find module 'ms'"],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-command', 'lockfile'],
    },
    queries: [
      { kind: 'related', file: 'worker.js', files: { 'package.json': pkg(), 'worker.js': "const ms = require('ms');\nconsole.log(ms('1h'));\n" }, how: 'node worker.js' },
      { kind: 'near', file: 'app.js', files: { 'package.json': pkg(), 'app.js': "const bytes = require('bytes');\nconsole.log(bytes(1024));\n" }, how: 'node app.js' },
    ],
  }),
  story({
    name: 'yarn-add-esm-package', family: 'yarn',
    files: { 'package.json': pkg({ type: 'module' }), 'src/when.js': "import dayjs from 'dayjs';\n\nconsole.log(dayjs('2026-01-02').format('DD/MM/YYYY'));\n" },
    steps: [
      managers,
      ['open', 'src/when.js'],
      ['run', 'node src/when.js', 'fail'],
      ['run', 'yarn add dayjs@1', 0],
      ['run', 'node src/when.js', 0],
    ],
    label: {
      description: "node src/when.js (ESM): Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'dayjs' imported from /workspace/src/when.js; yarn add dayjs@1 installed it (yarn.lock written), and the rerun passed",
      mustContain: ['yarn add dayjs@1'], mustNotClaim: ['src/when.js'],
      errors: ["Cannot find package 'dayjs' imported from"],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-command', 'lockfile'],
    },
    queries: [
      { kind: 'related', file: 'src/report.js', files: { 'package.json': pkg({ type: 'module' }), 'src/report.js': "import dayjs from 'dayjs';\nconsole.log(dayjs().year());\n" }, how: 'node src/report.js' },
      { kind: 'near', file: 'src/when.js', files: { 'package.json': pkg({ type: 'module' }), 'src/when.js': "import { format } from 'date-fns';\nconsole.log(format);\n" }, how: 'node src/when.js' },
    ],
  }),
  story({
    name: 'yarn-missing-script', family: 'yarn',
    files: { 'package.json': pkg(), 'build.js': "require('fs').mkdirSync('dist', { recursive: true });\nrequire('fs').writeFileSync('dist/out.txt', 'built\\n');\n" },
    steps: [
      managers,
      ['open', 'package.json'],
      ['run', 'yarn build', 'fail'],
      ['edit', 'package.json', pkg({ scripts: { build: 'node build.js' } })],
      ['run', 'yarn build', 0],
    ],
    label: {
      description: 'yarn build: error Command "build" not found. — package.json had no scripts; adding "build": "node build.js" to it fixed it. dist/out.txt is what the build wrote',
      mustContain: ['"build": "node build.js"'], mustNotClaim: ['build.js'], decoys: ['dist/out.txt'],
      errors: ['Command "build" not found.'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output'],
    },
    queries: [
      { kind: 'related', file: 'package.json', files: { 'package.json': pkg({ scripts: { test: 'node --test' } }) }, how: 'yarn build' },
      { kind: 'near', file: 'package.json', files: { 'package.json': pkg() }, how: 'yarn lint' },
    ].map(q => ({ ...q, how: `PATH=${join(deps('pkgmanagers'), 'node_modules', '.bin')}:$PATH ${q.how}` })),
  }),
  story({
    name: 'npm-ci-lock-out-of-sync', family: 'npm',
    files: {
      'package.json': pkg({ dependencies: { ms: '^2.1.3' } }),
      'package-lock.json': JSON.stringify({ name: 'tool', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'tool', version: '1.0.0' } } }, null, 2) + '\n',
      'index.js': "console.log(require('ms')('1d'));\n",
    },
    steps: [
      ['open', 'package.json'],
      ['run', 'npm ci', 'fail'],
      ['run', 'npm install', 0],
      ['run', 'npm ci', 0],
      ['run', 'node index.js', 0],
    ],
    label: {
      description: 'npm ci: "`npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync" (Missing: ms@2.1.3 from lock file); npm install brought the lockfile in sync, then npm ci passed. The lockfile change is the install\'s doing, summarised, not a hand fix',
      mustContain: ['npm install'], mustNotClaim: ['index.js'],
      errors: ['can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-command', 'lockfile'],
    },
    queries: [
      { kind: 'related', file: 'services/api/package.json', files: { 'services/api/package.json': pkg({ dependencies: { ms: '^2.1.3' } }), 'services/api/package-lock.json': JSON.stringify({ name: 'tool', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'tool', version: '1.0.0' } } }) + '\n' }, how: 'cd services/api && npm ci' },
      { kind: 'near', file: 'package.json', files: { 'package.json': pkg({ dependencies: { ms: '^2.1.3' } }) }, how: 'npm ci' },
    ],
  }),
];
