// Child process for the view SIGKILL test in store-view.test.ts (bundled there, not a test itself).
//   node store-view-child.js DIR PREFIX
// Records a memory and its feedback, prints the id once both returned (acknowledged), and writes the
// store's view every third memory, forever (until killed).
import * as fs from 'fs';
import { MemoryStore } from '../../src/store/memoryStore';
import { testMemory } from './store-helpers';

async function main(): Promise<void> {
  const [dir, prefix] = process.argv.slice(2);
  const store = await MemoryStore.open(dir, { compactDelayMs: 60_000 });
  for (let i = 0; ; i++) {
    const id = `${prefix}-${i}`;
    await store.record(testMemory(id, `marker ${id} ${'words of padding '.repeat(i % 9 * 20)}`));
    await store.feedback(id, 'prevented');
    fs.writeSync(1, id + '\n');
    if (i % 3 === 2) await store.saveView();
  }
}

main().catch(err => { fs.writeSync(2, `child failed: ${(err as Error).stack}\n`); process.exit(1); });
