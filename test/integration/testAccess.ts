// The running extension's parts for the integration tests: activate() returns them as `testing` only
// outside Production mode, so a test that gets none says why instead of failing on an undefined.
import * as assert from 'assert';
import type { EngramApi, EngramTestAccess } from '../../src/vscode/api';

export function testAccess(api: EngramApi): EngramTestAccess {
  assert.ok(api.testing, 'activate() gave no test access (is the extension running in Production mode?)');
  return api.testing;
}
