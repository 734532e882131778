// Node, npm and git sessions: terminal failures with their real output, fixed by an edit, a config
// command or a dependency setting.
import { Session } from './session.mjs';
import { label } from './label.mjs';

const pkg = (extra = {}) => JSON.stringify({ name: 'app', version: '1.0.0', private: true, ...extra }, null, 2) + '\n';

export const episodes = [
  {
    name: 'node-esm-missing-extension', family: 'node',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg({ type: 'module' }),
        'src/lib/slug.js': "export function slug(s) {\n  return s.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-');\n}\n",
        'src/main.js': "import { slug } from './lib/slug';\n\nconsole.log(slug(process.argv[2] ?? 'Hello World'));\n",
      });
      s.open('src/main.js');
      s.command('node src/main.js', { expect: 'fail' });
      s.edit('src/main.js', "import { slug } from './lib/slug.js';\n\nconsole.log(slug(process.argv[2] ?? 'Hello World'));\n");
      s.command('node src/main.js', { expect: 0 });
      s.finish(out, label({
        family: 'node', description: "node ERR_MODULE_NOT_FOUND for './lib/slug' (ESM import without extension), fixed by importing './lib/slug.js'",
        mustContain: ['./lib/slug.js'], mustNotClaim: ['src/lib/slug.js', 'package.json'],
      }));
    },
  },
  {
    name: 'node-cjs-cannot-find-module', family: 'node',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg(),
        'util/format.js': "exports.money = n => `$${n.toFixed(2)}`;\n",
        'index.js': "const { money } = require('./utils/format');\n\nconsole.log(money(12.5));\n",
      });
      s.open('index.js');
      s.command('node index.js', { expect: 'fail' });
      s.edit('index.js', "const { money } = require('./util/format');\n\nconsole.log(money(12.5));\n");
      s.command('node index.js', { expect: 0 });
      s.finish(out, label({
        family: 'node', description: "node Cannot find module './utils/format' (MODULE_NOT_FOUND), fixed by requiring './util/format'",
        mustContain: ["require('./util/format')"], mustNotClaim: ['util/format.js', 'package.json'],
      }));
    },
  },
  {
    name: 'node-typeerror-undefined-prop', family: 'node',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg(),
        'users.json': JSON.stringify([{ id: 1, profile: { name: 'Ada' } }, { id: 2 }], null, 2) + '\n',
        'list.js': "const users = require('./users.json');\n\nfor (const u of users) {\n  console.log(`${u.id}: ${u.profile.name}`);\n}\n",
      });
      s.open('list.js');
      s.command('node list.js', { expect: 'fail' });
      s.edit('list.js', "const users = require('./users.json');\n\nfor (const u of users) {\n  console.log(`${u.id}: ${u.profile?.name ?? 'anonymous'}`);\n}\n");
      s.command('node list.js', { expect: 0 });
      s.finish(out, label({
        family: 'node', description: "node TypeError: Cannot read properties of undefined (reading 'name') for a user without a profile, fixed with optional chaining and a default",
        mustContain: ['u.profile?.name'], mustNotClaim: ['users.json', 'package.json'],
      }));
    },
  },
  {
    name: 'git-identity-config', family: 'git',
    run(out) {
      const s = new Session(this.name, { 'README.md': '# app\n', 'index.js': "console.log('hi');\n" });
      s.unseen('git init -q -b main && git add -A');
      s.branch('main');
      s.open('README.md');
      s.command('git commit -m "Initial commit"', { expect: 'fail' });
      s.command('git config user.email "dev@example.com"', { expect: 0 });
      s.command('git config user.name "Dev"', { expect: 0 });
      s.command('git commit -m "Initial commit"', { expect: 0 });
      s.finish(out, label({
        family: 'git', description: 'git commit fails with "Author identity unknown" until the repository\'s user.email and user.name are set with git config',
        mustContain: ['git config user.email', 'git config user.name'], mustNotClaim: ['README.md', 'index.js'],
      }));
    },
  },
  {
    name: 'npm-eresolve-legacy-peer-deps', family: 'npm',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg({ dependencies: { react: '17.0.2', 'react-dom': '18.2.0' } }),
        'index.js': "const React = require('react');\nconsole.log(React.version);\n",
      });
      s.open('package.json');
      s.command('npm install', { expect: 'fail' });
      s.command('npm config set legacy-peer-deps true --location=project', { expect: 0 });
      s.command('npm install', { expect: 0 });
      s.finish(out, label({
        family: 'npm', description: 'npm install fails with ERESOLVE (react-dom 18 wants react 18, the project pins 17) until legacy-peer-deps is set for the project with npm config set (.npmrc written by the command)',
        mustContain: ['npm config set legacy-peer-deps true'], mustNotClaim: ['package.json', 'index.js'],
      }));
    },
  },
];
