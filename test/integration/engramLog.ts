// The text of the Engram log channel in this window (every file the channel wrote), for tests that
// assert what was logged and for failure messages that show what capture saw.
import * as fs from 'fs';
import * as path from 'path';
import type { EngramTestAccess } from '../../src/vscode/api';

export function logText(api: EngramTestAccess): string {
  const dir = path.dirname(api.services.context.logUri.fsPath);
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let names: string[] = [];
    try { names = fs.readdirSync(d); } catch { return; }
    for (const n of names) {
      const p = path.join(d, n);
      try {
        const st = fs.statSync(p);
        if (st.isDirectory() && depth > 0) walk(p, depth - 1);
        else if (st.isFile() && /engram/i.test(p) && p.endsWith('.log')) out.push(fs.readFileSync(p, 'utf8'));
      } catch { /* rotated */ }
    }
  };
  walk(dir, 2);
  return out.join('\n');
}
