// The capture trace format: what live capture observes, as plain events. The live adapters produce these
// events and `engram replay` reads them from a file, and both feed the same pipeline (capturePipeline.ts),
// so a trace recorded in the editor replays to the same episodes and lessons. One JSON object per line;
// `t` is milliseconds from the start of the trace; paths are workspace-relative with forward slashes.

export interface TraceDiagnostic {
  severity: 'error' | 'warning' | 'information' | 'hint';
  source?: string;
  /** As VS Code reports it: a string or a number (TS 2322, ESLint 'no-undef', rustc 'E0502'). */
  code?: string | number;
  message: string;
  /** 0-based. */
  line: number;
  character?: number;
}

export type TraceEvent =
  /** A file opened in an editor, with its text. */
  | { t: number; type: 'open'; file: string; text: string }
  /** An editor edit: the full text after it. */
  | { t: number; type: 'change'; file: string; text: string }
  | { t: number; type: 'save'; file: string }
  | { t: number; type: 'close'; file: string }
  /** A file written (text) or deleted (null) outside the editor: an agent, git, a generator, a shell command. */
  | { t: number; type: 'disk'; file: string; text: string | null; before?: string | null }
  /** The file's full current set of diagnostics; [] = cleared. */
  | { t: number; type: 'diagnostics'; file: string; items: TraceDiagnostic[] }
  /** A shell-integrated execution that ended. */
  | { t: number; type: 'command'; command: string; cwd?: string; exitCode?: number; output?: string }
  | { t: number; type: 'branch'; name: string }
  | { t: number; type: 'end' };

export const TRACE_EVENT_TYPES = ['open', 'change', 'save', 'close', 'disk', 'diagnostics', 'command', 'branch', 'end'] as const;
