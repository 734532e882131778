// Whether two errors are one problem: the same signature and no detail that tells them apart (the test
// that failed, the module or type named). Two failing jest tests share the signature of
// `expect(received).toBe(expected)` but are two problems, fixed by two edits: an error that turns from
// one into the other has changed (the tracker's changed-error rule), and their lessons stay apart.
import { compareDetails, errorDetails } from '../errorDetails';
import { extractErrors } from '../extract';
import { normaliseSignature } from '../signature';

export interface ProblemError { key: string; message: string }

export function sameProblem(a: ProblemError, b: ProblemError): boolean {
  if (a.key !== b.key) return false;
  return compareDetails(errorDetails(a.message), errorDetails(b.message))?.same !== false;
}

/** Errors of one run's output looked at: enough for every failure a test run or a build prints. */
const MAX_ERRORS = 40;

/**
 * Is `old` still among the errors a later run printed? The root error a run reports can move (another
 * test failing first, two errors swapping places) while the old one is still there: then nothing was
 * fixed. Only when no error of the output is the old problem did the steps in between resolve it.
 */
export function stillFailing(old: ProblemError, next: ProblemError, output: string | undefined, command?: string): boolean {
  if (testPassedSince(old, next)) return false;
  if (sameProblem(old, next)) return true;
  if (!output) return false;
  for (const e of extractErrors(output, { command, limit: MAX_ERRORS })) {
    if (e.wrapper) continue;
    if (sameProblem(old, { key: normaliseSignature(e.message, e.tool, e.code).key, message: e.message })) return true;
  }
  return false;
}

/**
 * Two runs of one kind of test failure, both naming their failing tests, where a test of the first no longer
 * fails: what was done in between fixed it (cargo's two failing tests, one fixed by an edit, the other still
 * failing), even though the run's summary error reads the same. Only when the runs share a failing test: an
 * error naming just its own test (jest, go: the root failure) says nothing of the run's other tests, and
 * whether the old one is still in the output is the loop's question below.
 */
function testPassedSince(old: ProblemError, next: ProblemError): boolean {
  if (old.key !== next.key) return false;
  const tests = (m: string) => new Set(errorDetails(m).filter(d => d.kind === 'test').map(d => d.value));
  const before = tests(old.message), after = tests(next.message);
  if (!before.size || !after.size || ![...before].some(t => after.has(t))) return false;
  return [...before].some(t => !after.has(t));
}

/**
 * The old error as the problem that was fixed: when a run of several failing tests showed some of them
 * passing, the episode that ends is about those, not the ones still failing (they are the next episode's),
 * so its lesson is found by the tests its fix made pass. Other errors are returned as they are.
 */
export function fixedPart<T extends ProblemError>(old: T, next: ProblemError): T {
  if (!testPassedSince(old, next)) return old;
  const still = new Set(errorDetails(next.message).filter(d => d.kind === 'test').map(d => d.value));
  const [head, ...rest] = old.message.split('\n');
  // The lines after the first test's name (`left: …`, `Expected: …`) are that test's: when it still fails,
  // they say nothing of the test that was fixed.
  const firstTest = rest.find(l => l.startsWith('test: '))?.slice(6).trim();
  const ownDetail = firstTest !== undefined && still.has(firstTest);
  const message = [head, ...rest.filter(l => (l.startsWith('test: ') ? !still.has(l.slice(6).trim()) : !ownDetail))].join('\n');
  return { ...old, message };
}
