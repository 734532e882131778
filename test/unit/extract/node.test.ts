import * as assert from 'assert';
import { primaryError } from '../../../src/core/extract';
import { describeRealOutput } from './realOutput';

describeRealOutput('node', {
  'node-esm-missing-extension.a': { tool: 'node', code: 'ERR_MODULE_NOT_FOUND', message: /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '.*mailer' imported from/, frames: true },
  'node-cjs-relative-path.a': { tool: 'node', code: 'MODULE_NOT_FOUND', message: /^Error: Cannot find module '\.\/lib\/helpers'$/, file: '/home/dev/shop-api/src/app.js', line: 1, frames: true },
  'node-eaddrinuse.a': { tool: 'node', code: 'EADDRINUSE', message: /listen EADDRINUSE: address already in use :::38471/, file: '/home/dev/shop-api/src/server.js', line: 5, frames: true },
  'node-enoent-cwd.a': { tool: 'node', code: 'ENOENT', message: /ENOENT: no such file or directory, open 'templates\/report.html'/, file: '/home/dev/reporting/scripts/report.js', line: 2 },
  'node-cjs-named-vs-default.a': { tool: 'node', code: 'TypeError', message: /^TypeError: fetchJson is not a function$/, file: '/home/dev/crawler/index.js', line: 2 },
  'node-invalid-arg-undefined-env.a': { tool: 'node', code: 'ERR_INVALID_ARG_TYPE', message: /The "path" argument must be of type string/, file: '/home/dev/shop-api/src/server.js', line: 2 },
  'node-import-in-cjs.a': { tool: 'node', code: 'SyntaxError', message: /Cannot use import statement outside a module/, file: '/home/dev/legacy-api/index.js', line: 1 },
});

describe('extract: node, formats without recorded fixtures', () => {
  it('Node REPL "Uncaught" errors', () => {
    assert.strictEqual(primaryError('> foo()\nUncaught ReferenceError: foo is not defined')?.code, 'ReferenceError');
  });
});
