// What an error names: the values its signature normalises away ('setw', `HashMap`, rsycn, format_total/1,
// boost/asio.hpp) and that tell one occurrence of an error from another. Two errors with one signature that
// name different things are the same kind of error, not the same problem: the lesson for 'setw' missing
// from std (#include <iomanip>) says nothing about 'quoted', nor one for `HashMap` about `BTreeSet`. Read
// by difference, for any tool: a word of the message that its normalised text lacks is a value it named,
// whether the tool quoted it or not. Numbers (lines, counts) and the file the error is in (where, not what)
// never count, nor a name the message introduces as the program's own binding ("variable 'Taxx' is
// unbound", "arg city of wrong type", "cannot borrow `v`", "parameter 'items'"): what the code calls its
// variables is not what the error is about, and the fix (the typo, the verb, the borrow) is the same. Pure.

/** Tails the signature drops because they vary with the program ("did you mean …", "{aka …}"). */
const TAILS = [/\s*\{aka [^}]*\}/g, /[;.,]?\s*(?:did you mean|maybe you meant)\b.*$/i, /\s*while parsing near .*$/i];
/** Words after which a message names one of the program's own bindings, not the thing the error is about. */
const BINDING = new Set(['variable', 'var', 'arg', 'argument', 'parameter', 'param', 'borrow', 'value', 'binding', 'local']);
/** Framing a tool prints around any error, and error codes (the signature's own part): never a value. */
const FRAMING = /^(?:error|fatal|warning|note|uncaught|[a-z]{1,4}\d{3,})$/;
const SPLIT = /[\s'"`‘’“”()[\]{},;=|]+/;

function words(text: string): string[] {
  return text.split(SPLIT).map(w => w.replace(/^[.:;,!?*>]+|[.:;,!?*]+$/g, '').toLowerCase()).filter(Boolean);
}

/** A path with its line and column cut off ("src/a.c:2:10" → "src/a.c"). */
function bare(w: string): string {
  return w.replace(/(?::\d+)+$/, '');
}

function isPlace(w: string, file: string | undefined): boolean {
  if (!file) return false;
  const f = file.toLowerCase().replace(/\\/g, '/');
  const p = bare(w).replace(/\\/g, '/');
  if (!p) return false;
  const base = f.slice(f.lastIndexOf('/') + 1);
  return p === f || p === base || f.endsWith(`/${p}`) || p.endsWith(`/${f}`);
}

/**
 * The values `message` (one error line as printed) names beyond its normalised signature text
 * `normalised`, lower-cased; `file` is the file the error is in, whose name is never a value.
 */
export function namedValues(message: string, normalised: string, file?: string): string[] {
  let line = (message.split('\n').find(l => l.trim()) ?? '').replace(/(\w)'(t|s|re|ll|ve|d|m)\b/g, '$1$2');
  for (const re of TAILS) line = line.replace(re, '');
  const known = new Set(words(normalised));
  const out = new Set<string>();
  const all = words(line);
  for (const [i, w] of all.entries()) {
    if (i > 0 && BINDING.has(all[i - 1])) continue;
    // The signature counts "2 arguments were" as "<n> argument was": plural and singular are one word.
    if (known.has(w) || known.has(w.replace(/s$/, '')) || (w === 'were' && known.has('was')) || FRAMING.test(w) || !/\p{L}/u.test(w) || /^<\w+>$/.test(w) || isPlace(w, file)) continue;
    out.add(bare(w));
  }
  return [...out];
}

/** Every word of a memory's own error text, as namedValues spells them, to look the query's values up in. */
export function namedWords(errorText: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(errorText.replace(/(\w)'(t|s|re|ll|ve|d|m)\b/g, '$1$2'))) { out.add(w); out.add(bare(w)); }
  return out;
}

/** The first value the query's error names that the memory's error text does not, if any. */
export function otherName(queryValues: readonly string[], memoryWords: ReadonlySet<string>): string | undefined {
  return queryValues.find(v => !memoryWords.has(v));
}
