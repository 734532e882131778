import * as assert from 'assert';
import { primaryError } from '../../../src/core/extract';
import { describeRealOutput } from './realOutput';

describeRealOutput('npm', {
  'npm-missing-script.a': { tool: 'npm', message: /^Missing script: "dev"$/ },
  'npm-no-package-json.a': { tool: 'npm', code: 'ENOENT', message: /Could not read package\.json/ },
  'npm-ebadengine.b': { tool: 'npm', code: 'EBADENGINE', message: /Unsupported engine/ },
  'npm-workspace-protocol.a': { tool: 'npm', code: 'EUNSUPPORTEDPROTOCOL', message: /Unsupported URL Type "workspace:"/ },
});

describe('extract: npm, formats without recorded fixtures', () => {
  it('npm 6 ELIFECYCLE alone is a wrapper; with a tsc error above it, tsc wins', () => {
    const npm6 = 'npm ERR! code ELIFECYCLE\nnpm ERR! errno 2\nnpm ERR! web@1.0.0 build: `tsc -p .`\nnpm ERR! Exit status 2\nnpm ERR!\nnpm ERR! Failed at the web@1.0.0 build script.';
    const only = primaryError(npm6)!;
    assert.strictEqual(only.tool, 'npm');
    assert.strictEqual(only.code, 'ELIFECYCLE');
    assert.strictEqual(only.wrapper, true);
    const both = primaryError(`> web@1.0.0 build\n> tsc -p .\n\nsrc/a.ts(4,7): error TS2339: Property 'x' does not exist on type 'Y'.\n${npm6}`)!;
    assert.strictEqual(both.code, 'TS2339');
  });

  it('npm ERESOLVE (registry peer conflict) is the root error, with its code', () => {
    const raw = [
      'npm error code ERESOLVE',
      'npm error ERESOLVE unable to resolve dependency tree',
      'npm error',
      'npm error While resolving: web@1.0.0',
      'npm error Found: react@18.3.1',
      'npm error node_modules/react',
      'npm error   react@"^18.3.1" from the root project',
      'npm error',
      'npm error Could not resolve dependency:',
      'npm error peer react@"^17.0.0" from react-beautiful-dnd@13.1.1',
      'npm error Fix the upstream dependency conflict, or retry',
      'npm error this command with --force or --legacy-peer-deps',
    ].join('\n');
    const e = primaryError(raw)!;
    assert.strictEqual(e.tool, 'npm');
    assert.strictEqual(e.code, 'ERESOLVE');
    assert.strictEqual(e.message, 'ERESOLVE unable to resolve dependency tree');
    assert.ok(!e.wrapper);
  });

  it('npm 404 in the old "npm ERR!" format', () => {
    const e = primaryError('npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found\nnpm ERR! 404\nnpm ERR! 404  \'left-padd@*\' is not in this registry.')!;
    assert.strictEqual(e.code, 'E404');
    assert.match(e.message, /^404 Not Found - GET/);
  });
});
