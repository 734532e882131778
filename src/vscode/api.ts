// What activate() returns: a small API for other extensions, and, only when the extension does not run
// as an installed extension (tests, development host), the parts the integration tests drive.
import type * as vscode from 'vscode';
import type { RecallQuery, RecallResult } from '../core/types';
import type { CaptureApi } from './capture/captureApi';
import type { ConstraintChecks } from './constraints';
import type { DiagnosticRecall } from './diagnosticRecall';
import type { Services } from './services';
import type { RevealMemory } from './sidebar/register';
import type { TeamServerSync } from './teamServer';

export interface EngramApi {
  /**
   * Memories relevant to a question or an error, with the scope, owners and caps every Engram surface
   * applies (constraints in scope always included); each result says why it was recalled.
   */
  recall(query: RecallQuery): Promise<RecallResult[]>;
  /** Fires after any memory in this window's stores changes. */
  readonly onDidChangeMemories: vscode.Event<void>;
  /**
   * The running parts, for the integration tests. Present only outside `ExtensionMode.Production`:
   * an installed extension never exposes its internals.
   */
  readonly testing?: EngramTestAccess;
}

/** What the integration tests reach into (not an API: it changes with the code). */
export interface EngramTestAccess {
  readonly services: Services;
  /** Undefined when capture failed to start. */
  readonly capture: CaptureApi | undefined;
  /** Undefined when the hover's recall cache failed to start. */
  readonly diagnostics: DiagnosticRecall | undefined;
  /** Undefined when the sidebar failed to start. */
  readonly reveal: RevealMemory | undefined;
  /** The background pattern pass, run now in the extension (it loads the store bundle beside it). */
  runPatternPass(): Promise<number>;
  /** Undefined when constraint checks failed to start. */
  readonly constraints: ConstraintChecks | undefined;
  /** The team server feed (engram.team.server); undefined when it failed to start. */
  readonly team: TeamServerSync | undefined;
}
