// Mocha entry for phase 2: runs in a NEW browser session and extension host against the same
// user-data-dir and workspace as phase 1, so these tests see only what phase 1 persisted.
import { runMochaIn } from '../index';

export function run(): Promise<void> {
  return runMochaIn(__dirname, 'phase 2');
}
