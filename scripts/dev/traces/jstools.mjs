// JavaScript tools beyond tsc/eslint/jest: biome (its "Found 1 error." summary and code frames), prettier
// (fixed by a command), esbuild (code frames; build output written on success), mocha, node's own test
// runner; and more jest: a snapshot updated with -u, two failing tests fixed by two edits, and flaky
// timeouts (jest, mocha) that pass on a rerun after an unrelated README edit.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { story } from './story.mjs';
import { deps } from './deps.mjs';

const pkg = (extra = {}) => JSON.stringify({ name: 'web', version: '1.0.0', private: true, type: 'module', ...extra }, null, 2) + '\n';
const cjsPkg = (extra = {}) => JSON.stringify({ name: 'web', version: '1.0.0', private: true, ...extra }, null, 2) + '\n';
const js = () => ({ deps: deps('jsbuild') });
const jest = () => ({ deps: deps('jest') });
/** A file outside the project that the flaky tests read: what a slow service would be. */
const FLAKY = join(tmpdir(), 'engram-trace-flaky-delay');

const textJs = "function capitalize(s) {\n  return s.charAt(0) + s.slice(1);\n}\n\nfunction truncate(s, n) {\n  return s.length > n ? s.slice(0, n) : s;\n}\n\nmodule.exports = { capitalize, truncate };\n";
const textTest = "const { capitalize, truncate } = require('./text');\n\ntest('capitalize upper-cases the first letter', () => {\n  expect(capitalize('ada')).toBe('Ada');\n});\n\ntest('truncate adds an ellipsis', () => {\n  expect(truncate('engram memory', 6)).toBe('engram…');\n});\n";

const parseJs = "export function parsePair(s) {\n  const [k, v] = s.split('=');\n  return { key: k, value: v };\n}\n\nexport function parseList(s) {\n  return s.split(',');\n}\n";
const parseTest = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { parsePair, parseList } from './parse.js';\n\ntest('parsePair trims spaces', () => {\n  assert.deepEqual(parsePair(' a = 1 '), { key: 'a', value: '1' });\n});\n\ntest('parseList drops empty items', () => {\n  assert.deepEqual(parseList('a,,b'), ['a', 'b']);\n});\n";

export const episodes = [
  story({
    name: 'biome-no-double-equals', family: 'biome',
    files: { 'package.json': pkg(), 'src/compare.js': 'export function same(a, b) {\n  return a == b;\n}\n' },
    opts: js,
    steps: [
      ['open', 'src/compare.js'],
      ['run', 'npx biome lint src', 'fail'],
      ['replace', 'src/compare.js', 'a == b', 'a === b'],
      ['run', 'npx biome lint src', 0],
    ],
    label: {
      description: 'biome lint: lint/suspicious/noDoubleEquals "Using == may be unsafe…" with its code frame and hints, then the summary "Found 1 error."; fixed by ===. The summary is not the error, and the rule is biome\'s',
      mustContain: ['noDoubleEquals', 'a === b'], mustNotClaim: ['package.json'],
      errors: ['Using == may be unsafe if you are relying on type coercion.'], mustNotSay: ['Found 1 error'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line', 'note-line'],
    },
    queries: [
      { kind: 'related', file: 'lib/filter.js', files: { 'package.json': pkg(), 'lib/filter.js': 'export const pick = (xs, id) => xs.filter(x => x.id == id);\n' }, how: 'npx biome lint lib', opts: js() },
      { kind: 'near', file: 'src/compare.js', files: { 'package.json': pkg(), 'src/compare.js': 'export function same(a) {\n  debugger;\n  return a;\n}\n' }, how: 'npx biome lint src', opts: js() },
    ],
  }),
  story({
    name: 'prettier-check-write', family: 'prettier',
    files: { 'package.json': pkg(), 'src/config.js': "export const config = {host:'localhost',\n  port:8080}\n" },
    opts: js,
    steps: [
      ['open', 'src/config.js'],
      ['run', 'npx prettier --check src', 'fail'],
      ['run', 'npx prettier --write src', 0],
      ['run', 'npx prettier --check src', 0],
    ],
    label: {
      description: 'npx prettier --check src: [warn] src/config.js, "Code style issues found in the above file"; fixed by running prettier --write (the command rewrote the file, no hand edit)',
      mustContain: ['npx prettier --write src'], mustNotClaim: ['package.json'],
      errors: ['Code style issues found in the above file'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'lib/routes.js', files: { 'package.json': pkg(), 'lib/routes.js': "export const routes = [ '/a','/b' ]\n" }, how: 'npx prettier --check lib', opts: js() },
      { kind: 'near', file: 'src/config.js', files: { 'package.json': pkg(), 'src/config.js': 'export const config = {\n' }, how: 'npx prettier --check src', opts: js() },
    ],
  }),
  story({
    name: 'esbuild-could-not-resolve', family: 'esbuild',
    files: {
      'package.json': pkg({ scripts: { build: 'esbuild src/main.js --bundle --outfile=dist/app.js' } }),
      'src/util.js': "export const slug = s => s.toLowerCase().replace(/\\s+/g, '-');\n",
      'src/main.js': "import { slug } from './utils';\n\nconsole.log(slug('Hello World'));\n",
    },
    opts: js,
    steps: [
      ['open', 'src/main.js'],
      ['run', 'npm run build', 'fail'],
      ['replace', 'src/main.js', "from './utils'", "from './util.js'"],
      ['run', 'npm run build', 0],
    ],
    label: {
      description: 'npm run build (esbuild): ✘ [ERROR] Could not resolve "./utils" with its code frame; the module is src/util.js, fixed by the import path. dist/app.js, written by the passing build, is output, not the fix',
      mustContain: ["'./util.js'"], mustNotClaim: ['src/util.js', 'package.json'], decoys: ['dist/app.js'],
      errors: ['Could not resolve "./utils"'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output', 'note-line'],
    },
    queries: [
      { kind: 'related', file: 'src/admin.js', files: { 'package.json': pkg(), 'src/util.js': 'export const x = 1;\n', 'src/admin.js': "import { x } from './utils';\nconsole.log(x);\n" }, how: 'npx esbuild src/admin.js --bundle --outfile=dist/admin.js', opts: js() },
      { kind: 'near', file: 'src/main.js', files: { 'package.json': pkg(), 'src/main.js': "import dayjs from 'dayjs';\nconsole.log(dayjs());\n" }, how: 'npx esbuild src/main.js --bundle --outfile=dist/app.js', opts: js() },
    ],
  }),
  story({
    name: 'esbuild-no-matching-export', family: 'esbuild',
    files: {
      'package.json': pkg(),
      'src/math.js': 'export const add = (a, b) => a + b;\n',
      'src/index.js': "import { sum } from './math.js';\n\nconsole.log(sum(2, 3));\n",
    },
    opts: js,
    steps: [
      ['open', 'src/index.js'],
      ['run', 'npx esbuild src/index.js --bundle --outfile=dist/index.js', 'fail'],
      ['edit', 'src/index.js', "import { add } from './math.js';\n\nconsole.log(add(2, 3));\n"],
      ['run', 'npx esbuild src/index.js --bundle --outfile=dist/index.js', 0],
    ],
    label: {
      description: 'esbuild: No matching export in "src/math.js" for import "sum"; the module exports add, fixed by importing and calling add. dist/index.js is build output',
      mustContain: ['import { add }'], mustNotClaim: ['src/math.js', 'package.json'], decoys: ['dist/index.js'],
      errors: ['No matching export in "src/math.js" for import "sum"'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['build-output'],
    },
    queries: [
      { kind: 'related', file: 'src/report.js', files: { 'package.json': pkg(), 'src/math.js': 'export const add = (a, b) => a + b;\n', 'src/report.js': "import { sum } from './math.js';\nconsole.log(sum(1, 1));\n" }, how: 'npx esbuild src/report.js --bundle --outfile=dist/report.js', opts: js() },
      { kind: 'near', file: 'src/index.js', files: { 'package.json': pkg(), 'src/math.js': 'export const add = (a, b) => a + b;\n', 'src/index.js': "import { mul } from './math.js';\nconsole.log(mul(1, 1));\n" }, how: 'npx esbuild src/index.js --bundle --outfile=dist/index.js', opts: js() },
    ],
  }),
  story({
    name: 'mocha-assertion-summary', family: 'mocha',
    files: {
      'package.json': pkg({ scripts: { test: 'mocha' } }),
      'src/money.js': 'export function formatCents(c) {\n  return `$${c / 100}`;\n}\n',
      'test/money.test.js': "import assert from 'node:assert/strict';\nimport { formatCents } from '../src/money.js';\n\ndescribe('formatCents', () => {\n  it('always shows two decimals', () => {\n    assert.equal(formatCents(1050), '$10.50');\n  });\n});\n",
    },
    opts: js,
    steps: [
      ['open', 'test/money.test.js'],
      ['run', 'npm test', 'fail'],
      ['open', 'src/money.js'],
      ['replace', 'src/money.js', '`$${c / 100}`', '`$${(c / 100).toFixed(2)}`'],
      ['run', 'npm test', 0],
    ],
    label: {
      description: "mocha: formatCents 'always shows two decimals' fails (AssertionError: '$10.5' !== '$10.50'), with \"0 passing\" / \"1 failing\" summary lines; fixed in src/money.js with toFixed(2)",
      mustContain: ['always shows two decimals', 'toFixed(2)', 'src/money.js'], mustNotClaim: ['test/money.test.js', 'package.json'],
      errors: ['always shows two decimals'], mustNotSay: ['0 passing'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'test/money.test.js', files: { 'package.json': pkg({ scripts: { test: 'mocha' } }), 'src/money.js': 'export const formatCents = c => `$${c / 100}`;\n', 'test/money.test.js': "import assert from 'node:assert/strict';\nimport { formatCents } from '../src/money.js';\n\ndescribe('formatCents', () => {\n  it('always shows two decimals', () => {\n    assert.equal(formatCents(250), '$2.50');\n  });\n});\n" }, how: 'npm test', opts: js() },
      { kind: 'near', file: 'test/money.test.js', files: { 'package.json': pkg({ scripts: { test: 'mocha' } }), 'src/money.js': 'export const formatCents = c => `$${c / 100}`;\n', 'test/money.test.js': "import assert from 'node:assert/strict';\nimport { formatCents } from '../src/money.js';\n\ndescribe('formatCents', () => {\n  it('prefixes a currency sign', () => {\n    assert.equal(formatCents(100), 'EUR 1');\n  });\n});\n" }, how: 'npm test', opts: js() },
    ],
  }),
  story({
    name: 'mocha-flaky-timeout-docs-edit', family: 'mocha',
    files: {
      'package.json': pkg({ scripts: { test: 'mocha' } }),
      'src/ping.js': `import { readFileSync } from 'node:fs';\n\n// The service's latency: a file outside the project stands in for the network.\nexport const ping = () => new Promise(r => setTimeout(() => r('pong'), Number(readFileSync(${JSON.stringify(FLAKY)}, 'utf8'))));\n`,
      'test/ping.test.js': "import assert from 'node:assert/strict';\nimport { ping } from '../src/ping.js';\n\ndescribe('ping', () => {\n  it('answers pong', async () => {\n    assert.equal(await ping(), 'pong');\n  });\n});\n",
      'README.md': '# ping\n\nRun `npm test`.\n',
    },
    opts: js,
    steps: [
      () => writeFileSync(FLAKY, '2500'),
      ['open', 'test/ping.test.js'],
      ['run', 'npm test', 'fail'],
      ['open', 'README.md'],
      ['replace', 'README.md', 'Run `npm test`.', 'Run `npm test` (mocha).'],
      () => writeFileSync(FLAKY, '10'),
      ['run', 'npm test', 0],
    ],
    label: {
      description: "mocha: 'answers pong' fails with Error: Timeout of 2000ms exceeded (the service was slow, outside what capture sees); README.md is edited and the rerun passes. The docs edit is not a fix: unexplained",
      mustNotClaim: ['src/ping.js', 'test/ping.test.js'], decoys: ['README.md'],
      resolved: 'unexplained', story: 'terminal', classes: ['flaky', 'unexplained'],
    },
    queries: [
      { kind: 'near', file: 'test/ping.test.js', files: { 'package.json': pkg({ scripts: { test: 'mocha' } }), 'test/ping.test.js': "import assert from 'node:assert/strict';\n\ndescribe('ping', () => {\n  it('answers pong', async () => {\n    await new Promise(r => setTimeout(r, 2500));\n    assert.equal(1, 1);\n  });\n});\n" }, how: 'npm test', opts: js() },
    ],
  }),
  story({
    name: 'node-test-runner-two-fixes', family: 'nodetest',
    files: { 'package.json': pkg({ scripts: { test: 'node --test --test-reporter=spec' } }), 'src/parse.js': parseJs, 'src/parse.test.js': parseTest },
    steps: [
      ['open', 'src/parse.test.js'],
      ['run', 'npm test', 'fail'],
      ['open', 'src/parse.js'],
      ['replace', 'src/parse.js', "return { key: k, value: v };", "return { key: k.trim(), value: v.trim() };"],
      ['run', 'npm test', 'fail'],
      ['replace', 'src/parse.js', "return s.split(',');", "return s.split(',').filter(Boolean);"],
      ['run', 'npm test', 0],
    ],
    label: {
      description: "node --test: 'parsePair trims spaces' and 'parseList drops empty items' fail; one edit (trim) fixes the first, a second (filter(Boolean)) the other: two lessons",
      mustContain: ['parsePair trims spaces', 'parseList drops empty items', 'k.trim()', 'filter(Boolean)'], mustNotClaim: ['src/parse.test.js', 'package.json'],
      errors: ['parsePair trims spaces', 'parseList drops empty items'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['two-tests', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'src/parse.test.js', files: { 'package.json': pkg({ scripts: { test: 'node --test --test-reporter=spec' } }), 'src/parse.js': parseJs, 'src/parse.test.js': parseTest.replace(/\ntest\('parseList[\s\S]*$/, '') }, how: 'npm test' },
      { kind: 'near', file: 'src/parse.test.js', files: { 'package.json': pkg({ scripts: { test: 'node --test --test-reporter=spec' } }), 'src/parse.js': parseJs, 'src/parse.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { parsePair } from './parse.js';\n\ntest('parsePair keeps the value', () => {\n  assert.deepEqual(parsePair('a=1=2'), { key: 'a', value: '1=2' });\n});\n" }, how: 'npm test' },
    ],
  }),
  story({
    name: 'jest-snapshot-update', family: 'jest',
    files: {
      'package.json': cjsPkg({ scripts: { test: 'jest' } }),
      'src/badge.js': "function badge(user) {\n  return `<span class=\"badge\">${user.name}</span>`;\n}\n\nmodule.exports = { badge };\n",
      'src/badge.test.js': "const { badge } = require('./badge');\n\ntest('badge markup', () => {\n  expect(badge({ name: 'Ada', admin: true })).toMatchSnapshot();\n});\n",
    },
    opts: jest,
    steps: [
      ['unseen', 'npx jest --ci=false'],
      ['open', 'src/badge.js'],
      ['edit', 'src/badge.js', "function badge(user) {\n  const role = user.admin ? ' badge-admin' : '';\n  return `<span class=\"badge${role}\">${user.name}</span>`;\n}\n\nmodule.exports = { badge };\n"],
      ['run', 'npm test', 'fail'],
      ['run', 'npx jest -u', 0],
      ['run', 'npm test', 0],
    ],
    label: {
      description: "jest: 'badge markup' fails with › 1 snapshot failed after an intended markup change (made before the failure); the fix is updating the snapshot with npx jest -u, which rewrites src/__snapshots__/badge.test.js.snap",
      mustContain: ['npx jest -u', 'badge markup'], mustNotClaim: ['src/badge.test.js', 'package.json'], decoys: ['src/badge.js'],
      errors: ['badge markup'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'src/badge.test.js', files: { 'package.json': cjsPkg({ scripts: { test: 'jest' } }), 'src/badge.js': "exports.badge = u => `<b>${u.name}</b>`;\n", 'src/badge.test.js': "const { badge } = require('./badge');\n\ntest('badge markup', () => {\n  expect(badge({ name: 'Ada' })).toMatchSnapshot();\n});\n", 'src/__snapshots__/badge.test.js.snap': '// Jest Snapshot v1, https://goo.gl/fbAQLP\n\nexports[`badge markup 1`] = `"<span>Ada</span>"`;\n' }, how: 'npm test', opts: jest() },
      { kind: 'near', file: 'src/badge.test.js', files: { 'package.json': cjsPkg({ scripts: { test: 'jest' } }), 'src/badge.js': "exports.badge = u => `<b>${u.name}</b>`;\n", 'src/badge.test.js': "const { badge } = require('./badge');\n\ntest('badge escapes names', () => {\n  expect(badge({ name: '<x>' })).toBe('<b>&lt;x&gt;</b>');\n});\n" }, how: 'npm test', opts: jest() },
    ],
  }),
  story({
    name: 'jest-two-tests-two-fixes', family: 'jest',
    files: { 'package.json': cjsPkg({ scripts: { test: 'jest' } }), 'src/text.js': textJs, 'src/text.test.js': textTest },
    opts: jest,
    steps: [
      ['open', 'src/text.test.js'],
      ['run', 'npm test', 'fail'],
      ['open', 'src/text.js'],
      ['replace', 'src/text.js', 'return s.charAt(0) + s.slice(1);', 'return s.charAt(0).toUpperCase() + s.slice(1);'],
      ['run', 'npm test', 'fail'],
      ['replace', 'src/text.js', "return s.length > n ? s.slice(0, n) : s;", "return s.length > n ? s.slice(0, n) + '…' : s;"],
      ['run', 'npm test', 0],
    ],
    label: {
      description: "jest: 'capitalize upper-cases the first letter' and 'truncate adds an ellipsis' fail in src/text.test.js; the first edit (toUpperCase) fixes one, the second (the ellipsis) the other: two lessons, not one",
      mustContain: ['capitalize upper-cases the first letter', 'truncate adds an ellipsis', 'toUpperCase()', "+ '…'"], mustNotClaim: ['src/text.test.js', 'package.json'],
      errors: ['capitalize upper-cases the first letter', 'truncate adds an ellipsis'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['two-tests'],
    },
    queries: [
      { kind: 'related', file: 'src/text.test.js', files: { 'package.json': cjsPkg({ scripts: { test: 'jest' } }), 'src/text.js': textJs, 'src/text.test.js': "const { capitalize } = require('./text');\n\ntest('capitalize upper-cases the first letter', () => {\n  expect(capitalize('grace')).toBe('Grace');\n});\n" }, how: 'npm test', opts: jest() },
      { kind: 'near', file: 'src/text.test.js', files: { 'package.json': cjsPkg({ scripts: { test: 'jest' } }), 'src/text.js': textJs, 'src/text.test.js': "const { truncate } = require('./text');\n\ntest('truncate keeps short strings', () => {\n  expect(truncate('ab', 6)).toBe('ab ');\n});\n" }, how: 'npm test', opts: jest() },
    ],
  }),
  story({
    name: 'jest-flaky-timeout-docs-edit', family: 'jest',
    files: {
      'package.json': cjsPkg({ scripts: { test: 'jest --testTimeout=1500' } }),
      'src/queue.js': `const { readFileSync } = require('fs');\n\n// The broker's latency: a file outside the project stands in for the network.\nfunction nextJob() {\n  const ms = Number(readFileSync(${JSON.stringify(FLAKY)}, 'utf8'));\n  return new Promise(r => setTimeout(() => r({ id: 1 }), ms));\n}\n\nmodule.exports = { nextJob };\n`,
      'src/queue.test.js': "const { nextJob } = require('./queue');\n\ntest('nextJob returns a job', async () => {\n  expect(await nextJob()).toEqual({ id: 1 });\n});\n",
      'README.md': '# queue\n',
    },
    opts: jest,
    steps: [
      () => writeFileSync(FLAKY, '2500'),
      ['open', 'src/queue.test.js'],
      ['run', 'npm test', 'fail'],
      ['open', 'README.md'],
      ['edit', 'README.md', '# queue\n\nA tiny job queue client. Tests: `npm test`.\n'],
      () => writeFileSync(FLAKY, '10'),
      ['run', 'npm test', 0],
    ],
    label: {
      description: "jest: 'nextJob returns a job' fails with Exceeded timeout of 1500 ms for a test (the broker was slow, outside what capture sees); README.md is edited and the rerun passes. The README edit did not fix it: unexplained, no lesson with a fix",
      mustNotClaim: ['src/queue.js', 'src/queue.test.js', 'package.json'], decoys: ['README.md'],
      resolved: 'unexplained', story: 'terminal', classes: ['flaky', 'unexplained'],
    },
    queries: [
      { kind: 'near', file: 'src/queue.test.js', files: { 'package.json': cjsPkg({ scripts: { test: 'jest --testTimeout=500' } }), 'src/queue.test.js': "test('nextJob returns a job', async () => {\n  await new Promise(r => setTimeout(r, 1000));\n});\n" }, how: 'npm test', opts: jest() },
    ],
  }),
];
