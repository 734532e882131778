// `engram import FILE|-`: JSON lines into the store, then the pattern pass over what they completed.
import * as fs from 'fs';
import { boundedLines, type OversizedLine } from '../store/lineReader';
import type { MemoryStore } from '../store/memoryStore';
import { runPatternPass } from '../store/patternPass';
import { need, str, type Args, type Io } from './args';

export async function runImport(store: MemoryStore, rest: string[], args: Args, io: Io): Promise<number> {
  const file = need(rest[0], 'import needs a FILE (JSON lines, or - for stdin)');
  // Lines are bounded before they are buffered (store/lineReader.ts): an over-long line is skipped, the
  // next one is read.
  let lines: AsyncIterable<string | OversizedLine>;
  if (file === '-') {
    lines = boundedLines(process.stdin);
  } else {
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) throw new Error('not a file');
    } catch (e) {
      io.err(`engram: cannot read ${file}: ${(e as Error).message}\n`);
      return 1;
    }
    lines = boundedLines(fs.createReadStream(file));
  }
  const batch = str(args, 'batch');
  const report = await store.importLines(lines, {
    trusted: args.flags.has('trusted'),
    batchSize: batch ? Math.max(1, Number(batch) || 500) : undefined,
  });
  // Imported episodes may complete a pattern, as the window's background pass would find.
  const patterns = report.imported || report.merged ? (await runPatternPass(store)).created : [];
  io.out(JSON.stringify({
    imported: report.imported, skipped: report.skipped, errors: report.errors, ...(report.errorsOmitted ? { errorsOmitted: report.errorsOmitted } : {}),
    merged: report.merged ?? 0, ...(report.notes?.length ? { notes: report.notes } : {}), ...(report.notesOmitted ? { notesOmitted: report.notesOmitted } : {}),
    ...(patterns.length ? { patterns } : {}),
  }) + '\n');
  // Exit 0 when anything was usable; 1 when every line failed (the file was not an import at all).
  return report.imported === 0 && (report.merged ?? 0) === 0 && report.errors.length > 0 ? 1 : 0;
}
