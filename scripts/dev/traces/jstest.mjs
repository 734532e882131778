// jest and vitest sessions: two different failing tests, fixed differently (one in the editor, one by
// an agent on disk), which must stay two lessons; and one vitest failure.
import { Session } from './session.mjs';
import { label } from './label.mjs';
import { deps } from './deps.mjs';

const pkg = (test, type) => JSON.stringify({ name: 'shop', version: '1.0.0', private: true, ...(type ? { type } : {}), scripts: { test } }, null, 2) + '\n';

export const episodes = [
  {
    name: 'jest-cart-total-tax', family: 'jest',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg('jest'),
        'src/cart.js': "const TAX = 0.2;\n\nfunction total(lines) {\n  const net = lines.reduce((sum, l) => sum + l.price * l.qty, 0);\n  return net;\n}\n\nmodule.exports = { total, TAX };\n",
        'src/cart.test.js': "const { total } = require('./cart');\n\ntest('cart total includes tax', () => {\n  expect(total([{ price: 10, qty: 2 }])).toBe(24);\n});\n",
      }, { deps: deps('jest') });
      s.open('src/cart.test.js');
      s.command('npm test', { expect: 'fail' });
      s.open('src/cart.js');
      s.edit('src/cart.js', "const TAX = 0.2;\n\nfunction total(lines) {\n  const net = lines.reduce((sum, l) => sum + l.price * l.qty, 0);\n  return Math.round(net * (1 + TAX) * 100) / 100;\n}\n\nmodule.exports = { total, TAX };\n");
      s.command('npm test', { expect: 0 });
      s.finish(out, label({
        family: 'jest', description: "jest 'cart total includes tax' fails with expect(received).toBe(expected) Expected 24, Received 20; fixed in src/cart.js by applying TAX",
        mustContain: ['cart total includes tax', 'src/cart.js', 'TAX'], mustNotClaim: ['src/cart.test.js', 'src/slugify.js'],
      }));
    },
  },
  {
    name: 'jest-slugify-agent-fix', family: 'jest',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg('jest'),
        'src/slugify.js': "function slugify(s) {\n  return s.trim().replace(/\\s+/g, '-');\n}\n\nmodule.exports = { slugify };\n",
        'src/slugify.test.js': "const { slugify } = require('./slugify');\n\ntest('slugify lowercases words', () => {\n  expect(slugify('Hello World')).toBe('hello-world');\n});\n",
      }, { deps: deps('jest') });
      s.open('src/slugify.test.js');
      s.command('npm test', { expect: 'fail' });
      s.agentWrite('src/slugify.js', "function slugify(s) {\n  return s.trim().toLowerCase().replace(/\\s+/g, '-');\n}\n\nmodule.exports = { slugify };\n");
      s.command('npm test', { expect: 0 });
      s.finish(out, label({
        family: 'jest', description: "jest 'slugify lowercases words' fails with toBe (Expected \"hello-world\", Received \"Hello-World\"); fixed by an agent writing src/slugify.js on disk. A different test and fix from jest-cart-total-tax: must not merge with it",
        mustContain: ['slugify lowercases words', 'src/slugify.js', 'toLowerCase()'], mustNotClaim: ['src/slugify.test.js', 'src/cart.js'],
      }));
    },
  },
  {
    name: 'vitest-parse-duration', family: 'vitest',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg('vitest run', 'module'),
        'src/duration.js': "export function parseDuration(s) {\n  const m = /^(\\d+)(ms|s|m)$/.exec(s);\n  if (!m) throw new Error(`bad duration: ${s}`);\n  const n = Number(m[1]);\n  return m[2] === 's' ? n * 1000 : n;\n}\n",
        'src/duration.test.js': "import { expect, test } from 'vitest';\nimport { parseDuration } from './duration.js';\n\ntest('parses minutes to milliseconds', () => {\n  expect(parseDuration('2m')).toBe(120000);\n});\n",
      }, { deps: deps('vitest') });
      s.open('src/duration.test.js');
      s.command('npm test', { expect: 'fail' });
      s.open('src/duration.js');
      s.edit('src/duration.js', "export function parseDuration(s) {\n  const m = /^(\\d+)(ms|s|m)$/.exec(s);\n  if (!m) throw new Error(`bad duration: ${s}`);\n  const n = Number(m[1]);\n  if (m[2] === 'm') return n * 60_000;\n  return m[2] === 's' ? n * 1000 : n;\n}\n");
      s.command('npm test', { expect: 0 });
      s.finish(out, label({
        family: 'vitest', description: "vitest 'parses minutes to milliseconds' fails with toBe (expected 120000, received 2); fixed in src/duration.js by handling the 'm' unit",
        mustContain: ['parses minutes to milliseconds', 'src/duration.js', "m[2] === 'm'"], mustNotClaim: ['src/duration.test.js'],
      }));
    },
  },
];
