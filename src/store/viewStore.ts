// Where the persisted view (view.bin) meets the other processes sharing the folder: it is published only
// under the store lock and only while the log still is the one it was built from (a compaction elsewhere
// makes it stale, and may have removed text it holds), never over a view that covers more of the same
// log; a compaction removes every view of the old generation (view.bin and any being written), so a
// forgotten memory's text is in no view on disk once the forget's compactions are done.
import * as fs from 'fs';
import * as path from 'path';
import { fsyncDir, renameWithRetry } from './atomicFile';
import { logCovers } from './eventLog';
import { withLock, type LockOptions } from './lock';
import { ViewFile } from './viewFile';
import { VIEW_FILE, type LogPosition } from './viewFormat';

/** Renames a finished temporary view into place; false (and the file deleted) when it is stale or superseded. */
export async function publishView(dir: string, tmp: string, pos: LogPosition, lock?: LockOptions): Promise<boolean> {
  try {
    return await withLock(dir, () => {
      // One that covers more of the same log stays (an equal one is replaced: it may be one found damaged).
      const cur = ViewFile.header(dir);
      const superseded = cur && cur.log.generation === pos.generation && cur.log.head === pos.head && cur.log.offset > pos.offset;
      if (superseded || !logCovers(dir, pos)) return false;
      renameWithRetry(tmp, path.join(dir, VIEW_FILE));
      fsyncDir(dir);
      return true;
    }, lock);
  } finally {
    try { fs.unlinkSync(tmp); } catch { /* renamed, or removed by a compaction meanwhile */ }
  }
}

/** The view and views being written, of any process (call under the lock, as compaction does). */
export function removeViewFiles(dir: string): void {
  let names: string[];
  try { names = fs.readdirSync(dir); } catch { return; }
  for (const name of names) {
    if (name !== VIEW_FILE && !(name.startsWith(`.${VIEW_FILE}.`) && name.endsWith('.tmp'))) continue;
    try { fs.unlinkSync(path.join(dir, name)); } catch { /* gone already */ }
  }
}
