// Engram's ESLint config, run by `npm run lint` (part of `npm test`). It lives in the tools/lint
// workspace so that its imports (typescript-eslint and the TypeScript 5.9 it parses with) resolve here,
// not to the root's TypeScript 7, which has no JS API; the root eslint.config.mjs re-exports it.
//
// typescript-eslint's recommended set without type information: the type-checked set works with our
// tsconfigs (TypeScript 5.9 reads them) but cost 4x the time (70 s of CPU against 17 s) for every
// `npm test`, and its 226 findings (mostly no-unsafe-* on JSON and test doubles) are a task of their own.
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The layering, checked here on every file (with a message naming the rule) and by scripts/layering.mjs
// in every esbuild bundle; keep the two in step. Paths are relative to the repository root.
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map(m => `node:${m}`)];
const noImports = (names, why) => ({
  'no-restricted-imports': ['error', { paths: names.map(name => ({ name, message: why })) }],
});
const noPaths = zones => ({ 'import-x/no-restricted-paths': ['error', { basePath: root, zones }] });

export default tseslint.config(
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    ignores: ['dist/', 'out/', '.vscode-test/', 'bench/results/', 'test-results/', '.engram-dev/',
      // Projects Engram is tried on, not Engram's code.
      'demo/', 'test/fixtures/workspace/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: globals.node },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mjs', '.js', '.json'] })],
    },
    rules: {
      // Engram's job is to find and strip terminal control characters (ANSI escapes, NUL, C1 codes): every
      // regex with one is deliberate, so this rule could only ever be silenced, line by line.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', {
        // `_x` names a parameter a signature needs or a property left out of a rest copy.
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
      // Object-literal getters that read live fields of the instance (refresh() replaces them) need the
      // instance under another name; `self` is the one.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
      // transformers.js is required when the embedding worker starts, not at load, so a missing or
      // broken install becomes a clear init error; and its CommonJS build is the one the .vsix ships.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^@huggingface/transformers$'] }],
    },
  },
  {
    // Its one job: require the store bundle (dist/store.js), at a path known only at run time, on first
    // use, so that activation parses almost nothing.
    files: ['src/vscode/storeLoader.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The same for the hook's own entry (dist/cliStore.js at Stop/SessionEnd) and the CLI's entry (the
    // bundle of the command it runs): at a path known only at run time.
    files: ['src/hookMain.ts', 'src/cli/bundles.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/core/**'],
    rules: {
      ...noImports(['vscode', ...NODE_BUILTINS], 'src/core is pure TypeScript: no vscode, no Node built-ins.'),
      ...noPaths([{ target: 'src/core', from: ['src/views', 'src/store', 'src/vscode', 'src/mcp', 'src/server', 'src/cli.ts', 'src/cli', 'src/cliHook.ts', 'src/cliReplay.ts', 'src/extension.ts'], message: 'src/core is the lowest layer.' }]),
    },
  },
  {
    files: ['src/store/**'],
    rules: {
      ...noImports(['vscode'], 'src/store is Node-only: no vscode.'),
      ...noPaths([{ target: 'src/store', from: ['src/views', 'src/vscode', 'src/mcp', 'src/server', 'src/cli.ts', 'src/cli', 'src/cliHook.ts', 'src/cliReplay.ts', 'src/extension.ts'], message: 'src/store is below the views, vscode, mcp and the CLI.' }]),
    },
  },
  {
    // What the extension host and the webview share (message protocols, the memories view model): it
    // runs in the browser too, and sits just above src/core.
    files: ['src/views/**'],
    rules: {
      ...noImports(['vscode', ...NODE_BUILTINS], 'src/views is shared with the webview (a browser): no vscode, no Node built-ins.'),
      ...noPaths([{ target: 'src/views', from: ['src/store', 'src/vscode', 'src/mcp', 'src/server', 'src/cli.ts', 'src/cli', 'src/cliHook.ts', 'src/cliReplay.ts', 'src/extension.ts'], message: 'src/views is shared with the webview: only src/core is below it.' }]),
    },
  },
  {
    // The team server (engram serve): its own process, on core, store and the MCP tools; pg and PGlite are
    // required where a server starts, never at load.
    files: ['src/server/**'],
    rules: {
      ...noImports(['vscode'], 'src/server is the team server: no vscode.'),
      ...noPaths([{ target: 'src/server', from: ['src/views', 'src/vscode', 'src/cli.ts', 'src/cli', 'src/cliHook.ts', 'src/cliReplay.ts', 'src/extension.ts'], message: 'src/server sits beside the CLI, below nothing but it.' }]),
    },
  },
  {
    files: ['media/src/**'],
    languageOptions: { globals: globals.browser },
    rules: {
      ...noImports(['vscode', ...NODE_BUILTINS], 'the webview runs in a browser.'),
      // Pure src/core runs in a browser too (the insights charts use it); the host's other code does not.
      ...noPaths([{ target: 'media/src', from: ['src'], except: ['core', 'views'], message: 'the webview shares only src/core and src/views with the host.' }]),
    },
  },
  {
    // Playwright runs these callbacks in the page.
    files: ['test/e2e/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['test/**'],
    rules: {
      // mocha's CommonJS entry, markdown-it (no types), and fs as the shared module object a test patches.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^mocha/lib/mocha\\.cjs$', '^markdown-it$', '^fs$'] }],
    },
  },
);
