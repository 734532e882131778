import * as assert from 'assert';
import { extractErrors, primaryError } from '../../../src/core/extract';
import { fixture } from '../../fixtures/tool-output';
import { describeRealOutput } from './realOutput';

describeRealOutput('python', {
  'py-module-not-in-venv.a': { tool: 'python', code: 'ModuleNotFoundError', message: /^ModuleNotFoundError: No module named 'boto4_s3_helpers'$/, file: '/home/dev/etl/etl.py', line: 2, frames: true },
  'py-unbound-local.b': { tool: 'python', code: 'UnboundLocalError', message: /cannot access local variable 'total'/, file: '/home/dev/game/app/main.py', frames: true },
  'py-tabs-spaces.a': { tool: 'python', code: 'TabError', message: /inconsistent use of tabs and spaces/, file: '/home/dev/scraper/scrape.py', line: 3 },
  'py-json-empty-response.a': { tool: 'python', code: 'JSONDecodeError', message: /^json\.decoder\.JSONDecodeError: Expecting value/, frames: true },
});

describe('extract: python', () => {
  it('keeps Python frames in order and points at the innermost frame', () => {
    const e = primaryError(fixture('python', 'py-property-recursion', 'b'))!;
    assert.strictEqual(e.code, 'RecursionError');
    assert.ok(e.stack.every(f => f.startsWith('File "')), e.stack.join('\n'));
    assert.strictEqual(e.file, '/home/dev/settings/cfg.py');
  });

  it('Python chained exceptions: the first (root) exception is primary, both are listed', () => {
    const raw = 'Traceback (most recent call last):\n  File "/app/a.py", line 2, in <module>\n    d["k"]\nKeyError: \'k\'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "/app/a.py", line 4, in <module>\n    raise RuntimeError("config incomplete")\nRuntimeError: config incomplete';
    assert.deepStrictEqual(extractErrors(raw).map(e => e.code), ['KeyError', 'RuntimeError']);
    assert.strictEqual(primaryError(raw)?.code, 'KeyError');
  });
});
