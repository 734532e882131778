// A finished command's output → the ErrorInfo of its failure. Shared by live terminal capture and replay.
import type { ErrorInfo } from '../episodeTracker';
import { primaryError } from '../extract';
import { normaliseSignature } from '../signature';
import { commandBody, normaliseCommand } from './commandLines';
import { failingSegment } from './commandKinds';
import { errorDetails } from '../errorDetails';
import { failingTests } from '../extract/testRunner';
import { boundedLines } from '../text';

/** Error info for a failed run: the extracted root error, or the exit code and last output line. */
export function errorFromOutput(output: string, exitCode: number | undefined, command: string, cwd?: string): ErrorInfo | undefined {
  if (exitCode === undefined || exitCode === 0) return undefined;
  const found = primaryError(output, { command });
  if (found) {
    const sig = normaliseSignature(found.message, found.tool, found.code);
    const file = found.file ? workspaceFile(found.file, cwd) : undefined;
    return { key: sig.key, family: sig.family, message: withFailingTests(found.message, output), code: found.code ?? sig.code ?? found.rule, tool: found.tool, line: found.line, ...(file ? { file } : {}) };
  }
  const last = output.split('\n').map(l => l.trim()).filter(Boolean).pop() ?? '';
  // In `echo $PATH; which tsc` it is `which` that failed: the list's exit code is its last command's.
  const program = commandBody(failingSegment(command)).split(/\s+/)[0] || command.split(/\s+/)[0];
  const message = `${program} exited with code ${exitCode}${last ? `: ${last}` : ''}`;
  const sig = normaliseSignature(message, 'shell');
  return { key: sig.key, family: sig.family, message: withFailingTests(message, output), code: sig.code, tool: 'shell' };
}

/**
 * The error's file as a path under the command's folder (`./src/a.c`, `/srv/app/src/a.c` in /srv/app →
 * `src/a.c`); a path outside it (a library, the toolchain) is not the project's, and none is given.
 */
function workspaceFile(file: string, cwd: string | undefined): string | undefined {
  let f = file.replace(/\\/g, '/').replace(/^\.\//, '');
  if (f.startsWith('/')) {
    const base = cwd?.replace(/\/+$/, '');
    if (!base || !f.startsWith(`${base}/`)) return undefined;
    f = f.slice(base.length + 1);
  }
  return f && !f.split('/').includes('..') && !/^<.*>$/.test(f) ? f : undefined;
}

/**
 * A test run's error names the tests that failed ("test: name" lines, read by errorDetails): the line kept
 * as the error is often the runner's summary (maven's last line) or one failure among several, and without
 * the names two runs failing different tests read as one problem, and a fix of the second failing test
 * while the first still fails would go unseen (cargo's two failing tests fixed by two edits). A message
 * that names its own test (a panic under libtest, go, Surefire) keeps that test first; the run's other
 * failing tests follow. The signature is computed before, so the names never change it.
 */
function withFailingTests(message: string, output: string): string {
  const named = new Set(errorDetails(message).filter(d => d.kind === 'test').map(d => d.value));
  const tests = failingTests(boundedLines(output.slice(0, 256 * 1024)));
  // A test named in another runner's words than the run's list (jest's "● suite › name"): kept as it is.
  if (named.size && !tests.some(t => named.has(t))) return message;
  const others = tests.filter(t => !named.has(t));
  return others.length ? `${message}\n${others.map(t => `test: ${t}`).join('\n')}` : message;
}

const MAX_REMEMBERED_COMMANDS = 200;

/**
 * errorFromOutput with a memory of each command's last failure. VS Code's `execution.read()` sometimes
 * yields nothing for a quick re-run of a command (the stream opens after the output went by); the
 * failure would then read "bash exited with code 1", a different error from the one the same command
 * printed a moment before, so a recurrence looked like a new error and the open episode ended as
 * partial. A re-run with no output at all and the same exit code is taken as the same error; a success
 * in between forgets it (the error may have been fixed, so an empty failure says nothing).
 * Live terminal capture and replay each hold one, so both read a trace the same way.
 */
export class CommandErrors {
  private readonly last = new Map<string, { exitCode: number; error: ErrorInfo }>();

  fromOutput(output: string, exitCode: number | undefined, command: string, cwd?: string): ErrorInfo | undefined {
    // The same command as the tracker pairs runs by (env prefixes, `./` and spacing do not matter).
    const key = `${cwd ?? ''}\u0000${normaliseCommand(command)}`;
    if (exitCode === undefined) return undefined;
    if (exitCode === 0) { this.last.delete(key); return undefined; }
    const previous = this.last.get(key);
    if (!output.trim() && previous && previous.exitCode === exitCode) return previous.error;
    const error = errorFromOutput(output, exitCode, command, cwd);
    if (error && output.trim()) {
      this.last.delete(key);
      this.last.set(key, { exitCode, error });
      if (this.last.size > MAX_REMEMBERED_COMMANDS) this.last.delete(this.last.keys().next().value as string);
    }
    return error;
  }
}
