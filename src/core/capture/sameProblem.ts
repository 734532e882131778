// Whether two errors are one problem: the same signature and no detail that tells them apart (the test
// that failed, the module or type named). Two failing jest tests share the signature of
// `expect(received).toBe(expected)` but are two problems, fixed by two edits: an error that turns from
// one into the other has changed (the tracker's changed-error rule), and their lessons stay apart.
import { compareDetails, errorDetails } from '../errorDetails';

export function sameProblem(a: { key: string; message: string }, b: { key: string; message: string }): boolean {
  if (a.key !== b.key) return false;
  return compareDetails(errorDetails(a.message), errorDetails(b.message))?.same !== false;
}
