// TypeScript sessions: diagnostics from real `tsc --noEmit` runs on each project state (what the TS
// language server reports), fixes by editor edits, config edits, installs and an agent's disk write.
import { Session } from './session.mjs';
import { label } from './label.mjs';

const tsconfig = extra => JSON.stringify({
  compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true, ...extra, outDir: 'dist' },
  include: ['src'],
}, null, 2) + '\n';
const pkg = JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }, null, 2) + '\n';

export const episodes = [
  {
    name: 'ts-paths-alias', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/lib/dates.ts': "export function isoDay(d: Date): string {\n  return d.toISOString().slice(0, 10);\n}\n",
        'src/report.ts': "import { isoDay } from '@lib/dates';\n\nexport function header(d: Date): string {\n  return `Report for ${isoDay(d)}`;\n}\n",
      });
      s.branch('main');
      s.open('src/report.ts');
      s.useTsc();
      s.open('tsconfig.json');
      const cfg = JSON.parse(s.read('tsconfig.json'));
      cfg.compilerOptions.paths = { '@lib/*': ['./src/lib/*'] };
      s.edit('tsconfig.json', JSON.stringify(cfg, null, 2) + '\n');
      s.finish(out, label({
        family: 'tsc', description: "TS2307 Cannot find module '@lib/dates' in src/report.ts, fixed by adding a paths alias to tsconfig.json",
        mustContain: ['@lib/*', './src/lib/*', 'tsconfig.json', 'paths'], mustNotClaim: ['src/report.ts', 'src/lib/dates.ts'],
      }));
    },
  },
  {
    name: 'ts-npm-install-zod', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/schema.ts': "import { z } from 'zod';\n\nexport const User = z.object({ id: z.number(), email: z.string() });\nexport type User = z.infer<typeof User>;\n",
      });
      s.open('src/schema.ts');
      s.useTsc();
      s.command('npm install zod', { expect: 0 });
      s.finish(out, label({
        family: 'tsc', description: "TS2307 Cannot find module 'zod' in src/schema.ts, fixed by `npm install zod` in the terminal (package.json changed by the command)",
        mustContain: ['npm install zod'], mustNotClaim: ['src/schema.ts', 'tsconfig.json'],
      }));
    },
  },
  {
    name: 'ts2322-with-import', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/config.ts': "export interface RawConfig {\n  host: string;\n  port: string;\n}\n\nexport function readConfig(): RawConfig {\n  return { host: 'localhost', port: '8080' };\n}\n",
        'src/util/num.ts': "export function toInt(s: string): number {\n  const n = Number.parseInt(s, 10);\n  if (Number.isNaN(n)) throw new Error(`not a number: ${s}`);\n  return n;\n}\n",
        'src/server.ts': "import { readConfig } from './config';\n\nconst raw = readConfig();\nexport const host: string = raw.host;\nexport const port: number = raw.port;\n",
      });
      s.open('src/server.ts');
      s.useTsc();
      s.edit('src/server.ts', "import { readConfig } from './config';\nimport { toInt } from './util/num';\n\nconst raw = readConfig();\nexport const host: string = raw.host;\nexport const port: number = toInt(raw.port);\n");
      s.finish(out, label({
        family: 'tsc', description: "TS2322 Type 'string' is not assignable to type 'number' on `port`, fixed in the same file by wrapping in toInt() while its import is added",
        mustContain: ['toInt(raw.port)', "import { toInt } from './util/num'"], mustNotClaim: ['src/config.ts', 'src/util/num.ts'],
      }));
    },
  },
  {
    name: 'ts2345-number-to-string', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/greet.ts': "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n",
        'src/main.ts': "import { greet } from './greet';\n\nconst user = { id: 42, email: 'a@example.com' };\nconsole.log(greet(user.id));\n",
      });
      s.open('src/main.ts');
      s.useTsc();
      s.edit('src/main.ts', "import { greet } from './greet';\n\nconst user = { id: 42, email: 'a@example.com' };\nconsole.log(greet(user.email));\n");
      s.finish(out, label({
        family: 'tsc', description: "TS2345 Argument of type 'number' is not assignable to parameter of type 'string', fixed by passing user.email",
        mustContain: ['greet(user.email)'], mustNotClaim: ['src/greet.ts'],
      }));
    },
  },
  {
    name: 'ts2339-missing-property', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/types.ts': "export interface User {\n  id: number;\n  email: string;\n}\n",
        'src/profile.ts': "import type { User } from './types';\n\nexport function title(u: User): string {\n  return u.fullName.toUpperCase();\n}\n",
      });
      s.open('src/profile.ts');
      s.useTsc();
      s.open('src/types.ts');
      s.edit('src/types.ts', "export interface User {\n  id: number;\n  email: string;\n  fullName: string;\n}\n");
      s.finish(out, label({
        family: 'tsc', description: "TS2339 Property 'fullName' does not exist on type 'User' in src/profile.ts, fixed by adding the field to the interface in src/types.ts",
        mustContain: ['fullName: string', 'src/types.ts'], mustNotClaim: ['src/profile.ts'],
      }));
    },
  },
  {
    name: 'ts7006-implicit-any', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/total.ts': "export interface Item {\n  price: number;\n  qty: number;\n}\n\nexport function total(items) {\n  return items.reduce((sum: number, i: Item) => sum + i.price * i.qty, 0);\n}\n",
      });
      s.open('src/total.ts');
      s.useTsc();
      s.edit('src/total.ts', "export interface Item {\n  price: number;\n  qty: number;\n}\n\nexport function total(items: Item[]) {\n  return items.reduce((sum: number, i: Item) => sum + i.price * i.qty, 0);\n}\n");
      s.finish(out, label({
        family: 'tsc', description: "TS7006 Parameter 'items' implicitly has an 'any' type, fixed by annotating it as Item[]",
        mustContain: ['items: Item[]'], mustNotClaim: ['tsconfig.json'],
      }));
    },
  },
  {
    name: 'ts2554-agent-disk-fix', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/cart.ts': "export interface Line { sku: string; qty: number }\n\nexport function addLine(lines: Line[], sku: string, qty: number): Line[] {\n  return [...lines, { sku, qty }];\n}\n",
        'src/checkout.ts': "import { addLine, type Line } from './cart';\n\nexport function withGift(lines: Line[]): Line[] {\n  return addLine(lines, 'GIFT-WRAP');\n}\n",
      });
      s.open('src/checkout.ts');
      s.useTsc();
      // The agent edits the file through its own tool, not the editor: the watcher sees the write.
      s.agentWrite('src/checkout.ts', "import { addLine, type Line } from './cart';\n\nexport function withGift(lines: Line[]): Line[] {\n  return addLine(lines, 'GIFT-WRAP', 1);\n}\n");
      s.finish(out, label({
        family: 'tsc', description: 'TS2554 Expected 3 arguments, but got 2, fixed by a coding agent writing src/checkout.ts on disk (no editor change)',
        mustContain: ["addLine(lines, 'GIFT-WRAP', 1)", 'src/checkout.ts'], mustNotClaim: ['src/cart.ts'],
      }));
    },
  },
  {
    name: 'ts-unexplained-clear', family: 'tsc',
    run(out) {
      const s = new Session(this.name, {
        'package.json': pkg, 'tsconfig.json': tsconfig(),
        'src/validate.ts': "import { z } from 'zod';\n\nexport const Email = z.string().email();\n",
      });
      s.open('src/validate.ts');
      s.useTsc();
      // Installed from a terminal capture cannot see (no shell integration): the error just goes away.
      s.unseen('npm install zod');
      s.finish(out, label({
        family: 'tsc', description: "TS2307 Cannot find module 'zod' that cleared with no edit and no command observed (installed where capture could not see): unexplained",
        mustContain: [], mustNotClaim: ['src/validate.ts', 'npm install zod', 'package.json'], expectLesson: false, unexplained: true,
      }));
    },
  },
  {
    name: 'npm-script-missing-config', family: 'npm',
    run(out) {
      const s = new Session(this.name, {
        'package.json': JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module', scripts: { build: 'tsc -p tsconfig.build.json' } }, null, 2) + '\n',
        'tsconfig.json': tsconfig(),
        'src/index.ts': "export const version: string = '1.0.0';\n",
      });
      s.open('package.json');
      s.command('npm run build', { expect: 'fail' });
      s.create('tsconfig.build.json', JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: false, rootDir: 'src', outDir: 'dist' }, include: ['src'] }, null, 2) + '\n');
      s.command('npm run build', { expect: 0 });
      s.finish(out, label({
        family: 'npm', description: 'npm run build fails with TS5058 (tsconfig.build.json does not exist) until the config file is created in the editor',
        mustContain: ['tsconfig.build.json'], mustNotClaim: ['package.json', 'tsconfig.json', 'src/index.ts'],
      }));
    },
  },
];

episodes.push({
  name: 'ts2307-relative-path-typo', family: 'tsc',
  run(out) {
    const s = new Session(this.name, {
      'package.json': pkg, 'tsconfig.json': tsconfig(),
      'src/util/format.ts': "export function money(n: number): string {\n  return `$${n.toFixed(2)}`;\n}\n",
      'src/invoice.ts': "import { money } from './utils/format';\n\nexport const line = (label: string, n: number) => `${label}: ${money(n)}`;\n",
    });
    s.open('src/invoice.ts');
    s.useTsc();
    s.edit('src/invoice.ts', "import { money } from './util/format';\n\nexport const line = (label: string, n: number) => `${label}: ${money(n)}`;\n");
    s.finish(out, label({
      family: 'tsc', description: "TS2307 Cannot find module './utils/format' (a relative path typo), fixed by importing './util/format'",
      mustContain: ["'./util/format'"], mustNotClaim: ['tsconfig.json', 'src/util/format.ts'],
    }));
  },
});
