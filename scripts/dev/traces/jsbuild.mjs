// JavaScript builds: the demo case (`tsc: not found`, fixed by installing TypeScript, after which
// the build fails with TS2322: a changed error, two lessons), webpack's "Module not found" and rollup's
// "is not exported by" with the build output they write, and a line typed at a person's pace whose
// transient errors are nothing to learn from.
import { story } from './story.mjs';
import { deps } from './deps.mjs';

const pkg = (extra = {}) => JSON.stringify({ name: 'web', version: '1.0.0', private: true, ...extra }, null, 2) + '\n';
const tsconfig = JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, outDir: 'build' }, include: ['src'] }, null, 2) + '\n';
const tsNoEmit = JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true }, include: ['src'] }, null, 2) + '\n';
const webpack = () => ({ deps: deps('webpack') });
const rollup = () => ({ deps: deps('rollup') });

export const episodes = [
  story({
    name: 'tsc-not-found-then-ts2322', family: 'tsc',
    files: {
      'package.json': pkg({ type: 'module', scripts: { build: 'tsc -p .' } }),
      'tsconfig.json': tsconfig,
      'src/config.ts': "const env: Record<string, string | undefined> = {};\n\nexport const config = {\n  port: (env.PORT ?? '8080') as string,\n};\n\nexport const port: number = config.port;\n",
    },
    opts: { noTsc: true },
    steps: [
      ['open', 'src/config.ts'],
      ['run', 'npm run build', 'fail'],
      ['run', 'npm install --save-dev typescript@5', 0],
      ['run', 'npm run build', 'fail'],
      ['replace', 'src/config.ts', 'export const port: number = config.port;', 'export const port: number = Number(config.port);'],
      ['run', 'npm run build', 0],
    ],
    label: {
      description: "npm run build: \"sh: 1: tsc: not found\" (exit 127); npm install --save-dev typescript@5 fixed that, and the build then failed with TS2322 Type 'string' is not assignable to type 'number' in src/config.ts, fixed with Number(config.port). Two lessons: the install did fix the first error. package-lock.json changed by the install and build/ written by the passing build are not fixes",
      mustContain: ['npm install --save-dev typescript@5', 'Number(config.port)'], mustNotClaim: ['tsconfig.json'], decoys: ['build/config.js'],
      errors: ['tsc: not found', "Type 'string' is not assignable to type 'number'."], mustNotSay: ['did not fix', 'not resolved'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['changed-error', 'install-command', 'lockfile', 'build-output'],
    },
    queries: [
      { kind: 'related', file: 'package.json', files: { 'package.json': pkg({ scripts: { typecheck: 'tsc --noEmit' } }) }, how: 'npm run typecheck', opts: { noTsc: true } },
      { kind: 'near', file: 'package.json', files: { 'package.json': pkg({ scripts: { lint: 'eslint .' } }) }, how: 'npm run lint', opts: { noTsc: true } },
    ],
  }),
  story({
    name: 'webpack-module-not-found-case', family: 'webpack',
    files: {
      'package.json': pkg({ scripts: { build: 'webpack --mode production' } }),
      'webpack.config.js': "module.exports = { entry: './src/index.js', output: { path: __dirname + '/dist', filename: 'main.js' } };\n",
      'src/components/header.js': "module.exports = title => `<h1>${title}</h1>`;\n",
      'src/index.js': "const header = require('./components/Header');\n\ndocument.body.innerHTML = header('Shop');\n",
    },
    opts: webpack,
    steps: [
      ['open', 'src/index.js'],
      ['run', 'npm run build', 'fail'],
      ['replace', 'src/index.js', "require('./components/Header')", "require('./components/header')"],
      ['run', 'npm run build', 0],
    ],
    label: {
      description: "webpack: \"Module not found: Error: Can't resolve './components/Header' in '/workspace/src'\" — the file is components/header.js (case); fixed in the require. webpack's \"compiled with 1 error\" is a summary; dist/main.js is build output",
      mustContain: ["require('./components/header')"], mustNotClaim: ['src/components/header.js', 'webpack.config.js'], decoys: ['dist/main.js'],
      errors: ["Can't resolve './components/Header'"], mustNotSay: ['compiled with 1 error'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'src/admin.js', files: { 'package.json': pkg(), 'src/components/header.js': 'module.exports = 1;\n', 'src/admin.js': "require('./components/Header');\n" }, how: 'npx webpack --mode production --entry ./src/admin.js', opts: webpack() },
      { kind: 'near', file: 'src/index.js', files: { 'package.json': pkg(), 'src/index.js': "require('lodash');\n" }, how: 'npx webpack --mode production --entry ./src/index.js', opts: webpack() },
    ],
  }),
  story({
    name: 'rollup-not-exported', family: 'rollup',
    files: {
      'package.json': pkg({ type: 'module', scripts: { build: 'rollup src/main.js --file dist/bundle.js --format es' } }),
      'src/dates.js': "export const isoDay = d => d.toISOString().slice(0, 10);\n",
      'src/main.js': "import { formatDate } from './dates.js';\n\nconsole.log(formatDate(new Date()));\n",
    },
    opts: rollup,
    steps: [
      ['open', 'src/main.js'],
      ['run', 'npm run build', 'fail'],
      ['run', 'cat src/dates.js', 0],
      ['edit', 'src/main.js', "import { isoDay } from './dates.js';\n\nconsole.log(isoDay(new Date()));\n"],
      ['run', 'npm run build', 0],
    ],
    label: {
      description: 'rollup: "formatDate" is not exported by "src/dates.js", imported by "src/main.js"; the module exports isoDay, fixed by importing and calling it. `cat src/dates.js` only looked; dist/bundle.js is build output',
      mustContain: ['import { isoDay }'], mustNotClaim: ['src/dates.js'], decoys: ['dist/bundle.js', 'cat src/dates.js'],
      errors: ['"formatDate" is not exported by "src/dates.js"'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output', 'read-only'],
    },
    queries: [
      { kind: 'related', file: 'src/report.js', files: { 'package.json': pkg({ type: 'module' }), 'src/dates.js': 'export const isoDay = 1;\n', 'src/report.js': "import { formatDate } from './dates.js';\nconsole.log(formatDate);\n" }, how: 'npx rollup src/report.js --file dist/report.js --format es', opts: rollup() },
      { kind: 'near', file: 'src/main.js', files: { 'package.json': pkg({ type: 'module' }), 'src/money.js': 'export const cents = 1;\n', 'src/main.js': "import { dollars } from './money.js';\nconsole.log(dollars);\n" }, how: 'npx rollup src/main.js --file dist/bundle.js --format es', opts: rollup() },
    ],
  }),
  story({
    name: 'ts-typing-transient-only', family: 'tsc',
    files: {
      'package.json': pkg({ type: 'module' }),
      'tsconfig.json': tsNoEmit,
      'src/settings.ts': "export const settings = {\n  host: 'localhost',\n  \n};\n",
    },
    steps: [
      ['open', 'src/settings.ts'],
      ['server', 'tsc'],
      ['type', 'src/settings.ts', "host: 'localhost',\n  ", 'retries: Math.max(1, Number("3")),'],
      ['run', 'tsc -p .', 0],
    ],
    label: {
      description: "A line typed key by key at a person's pace in src/settings.ts (retries: Math.max(1, Number(\"3\")),): the TS server reports transient errors (Cannot find name 'Ma', ',' expected, …) that exist only while the line is unfinished; the saved file is clean and tsc passes. Nothing to learn",
      mustNotClaim: [], decoys: ['src/settings.ts'], lessons: 0, story: 'editor', classes: ['typing', 'nothing-to-learn'],
    },
    queries: [
      { kind: 'near', file: 'src/settings.ts', files: { 'package.json': pkg({ type: 'module' }), 'tsconfig.json': tsNoEmit, 'src/settings.ts': 'export const settings = { retries: Ma };\n' }, how: 'tsc' },
    ],
  }),
];
