// What the episode tracker works on and reports: the errors and command runs adapters feed it, the
// episodes it keeps and the effects it returns. Types only, so adapters, the finaliser and fix evidence
// can name them without depending on the state machine (core/episodeTracker.ts).
import type { EpisodeStep, Outcome } from './types';

export interface ErrorInfo {
  /** Normalised signature key (core/signature.ts). */
  key: string;
  /** Coarse family used for episode boundaries. */
  family: string;
  /** The raw message as first seen (unmasked: mask before persisting). */
  message: string;
  code?: string;
  tool: string;
  /** 0-based line of the error in its file, when known. */
  line?: number;
  /** The file a terminal error names (workspace-relative, under the command's folder), when it names one. */
  file?: string;
}

export interface CommandInfo {
  /** Terminal execution id (unique per run). */
  id: string;
  line: string;
  cwd?: string;
  exitCode?: number;
  error?: ErrorInfo;
  /** Bounded, ANSI-stripped output excerpt (unmasked). */
  output?: string;
}

export interface TrackedEpisode {
  id: string;
  source: 'diagnostics' | 'terminal';
  /** What identifies the episode while it is open: file + signature, or the normalised command. */
  key: string;
  file?: string;
  error?: ErrorInfo;
  command?: CommandInfo & { normalised: string };
  /** The run that closed a terminal episode. */
  fixedBy?: CommandInfo;
  startedAt: number;
  lastActivity: number;
  endedAt?: number;
  outcome?: Outcome;
  resolution?: string;
  note?: string;
  steps: EpisodeStep[];
  /** Workspace-relative files touched; the trigger file first. */
  files: string[];
  sourceIds: string[];
  /** Times the triggering error came back unresolved within this episode. */
  recurrences: number;
  /** Other errors of the same family the attempts ran into on the way (ModuleNotFoundError → ImportError). */
  variants?: ErrorInfo[];
  /** Set while the error is gone but not yet confirmed gone (settling). */
  resolvingSince?: number;
  /** Restored after a window reload: what happened while the window was closed is unknown. */
  restored?: boolean;
  /** The error this one turned into: the steps since the last run resolved it and a new episode opened. */
  changedTo?: ErrorInfo;
  /** The episode that new error opened. */
  nextEpisodeId?: string;
  /** Errors of the same file that vanished in the same update as this one: one fix cleared them all. */
  alsoCleared?: ErrorInfo[];
  /** This error vanished with another episode's, which carries the lesson for both (its alsoCleared). */
  foldedInto?: string;
}

export type TrackerEffect =
  | { type: 'opened'; episode: TrackedEpisode }
  | { type: 'ended'; episode: TrackedEpisode }
  | { type: 'recurred'; episode: TrackedEpisode }
  | { type: 'noise'; file: string; key: string; livedMs: number };

export interface TrackerOptions {
  /** An error that lives less than this while the user types is noise. */
  noiseThresholdMs: number;
  /** Inactivity after which the next activity starts a new episode. */
  idleGapMs: number;
  /** How long a vanished error must stay gone before the episode counts as fixed. */
  settleMs: number;
  maxSteps: number;
  maxFiles: number;
  newId: () => string;
}

export interface DiagnosticsContext {
  /** The file is still open in an editor (a closed file's diagnostics vanish without a fix). */
  fileOpen: boolean;
  /** The language server is still running (diagnostics vanish when it stops). */
  serverAlive: boolean;
}
