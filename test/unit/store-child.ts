// Child process for the store durability tests (bundled by store-helpers.ts, not a test itself).
//   node store-child.js DIR PREFIX COUNT COMPACT_EVERY
// Appends COUNT pairs (recorded + feedback) one append at a time, printing each id only after append()
// returned, and compacts every COMPACT_EVERY appends. COUNT 0 means forever (until killed).
import * as fs from 'fs';
import { MemoryState } from '../../src/core/reduce';
import { EventLog } from '../../src/store/eventLog';
import { testMemory } from './store-helpers';

async function main(): Promise<void> {
  const [dir, prefix, countArg, compactArg] = process.argv.slice(2);
  const count = Number(countArg) || Infinity;
  const compactEvery = Number(compactArg) || 0;
  const log = await EventLog.open(dir);
  let state = new MemoryState();
  state.applyAll((await log.readAll()).events);
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${i}`;
    const events = [
      { type: 'recorded' as const, id, at: Date.now(), memory: testMemory(id, `memory ${id} ${'x'.repeat(i % 7 * 300)}`) },
      { type: 'feedback' as const, id, at: Date.now(), outcome: 'prevented' as const },
    ];
    await log.append(events);
    fs.writeSync(1, id + '\n');
    state.applyAll(events);
    if (compactEvery && (i + 1) % compactEvery === 0) {
      const r = await log.compact(state);
      if (r.reset) state = new MemoryState();
      state.applyAll(r.newEvents);
    }
  }
}

main().catch(err => { fs.writeSync(2, `child failed: ${(err as Error).stack}\n`); process.exit(1); });
