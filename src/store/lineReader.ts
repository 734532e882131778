// Lines of an import file, bounded BEFORE they are buffered. readline keeps a whole line in memory before
// handing it over, so one 600 MB line crashed the CLI and the good line after it was lost. Here a line
// longer than the bound is dropped while it streams past (only its size is kept) and reading goes on
// with the next line; the import reports it as a bad line.
import { MAX_LINE_BYTES } from '../core/importFormat';

/** A line that was too long to read: only how long it was. */
export class OversizedLine {
  constructor(readonly bytes: number) {}
}

export function oversizedLineError(bytes: number): string {
  return `line is larger than ${MAX_LINE_BYTES / 1024 / 1024} MB (${bytes} bytes); skipped without reading it`;
}

/** Splits a byte stream on "\n" (UTF-8 safe: that byte never occurs inside a character). */
export async function* boundedLines(input: AsyncIterable<Buffer | string>, maxBytes = MAX_LINE_BYTES): AsyncGenerator<string | OversizedLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  let skipped = 0;
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let from = 0;
    while (from < buf.length) {
      const nl = buf.indexOf(10, from);
      const end = nl < 0 ? buf.length : nl;
      const piece = end - from;
      if (skipping) {
        skipped += piece;
      } else if (size + piece > maxBytes) {
        skipping = true;
        skipped = size + piece;
        parts = [];
        size = 0;
      } else if (piece) {
        // A copy, so a kept line does not pin the whole chunk it came in.
        parts.push(Buffer.from(buf.subarray(from, end)));
        size += piece;
      }
      if (nl < 0) break;
      if (skipping) yield new OversizedLine(skipped);
      else yield Buffer.concat(parts, size).toString('utf8');
      skipping = false;
      skipped = 0;
      parts = [];
      size = 0;
      from = nl + 1;
    }
  }
  if (skipping) yield new OversizedLine(skipped);
  else if (size) yield Buffer.concat(parts, size).toString('utf8');
}
