// Opt-in recording of what live capture observes, as a capture trace (core/capture/trace.ts): for bug
// reports, for the lessons corpus, and to check that `engram replay` of the recording gives the lessons
// the window wrote. Everything is masked before it is written; texts are bounded.
import * as fs from 'fs';
import { MAX_COMMAND_OUTPUT_BYTES } from '../../core/capture/commandOutput';
import type { TraceEvent } from '../../core/capture/trace';
import { maskDeep } from '../../core/mask';
import { boundText } from '../../core/text';

const MAX_TEXT = 256 * 1024;
type Untimed = TraceEvent extends infer E ? E extends TraceEvent ? Omit<E, 't'> : never : never;

export class TraceRecorder {
  private readonly started = Date.now();
  private readonly fd: number;
  private count = 0;

  constructor(readonly file: string) {
    // 0600: a trace holds file contents (masked, still private).
    this.fd = fs.openSync(file, 'w', 0o600);
  }

  get events(): number { return this.count; }

  record(ev: Untimed): void {
    const e = { t: Date.now() - this.started, ...ev } as TraceEvent & { text?: string | null; output?: string };
    if (typeof e.text === 'string') e.text = boundText(e.text, MAX_TEXT);
    // As much output as the session reads, so a replay of the trace reads the same.
    if (typeof e.output === 'string') e.output = boundText(e.output, MAX_COMMAND_OUTPUT_BYTES);
    fs.writeSync(this.fd, JSON.stringify(maskDeep(e)) + '\n');
    this.count++;
  }

  dispose(): void {
    try { fs.closeSync(this.fd); } catch { /* closed */ }
  }
}

const SEVERITY = ['error', 'warning', 'information', 'hint'] as const;

/** vscode.DiagnosticSeverity (0..3) as the trace spells it. */
export function severityName(n: number): typeof SEVERITY[number] {
  return SEVERITY[n] ?? 'error';
}
