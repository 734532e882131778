// One temporary folder per unit run: loaded by mocha (`require` in .mocharc.json) before any test file,
// it points TMPDIR at a fresh folder, so every mkdtemp in the tests and in the child processes they
// start lands inside it, and removes it when the run ends. Tests still make their own folders; none of
// them has to remember to clean up, and a run no longer leaves dozens of engram-* folders in /tmp.
import { chmodSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const root = mkdtempSync(join(tmpdir(), 'engram-unit-run-'));
// World-readable like /tmp itself: one test runs a child as `nobody` from a folder under it.
chmodSync(root, 0o755);
process.env.TMPDIR = root;

export const mochaHooks = {
  afterAll(): void {
    rmSync(root, { recursive: true, force: true });
  },
};
