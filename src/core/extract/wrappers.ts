// Summary lines that only say something else failed or count failures (cargo's "could not compile",
// make's "*** Error", CI's "exit code", "N errors generated", "Found N errors" of tsc, mypy and Biome,
// pyright's and ESLint's counts, pip's "subprocess-exited-with-error", git's "Automatic merge failed").
// They are kept, flagged as wrappers, so that a transcript with nothing else still yields an error, but
// they never win over a real one. A count names no tool: it is the command's (Scan.programTool) or
// 'generic', never a guess ("Found 1 error." is Biome's as much as tsc's).
import { RANK } from './types';
import type { Matcher } from './scan';

/** Lines that only count errors or failures. */
const COUNTS: RegExp[] = [
  /^Found \d+ errors?(?: in (?:\d+ files?|the same file)[^.]*)?\.?(?: \(checked \d+ source files?\))?$/,
  /^\d+ errors?$/,
  /^\d+ errors?, \d+ warnings?(?:, \d+ informations?)?$/,
  /^[✖×✗]\s*\d+ problems? \(\d+ errors?, \d+ warnings?\)$/,
  /^[×✖]?\s*Some errors were emitted while running checks\.?$/,
  // JUnit's and Surefire's tally, logged under [ERROR] after the failures it counts.
  /^Tests run: \d+, Failures: \d+, Errors: \d+/,
];

/**
 * Lines that only say a stage failed, whatever the tool: a heading in capitals ("COMPILATION ERROR :",
 * "BUILD FAILURE"), a goal or step that failed because of the errors above it ("Failed to execute goal …:
 * There are test failures.", "CMake Generate step failed."), an abort after a compile error (Perl's
 * "BEGIN failed--compilation aborted at x line 3."), a test harness's closing "error: test failed, to
 * rerun pass `--lib`". The errors they summarise are printed above them.
 */
const STAGE_FAILED: RegExp[] = [
  /^[A-Z][A-Z ]{2,40}(?:ERROR|ERRORS|FAILURE|FAILED)\s*:?\s*$/,
  /(?:^|: )(?:There (?:are|were) test failures|Compilation failure|Build failed|Tests? failed)\.?(?:\s*(?:See|Please|Check)\b.*)?$/i,
  /\bstep failed\.?(?:\s|$)/i,
  /compilation aborted\b|aborted due to compilation errors/i,
  /^error: test failed, to rerun pass /,
  /^error: \d+ targets? failed:?/,
];

const WRAPPERS: RegExp[] = [
  /^error: could not compile `[^`]+`/,
  /^error: aborting due to (?:\d+ |)previous errors?/,
  /^make(?:\[\d+\])?: \*\*\* .*Error \d+/,
  /^Error: Process completed with exit code \d+/,
  /^(?:error |ELIFECYCLE\s+)?Command failed with exit code \d+/,
  /^\d+ errors? generated\.$/,
  /^compilation terminated\.$/,
  /^make(?:\[\d+\])?: Target .* not remade because of errors\.$/,
  /^error: (?:subprocess-exited-with-error|metadata-generation-failed)$/,
  /^Automatic merge failed; fix conflicts and then commit the result\.$/,
  ...COUNTS,
  ...STAGE_FAILED,
];

export const wrappers: Matcher = {
  name: 'wrapper',
  match({ i, t }, s) {
    if (!WRAPPERS.some(w => w.test(t))) return false;
    s.push(s.make(i, wrapperTool(t, s.programTool), RANK.wrapper, { message: t, wrapper: true }));
    return true;
  },
};

function wrapperTool(t: string, programTool: string | undefined): string {
  if (t.startsWith('error: could not compile') || t.startsWith('error: aborting')) return 'rustc';
  if (t.startsWith('make')) return 'make';
  if (/errors? generated|compilation terminated/.test(t)) return 'gcc';
  if (t.startsWith('Automatic merge failed')) return 'git';
  return programTool ?? 'generic';
}
