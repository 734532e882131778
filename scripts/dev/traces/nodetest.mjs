// node's built-in test runner when the error changes: a SyntaxError in the test file (reported by the
// runner as a failed file, with TAP summary lines) is fixed, and the same `node --test` then fails on
// the assertion the test makes, fixed in the module. Two lessons; the first edit did fix the first error.
import { story } from './story.mjs';

const pkg = JSON.stringify({ name: 'stats', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2) + '\n';
const statsJs = 'export function median(xs) {\n  const s = [...xs].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s[m];\n}\n';
const statsTest = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { median } from './stats.js';\n\ntest('median of an even list', () => {\n  assert.equal(median([4, 1, 3, 2]), 2.5;\n});\n";

export const episodes = [
  story({
    name: 'nodetest-syntax-then-assertion', family: 'nodetest',
    files: { 'package.json': pkg, 'stats.js': statsJs, 'stats.test.js': statsTest },
    steps: [
      ['open', 'stats.test.js'],
      ['run', 'npm test', 'fail'],
      ['replace', 'stats.test.js', '2.5;', '2.5);'],
      ['run', 'npm test', 'fail'],
      ['open', 'stats.js'],
      ['replace', 'stats.js', '  return s[m];\n', '  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n'],
      ['run', 'npm test', 0],
    ],
    label: {
      description: "npm test (node --test): SyntaxError: missing ) after argument list in stats.test.js (the runner reports the file as failed: \"# fail 1\"); closing the paren fixed that, and the run then failed on 'median of an even list' (3 !== 2.5), fixed in stats.js by averaging the two middle values. Two lessons; the paren did fix the SyntaxError",
      mustContain: ['2.5);', '(s[m - 1] + s[m]) / 2'], mustNotClaim: ['package.json'],
      errors: ['SyntaxError: missing ) after argument list', 'median of an even list'], mustNotSay: ['did not fix', 'not resolved', '# fail 1'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['changed-error', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'mean.test.js', files: { 'package.json': pkg, 'mean.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('mean', () => {\n  assert.equal(1, 1;\n});\n" }, how: 'npm test' },
      { kind: 'near', file: 'stats.test.js', files: { 'package.json': pkg, 'stats.js': statsJs, 'stats.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { median } from './stats.js';\n\ntest('median of an odd list', () => {\n  assert.equal(median([3, 1, 2]), 1);\n});\n" }, how: 'npm test' },
    ],
  }),
];
