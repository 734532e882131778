// Memory text is untrusted: it comes from captured terminal output, imports, teammates and chat. Every
// surface that renders markdown (hover, chat, sidebar tooltips) passes it through these helpers so a
// memory can never become a link, an image (a fetch that leaks data), raw HTML or a `command:` URI.
// Pure: no 'vscode' import, so the rules are unit-tested without a host.

/** C0/C1 control characters except tab and newline, plus bidi overrides that can disguise text. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** Every ASCII punctuation character may be backslash-escaped in CommonMark; escaping all of them
 * means no markdown construct (links, images, emphasis, HTML, headings, tables) can start. */
const PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** Drops control characters (keeps newlines and tabs). */
export function stripControl(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '');
}

/**
 * Escapes untrusted text for inline use in a MarkdownString (isTrusted limited to our own commands,
 * supportHtml false). Newlines collapse to spaces; the result is at most `max` characters of source.
 * Autolinks (`https://`, `www.`, e-mail) and `command:` cannot form because their `:` `.` `@` are
 * escaped, which breaks the literal patterns the renderer looks for.
 */
export function escapeInline(text: string | undefined, max = 400): string {
  if (!text) return '';
  let t = stripControl(text).replace(/\s+/g, ' ').trim();
  if (t.length > max) t = t.slice(0, max - 1) + '…';
  return t.replace(PUNCT, ch => '\\' + ch);
}

/** Like escapeInline but keeps line breaks (as markdown hard breaks) for multi-line text. */
export function escapeBlock(text: string | undefined, max = 2000): string {
  if (!text) return '';
  let t = stripControl(text).trim();
  if (t.length > max) t = t.slice(0, max - 1) + '…';
  return t
    .split('\n')
    .map(line => line.replace(/\s+/g, ' ').trim().replace(PUNCT, ch => '\\' + ch))
    .filter(line => line.length > 0)
    .join('  \n');
}

/** Encodes command arguments for a `command:` link that the MarkdownString trusts. Brackets, quotes and
 * the like are percent-encoded too, so an argument (an imported id, say) cannot end the link early. */
export function commandUri(command: string, args: unknown[]): string {
  const encoded = encodeURIComponent(JSON.stringify(args)).replace(/[!'()*~]/g, c => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `command:${command}?${encoded}`;
}

/**
 * A fence that the content cannot close: one backtick more than the longest run inside it.
 * Used when text must be shown verbatim (code blocks are inert: no links, no HTML).
 */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** Formats a 0..1 value as a whole percent. */
export function percent(x: number): string {
  if (!Number.isFinite(x)) return '0%';
  return `${Math.round(Math.min(1, Math.max(0, x)) * 100)}%`;
}
