// A finished command's output as capture keeps it, decided once for live capture and replay alike: the
// redraws of spinners and progress bars taken out (npm's `⠙ ⠹`, `\r` percentages), and the bounded
// excerpt an episode carries (head and tail: the command's first lines and its error at the end).
import { boundText } from '../text';

/** Bytes of the excerpt an episode keeps of a command's output (the rest is dropped once it is read). */
export const OUTPUT_EXCERPT_BYTES = 1500;
/**
 * Bytes of a command's output the session reads for its error (head and tail), live and in replay; a
 * recorded trace keeps as much, so replaying it reads what the window read.
 */
export const MAX_COMMAND_OUTPUT_BYTES = 256 * 1024;

// Braille spinners (npm, ora, cli-spinners) and the circle ones; `|/-\\` only as a line of its own.
const SPINNER_GLYPHS = /^[\u2800-\u28ff\u25d0-\u25d3\u25f4-\u25f7\s]+$/u;
const SPINNER_LEAD = /^\s*[\u2800-\u28ff\u25d0-\u25d3\u25f4-\u25f7]+\s*/u;
const ASCII_SPINNER = /^\s*[|/\\-]\s*$/;
const BAR = /[\u2580-\u259f\u25a0\u25a1\u2501\u2500=#>]{4,}|\d{1,3}(?:\.\d+)?\s?%/u;
const MAYBE = /[\u2800-\u28ff\u25d0-\u25d3\u25f4-\u25f7%\u2580-\u259f]|^\s*[|/\\-]\s*$/mu;

/**
 * Output without progress redraws. Terminal text arrives with each `\r` redraw on a line of its own
 * (core/text.ts sanitizeText keeps them so nothing real is lost); here a line that is only a spinner
 * frame goes, a spinner in front of a status line is dropped (and the same status redrawn is kept
 * once), and a run of redraws of one progress line (the same line but for its numbers, with a bar or a
 * percentage) keeps only its last state.
 */
export function withoutProgress(output: string): string {
  if (!MAYBE.test(output)) return output;
  const out: string[] = [];
  let lastShape: string | undefined;
  let lastSpun: string | undefined;
  for (const raw of output.split('\n')) {
    if ((SPINNER_GLYPHS.test(raw) && raw.trim()) || ASCII_SPINNER.test(raw)) continue;
    const line = raw.replace(SPINNER_LEAD, '');
    const spun = line !== raw;
    if (spun && line === lastSpun) continue;
    lastSpun = spun ? line : undefined;
    // The line with its numbers, bar fill and spacing collapsed: what stays the same between redraws.
    const shape = BAR.test(line) ? line.replace(/\d+(?:\.\d+)?/g, '#').replace(/[\u2580-\u259f\u25a0\u25a1\u2501\u2500=#>.\s-]+/gu, '=') : undefined;
    if (shape !== undefined && shape === lastShape && out.length) out[out.length - 1] = line;
    else out.push(line);
    lastShape = shape;
  }
  return out.join('\n');
}

/** A command's output as the session reads it: head and tail within the bound (as a trace records it), without progress redraws. */
export function commandOutput(raw: string): string {
  return withoutProgress(boundText(raw, MAX_COMMAND_OUTPUT_BYTES));
}

/** What an episode keeps of a command's output: its head and tail within the excerpt size. */
export function outputExcerpt(output: string): string {
  return boundText(output, OUTPUT_EXCERPT_BYTES);
}
