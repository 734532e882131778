// The normalised views masking detectors read besides the text itself: escaped quotes and backslashes
// read once or twice unescaped (a k8s manifest inside a JSON log line, an AWS CLI answer quoted in another
// JSON), CRLF read as LF, and look-alike, full-width, invisible and TAG characters folded
// (core/lookalikes.ts). A view is made only for the lines it changes (a copy of a long text cost more
// than all the detectors on it), detectors find spans in it, and `toInput` maps each span back onto the
// input, so what is masked is the input's own characters (a span over `\"` masks the backslash too).
import { foldKeepingPositions, inputIndex } from '../lookalikes';

export interface MaskView {
  /** What the detectors read. */
  text: string;
  /** Input indices each step dropped, last step first (empty: same positions as the input). */
  steps: number[][];
}

const NON_ASCII = /[^\x00-\x7f]/;
const ESCAPE = /\\["'\\]/g;

/** Views of the lines of `input` that normalising changes, each with the offset of its line. */
export function maskViews(input: string): { offset: number; view: MaskView }[] {
  if (!input.includes('\\') && !input.includes('\r') && !NON_ASCII.test(input)) return [];
  // Only the lines that hold a backslash, a CR or a non-ASCII character (found by plain scans).
  const starts = new Set<number>();
  const lineOf = (i: number) => { starts.add(input.lastIndexOf('\n', i) + 1); };
  for (let i = input.indexOf('\\'); i >= 0; i = input.indexOf('\\', input.indexOf('\n', i) + 1 || input.length)) lineOf(i);
  for (let i = input.indexOf('\r'); i >= 0; i = input.indexOf('\r', input.indexOf('\n', i) + 1 || input.length)) lineOf(i);
  const WIDE = /[^\x00-\x7f]/g;
  for (let m = WIDE.exec(input); m; m = WIDE.exec(input)) {
    lineOf(m.index);
    const eol = input.indexOf('\n', m.index);
    if (eol < 0) break;
    WIDE.lastIndex = eol + 1;
  }
  const out: { offset: number; view: MaskView }[] = [];
  for (const start of [...starts].sort((a, b) => a - b)) {
    const eol = input.indexOf('\n', start);
    const line = input.slice(start, eol < 0 ? input.length : eol);
    const view = maskView(line);
    if (view.text !== line) out.push({ offset: start, view });
  }
  return out;
}

export function maskView(input: string): MaskView {
  const view: MaskView = { text: input, steps: [] };
  // Three plain scans: one regex with the three alternatives cost more than all the rest of the view.
  if (!input.includes('\\') && !input.includes('\r') && !NON_ASCII.test(input)) return view;
  // Escapes: `\"` (and `\'`, a Python repr's or a shell's) is a quote and `\\` a backslash, twice for JSON quoted inside JSON. `\n` stays as it is:
  // a Windows path (C:\new) would turn into a line break, and the PEM detector reads `\n` itself.
  for (let pass = 0; pass < 2 && /\\["'\\]/.test(view.text); pass++) {
    const dropped: number[] = [];
    ESCAPE.lastIndex = 0;
    for (let m = ESCAPE.exec(view.text); m; m = ESCAPE.exec(view.text)) dropped.push(m.index);
    step(view, without(view.text, dropped), dropped);
  }
  // A line of a CRLF text ends in a CR: detectors read it as a line end.
  if (view.text.endsWith('\r')) step(view, view.text.slice(0, -1), []);
  if (view.text.includes('\r\n')) {
    const dropped: number[] = [];
    for (let i = view.text.indexOf('\r\n'); i >= 0; i = view.text.indexOf('\r\n', i + 2)) dropped.push(i);
    step(view, without(view.text, dropped), dropped);
  }
  const folded = foldKeepingPositions(view.text);
  if (folded.text !== view.text) step(view, folded.text, folded.deleted ?? []);
  return view;
}

/** `text` less the characters at `dropped` (ascending): slices, not a regex replace (10x cheaper here). */
function without(text: string, dropped: readonly number[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const d of dropped) { parts.push(text.slice(from, d)); from = d + 1; }
  parts.push(text.slice(from));
  return parts.join('');
}

function step(view: MaskView, text: string, dropped: number[]): void {
  view.text = text;
  if (dropped.length) view.steps.unshift(dropped);
}

/** Input offsets [start, end) of the view span [start, end). */
export function toInput(view: MaskView, start: number, end: number): [number, number] {
  if (!view.steps.length) return [start, end];
  let s = start, e = end - 1;
  for (const dropped of view.steps) { s = inputIndex(dropped, s); e = inputIndex(dropped, e); }
  return [s, end > start ? e + 1 : s];
}
