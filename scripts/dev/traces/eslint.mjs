// ESLint sessions: diagnostics from real `eslint -f json` runs, rule ids as codes.
import { Session } from './session.mjs';
import { label } from './label.mjs';
import { deps } from './deps.mjs';

export const episodes = [
  {
    name: 'eslint-no-unused-vars', family: 'eslint',
    run(out) {
      const s = new Session(this.name, {
        'package.json': JSON.stringify({ name: 'lint', version: '1.0.0', private: true }, null, 2) + '\n',
        'eslint.config.mjs': "import js from '@eslint/js';\n\nexport default [\n  js.configs.recommended,\n  { files: ['src/**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', console: 'readonly' } } },\n];\n",
        'src/stats.js': "const path = require('path');\n\nfunction mean(xs) {\n  const count = xs.length;\n  return xs.reduce((a, b) => a + b, 0) / xs.length;\n}\n\nmodule.exports = { mean };\n",
      }, { deps: deps('eslint') });
      s.open('src/stats.js');
      s.useEslint();
      s.edit('src/stats.js', "function mean(xs) {\n  return xs.reduce((a, b) => a + b, 0) / xs.length;\n}\n\nmodule.exports = { mean };\n");
      s.finish(out, label({
        family: 'eslint', description: "ESLint no-unused-vars for 'path' and 'count' in src/stats.js, fixed by deleting the unused require and variable",
        mustContain: ['no-unused-vars', "require('path')"], mustNotClaim: ['eslint.config.mjs', 'package.json'],
      }));
    },
  },
  {
    name: 'eslint-no-floating-promises', family: 'eslint',
    run(out) {
      const s = new Session(this.name, {
        'package.json': JSON.stringify({ name: 'lint', version: '1.0.0', private: true, type: 'module' }, null, 2) + '\n',
        'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true }, include: ['src'] }, null, 2) + '\n',
        'eslint.config.mjs': "import tseslint from 'typescript-eslint';\n\nexport default tseslint.config(\n  { ignores: ['eslint.config.mjs'] },\n  ...tseslint.configs.recommendedTypeChecked,\n  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },\n);\n",
        'src/save.ts': "export async function save(data: string): Promise<void> {\n  await new Promise(resolve => setTimeout(resolve, 10));\n  console.log('saved', data.length);\n}\n\nexport async function onSubmit(form: { body: string }): Promise<void> {\n  save(form.body);\n  console.log('submitted');\n}\n",
      }, { deps: deps('eslint') });
      s.open('src/save.ts');
      s.useEslint();
      s.edit('src/save.ts', "export async function save(data: string): Promise<void> {\n  await new Promise(resolve => setTimeout(resolve, 10));\n  console.log('saved', data.length);\n}\n\nexport async function onSubmit(form: { body: string }): Promise<void> {\n  await save(form.body);\n  console.log('submitted');\n}\n");
      s.finish(out, label({
        family: 'eslint', description: '@typescript-eslint/no-floating-promises on an un-awaited save() call in src/save.ts, fixed by awaiting it',
        mustContain: ['@typescript-eslint/no-floating-promises', 'await save(form.body)'], mustNotClaim: ['eslint.config.mjs', 'tsconfig.json'],
      }));
    },
  },
];
