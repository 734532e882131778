// What capture offers the other features (status bar, sidebar, chat, tools): activate() hands the
// controller to them under this interface when it builds them.
import type * as vscode from 'vscode';
import type { Outcome } from '../../core/types';
import type { OpenEpisodeItem } from '../../views/memoriesProtocol';

/** An open episode as the surfaces show it; the sidebar protocol declares it once for host and webview. */
export type OpenEpisodeView = OpenEpisodeItem;

export interface CaptureApi {
  readonly paused: boolean;
  /** Why capture is paused (the user, a full disk, read-only storage), when it is. */
  readonly pauseReason?: string;
  /** Why capture cannot see terminals (no shell integration), if so. */
  readonly terminalLimitation?: string;
  setPaused(paused: boolean, reason?: string): void;
  openEpisodes(): OpenEpisodeView[];
  readonly onDidChange: vscode.Event<void>;
  /** Ends an open episode as the user says (failure/partial/abandoned/success). */
  endEpisode(id: string, outcome: Outcome, note?: string): Promise<void>;
  /**
   * Files with an error capture is watching that has not yet lasted engram.capture.noiseThresholdMs
   * (an error fixed before then never becomes an episode).
   */
  pendingFiles(): string[];
  /**
   * Reads the diagnostics VS Code has reported so far, ends what is due, and waits until background
   * finalisation has written everything pending (tests, deactivate).
   */
  flush(): Promise<void>;
  /**
   * An agent's explanation of the episode it is fixing (engram_remember during or just after it): it
   * becomes that episode's lesson text instead of a separate memory. Undefined when no episode is open or
   * ended in the last 10 minutes.
   */
  explainEpisode(explanation: { errorText: string; rootCause: string; fixApproach: string }): Promise<{ episodeId: string; lessonId?: string } | undefined>;
}
