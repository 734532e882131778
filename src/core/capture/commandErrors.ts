// A finished command's output → the ErrorInfo of its failure. Shared by live terminal capture and replay.
import type { ErrorInfo } from '../episodeTracker';
import { primaryError } from '../extract';
import { normaliseSignature } from '../signature';

/** Error info for a failed run: the extracted root error, or the exit code and last output line. */
export function errorFromOutput(output: string, exitCode: number | undefined, command: string): ErrorInfo | undefined {
  if (exitCode === undefined || exitCode === 0) return undefined;
  const found = primaryError(output);
  if (found) {
    const sig = normaliseSignature(found.message, found.tool, found.code);
    return { key: sig.key, family: sig.family, message: found.message, code: found.code ?? sig.code, tool: found.tool, line: found.line };
  }
  const last = output.split('\n').map(l => l.trim()).filter(Boolean).pop() ?? '';
  const message = `${command.split(/\s+/)[0]} exited with code ${exitCode}${last ? `: ${last}` : ''}`;
  const sig = normaliseSignature(message, 'shell');
  return { key: sig.key, family: sig.family, message, code: sig.code, tool: 'shell' };
}

