// Whether a memory names the test a query's output reports failing. An agent remembers a test failure by
// the runner's key line ("● cart › total includes tax", "FAILED tests/test_cart.py::test_tax", "--- FAIL:
// TestTax") or by a sentence that names the test; the raw output it pastes later carries the same name
// among hundreds of other words, and the runner's generic assertion message ("expect(received).toBe
// (expected)") is not what the lesson is about. The failing test's name is: another test is a near miss
// (errorDetails), the same test is the same problem. Pure.
import type { ErrorDetail } from '../errorDetails';
import type { Memory } from '../types';

/** Runner lines naming a failed test that errorDetails does not read: libtest's `test x ... FAILED`. */
const RUNNER_FAILED = [/^test (\S{1,200}) \.\.\. FAILED$/];
const MAX_RUNNER_LINES = 2000;

/**
 * The tests a runner's own status lines report failed, as test details, for a query whose error is the
 * runner's summary (cargo's `error: test failed, to rerun pass --lib` is the same for every test): which
 * test failed tells one failure from another, as errorDetails' test kinds do.
 */
export function runnerFailedTests(raw: string): ErrorDetail[] {
  const out = new Map<string, ErrorDetail>();
  for (const line of raw.split('\n', MAX_RUNNER_LINES)) {
    for (const re of RUNNER_FAILED) {
      const m = re.exec(line.trim());
      if (m && !out.has(m[1])) out.set(m[1], { kind: 'test', noun: 'test', value: m[1] });
    }
  }
  return [...out.values()];
}

/** Shorter names ("adds", "works") are too common to identify a test by their text alone. */
const MIN_NAME_CHARS = 10;

/** The query's failing tests (from errorDetails), as the names a memory may carry: whole and leaf. */
export function failingTestNames(details: readonly ErrorDetail[]): string[] {
  const out = new Set<string>();
  for (const d of details) {
    if (d.kind !== 'test') continue;
    const whole = d.value.trim().toLowerCase();
    out.add(whole);
    // "suite › title", "file > title", "path::test": a sentence names the test by its own title.
    const leaf = whole.split(/\s+[›>]\s+|::/).pop()?.trim();
    if (leaf) out.add(leaf);
  }
  return [...out].filter(n => n.length >= MIN_NAME_CHARS);
}

/**
 * True when the memory's own error details name one of the query's failing tests, or its text carries
 * the name verbatim (case aside). Lessons and episodes only: they are about a failure.
 */
export function namesFailingTest(m: Memory, names: readonly string[], memoryDetails: readonly ErrorDetail[]): boolean {
  if (!names.length || (m.kind !== 'lesson' && m.kind !== 'episode')) return false;
  const wanted = new Set(names);
  for (const d of memoryDetails) if (d.kind === 'test' && wanted.has(d.value.trim().toLowerCase())) return true;
  const text = (m.kind === 'lesson' ? `${m.errorText}\n${m.rootCause}\n${m.fixApproach}` : `${m.trigger}\n${m.summary}`).toLowerCase();
  return names.some(n => containsName(text, n));
}

/**
 * `name` in `text` as the whole name of a test: quoted ('…', "…", `…`, “…”) when it has spaces (a title
 * "parses minutes" is not the test "parses minutes and seconds"), else as a whole word ("test_tax" is not
 * in "test_taxes").
 */
function containsName(text: string, name: string): boolean {
  const spaced = /\s/.test(name);
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    const before = text[i - 1];
    const after = text[i + name.length];
    if (spaced ? isQuote(before) && isQuote(after) : !isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}

function isQuote(c: string | undefined): boolean {
  return !!c && `'"\`\u2018\u2019\u201c\u201d`.includes(c);
}

function isWordChar(c: string | undefined): boolean {
  return !!c && /[\p{L}\p{N}_]/u.test(c);
}
