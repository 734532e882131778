import * as assert from 'assert';
import { primaryError } from '../../../src/core/extract';
import { describeRealOutput } from './realOutput';

describeRealOutput('shell', {
  'sh-tool-not-installed.a': { tool: 'shell', code: 'command-not-found', message: /^pnpm: command not found$/, file: 'scripts/build.sh', line: 3 },
  'sh-unbound-variable.a': { tool: 'shell', message: /^DEPLOY_ENV: unbound variable$/, file: 'deploy.sh', line: 3 },
  'sh-script-not-executable.a': { tool: 'shell', code: 'EACCES', message: /\.\/deploy\.sh: Permission denied/ },
  'sh-bad-substitution.a': { tool: 'shell', message: /Bad substitution/, file: 'rename.sh', line: 2 },
});

describe('extract: shell, formats without recorded fixtures', () => {
  it('zsh and dash messages', () => {
    assert.strictEqual(primaryError('zsh: command not found: pnpm')?.code, 'command-not-found');
    assert.strictEqual(primaryError('sh: 1: yarn: not found')?.code, 'command-not-found');
  });
});
