// Text hygiene for untrusted tool output (terminals, diagnostics, imports). Everything here runs in
// time linear in the input: captured output can be 50 MB of ANSI storm, a 1 MB single line or a
// 10k-frame stack trace, and none of that may stall the extension host.

// CSI (ESC [ or the 8-bit 0x9B) params/intermediates/final; bounded classes, no nested quantifiers.
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
// OSC (ESC ] or 0x9D) up to BEL or ST. VS Code shell integration (OSC 633 ;A/B/C/D/E/P) and
// hyperlinks (OSC 8) live here. Unterminated sequences are dropped up to the end of the line so
// a truncated capture does not leak half a mark.
const OSC = /(?:\x1b\]|\x9d)[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?/g;
// DCS / SOS / PM / APC strings, terminated by ST.
const STRING_SEQ = /\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?/g;
// nF escapes (ESC SP..'/' ... final), e.g. ESC ( B charset selection; then two-byte Fe/Fp/Fs escapes.
const OTHER_ESC = /\x1b[ -/]+[0-~]|\x1b[0-~]/g;

/** Removes ANSI/VT escape sequences (CSI colours and cursor moves, OSC titles, links and shell-integration marks). */
export function stripAnsi(s: string): string {
  if (s.indexOf('\x1b') < 0 && !/[\x9b\x9d]/.test(s)) return s;
  return s.replace(OSC, '').replace(STRING_SEQ, '').replace(CSI, '').replace(OTHER_ESC, '');
}

// C0 controls except \t and \n, DEL and the C1 block; lone surrogates are invalid UTF-16 (they come
// from bytes decoded as latin1 or cut mid-pair) and become U+FFFD.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Makes terminal text safe to store and match: strips ANSI sequences, turns CRLF into LF and a lone
 * CR or erase-line/column-1 sequence (progress-bar redraws) into LF so no output is lost, drops NUL and other control characters
 * except \n and \t, and replaces unpaired surrogates with U+FFFD.
 */
export function sanitizeText(s: string): string {
  // Spinners redraw with "erase line" + "cursor to column 1"; like a lone CR, that starts a new line.
  let out = s.indexOf('\x1b[') >= 0 ? s.replace(/\x1b\[(?:[01]?G|2K)/g, '\r') : s;
  out = stripAnsi(out);
  if (out.indexOf('\r') >= 0) out = out.replace(/\r\n?/g, '\n');
  out = out.replace(CONTROL, '');
  if (/[\ud800-\udfff]/.test(out)) out = out.replace(LONE_SURROGATE, '\ufffd');
  return out;
}

/**
 * sanitizeText applied to every string of a record (a memory, an update patch), returning copies: the
 * one boundary where outside text (imports, remember, capture, chat tools) enters the store, so a
 * terminal escape (OSC 52 clipboard writes, OSC 8 links, CSI 2J) is never stored to be replayed later.
 * Keys are left as they are; the import parser checks them.
 */
export function sanitizeRecord<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return sanitizeText(value) as T;
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map(x => sanitizeRecord(x, depth + 1)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = sanitizeRecord(v, depth + 1);
  return out as T;
}

// C0/C1 controls other than \t and \n, and the bidi overrides that reorder what a reader sees.
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text safe to write to a terminal: every control character is shown as a `\u001b`-style escape
 * instead of acting (an OSC 52 sequence would set the clipboard, CSI 2J clear the screen, OSC 8 hide a
 * link). The escape is also a valid JSON string escape, so JSON output stays the same data.
 */
export function escapeControls(s: string): string {
  return s.replace(UNPRINTABLE, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface DecodedText {
  text: string;
  /** Looks like a binary file (NUL bytes or mostly control bytes): callers should not index it. */
  binary: boolean;
  /** Number of U+FFFD replacement characters produced by invalid UTF-8. */
  replaced: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Decodes bytes as UTF-8 (invalid sequences become U+FFFD, a BOM is dropped) and flags binary-looking input. */
export function decodeBytes(buf: Uint8Array): DecodedText {
  const text = utf8.decode(buf);
  let replaced = 0;
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) replaced++;
  return { text, binary: looksBinary(buf, replaced, text.length), replaced };
}

function looksBinary(buf: Uint8Array, replaced: number, chars: number): boolean {
  // Sample the head like git and file(1) do: a NUL byte or many control bytes mean binary.
  const n = Math.min(buf.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i];
    if (b === 0) return true;
    if (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 27 && b !== 12 && b !== 8) control++;
  }
  if (n > 0 && control / n > 0.1) return true;
  // Short snippets with one bad byte are still text; a high share of bad sequences is not.
  return chars >= 64 && replaced / chars > 0.1;
}

/** UTF-8 byte length without allocating. */
export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

const encoder = new TextEncoder();

/**
 * Caps `s` at about `maxBytes` UTF-8 bytes, keeping the head and the tail (errors sit at the end of a
 * build log, the command and first error at the start) with a marker saying how much was dropped.
 * Cuts fall on character boundaries and, when one is near, on line boundaries.
 */
export function boundText(s: string, maxBytes: number): string {
  const total = byteLength(s);
  if (total <= maxBytes) return s;
  const budget = Math.max(0, maxBytes - 64); // room for the marker
  const headBytes = Math.floor(budget / 2);
  const tailBytes = budget - headBytes;

  // encodeInto stops at a whole character, so `read` is a safe UTF-16 cut.
  const headBuf = new Uint8Array(headBytes);
  let headEnd = encoder.encodeInto(s.slice(0, headBytes), headBuf).read ?? 0;
  const nl = s.lastIndexOf('\n', headEnd - 1);
  if (nl >= 0 && headEnd - nl < headBytes / 10) headEnd = nl + 1;

  // A tail of `tailBytes` UTF-16 units holds at least `tailBytes` bytes; trim its front to the budget.
  let tailStart = Math.max(headEnd, s.length - tailBytes);
  let tailLen = byteLength(s.slice(tailStart));
  while (tailLen > tailBytes && tailStart < s.length) {
    const c = s.charCodeAt(tailStart);
    const pair = c >= 0xd800 && c <= 0xdbff && tailStart + 1 < s.length;
    tailLen -= c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    tailStart += pair ? 2 : 1;
  }
  if ((s.charCodeAt(tailStart) & 0xfc00) === 0xdc00) tailStart++;
  const nl2 = s.indexOf('\n', tailStart);
  if (nl2 >= 0 && nl2 - tailStart < tailBytes / 10) tailStart = nl2 + 1;

  const omitted = total - byteLength(s.slice(0, headEnd)) - byteLength(s.slice(tailStart));
  return `${s.slice(0, headEnd)}\n…[${omitted} bytes omitted]…\n${s.slice(tailStart)}`;
}

/** Splits into lines, each cut to `maxLineChars` (matching never needs more; keeps regexes cheap). */
export function boundedLines(s: string, maxLineChars = 2000): string[] {
  const lines = s.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].length > maxLineChars) lines[i] = lines[i].slice(0, maxLineChars) + '…';
  }
  return lines;
}
