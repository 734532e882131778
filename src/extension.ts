// Activation builds the window's context (Services) and then the features, in the order their inputs
// require: a feature receives what other features provide when it is built, so nothing is filled in
// later and no feature depends on the order of some other registration. Every part a feature builds is
// registered with the context, which ends them in reverse order and closes the stores last.
import * as vscode from 'vscode';
import type { EngramApi, EngramTestAccess } from './vscode/api';
import { createLog } from './vscode/log';
import { Services } from './vscode/services';
import { formatError } from './vscode/errors';
import { DiagnosticRecall } from './vscode/diagnosticRecall';
import { registerCapture } from './vscode/capture/captureController';
import { registerStatusBar } from './vscode/statusBar';
import { registerSidebar } from './vscode/sidebar/register';
import { registerHover } from './vscode/hover';
import { registerChat } from './vscode/chat/participant';
import { registerTools } from './vscode/chat/tools';
import { registerCommands } from './vscode/commands';
import { registerInstructions } from './vscode/instructions';
import { registerConstraints } from './vscode/constraints';
import { registerRelevantStatus } from './vscode/relevantStatus';
import { registerLifecycle, runPatternPass } from './vscode/lifecycle';
import { registerTeamServer } from './vscode/teamServer';
import { registerMcp } from './vscode/mcp';

let active: Services | undefined;

export function activate(context: vscode.ExtensionContext): EngramApi {
  const started = performance.now();
  const { channel, logger } = createLog();
  context.subscriptions.push(channel);
  const services = new Services(context, logger, channel);
  context.subscriptions.push(services);
  active = services;

  /** Builds one feature. A broken feature must not take the others down; the user sees which one failed. */
  const start = <T>(name: string, build: () => T): T | undefined => {
    try {
      return build();
    } catch (e) {
      logger.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not start {0}: {1}', name, formatError(e)));
      return undefined;
    }
  };
  /** A part another feature cannot do without: building that feature fails (and is reported) without it. */
  const needs = <T>(part: T | undefined, name: string): T => {
    if (part === undefined) throw new Error(`${name} did not start`);
    return part;
  };

  // Providers first, then the features that use them (capture and the sidebar may be missing: their
  // users say so instead of failing).
  const capture = start('capture', () => registerCapture(services));
  const diagnostics = start('diagnostic recall', () => services.register(new DiagnosticRecall(services), 'diagnostic recall'));
  const reveal = start('sidebar', () => registerSidebar(services, capture));
  start('commands', () => registerCommands(services, reveal));
  start('status bar', () => registerStatusBar(services, capture));
  start('hover', () => registerHover(services, needs(diagnostics, 'diagnostic recall')));
  start('chat', () => registerChat(services, capture));
  start('tools', () => registerTools(services, capture));
  start('instructions', () => registerInstructions(services));
  const constraints = start('constraints', () => registerConstraints(services));
  start('relevant status', () => registerRelevantStatus(services, needs(diagnostics, 'diagnostic recall')));
  const team = start('team server', () => registerTeamServer(services));
  start('lifecycle', () => registerLifecycle(services, team));
  start('mcp', () => registerMcp(services));

  logger.info(`activated in ${(performance.now() - started).toFixed(1)} ms`);
  // `npm start` sets this so a newcomer lands on the demo with the Memories view already showing.
  if (process.env.ENGRAM_DEMO === '1' && context.extensionMode === vscode.ExtensionMode.Development) {
    void vscode.commands.executeCommand('workbench.view.extension.engram');
  }
  // The tests' access to the running parts exists only when the extension runs under test or from
  // source, never in an installed extension.
  const testing: EngramTestAccess | undefined = context.extensionMode === vscode.ExtensionMode.Production
    ? undefined
    : { services, capture, diagnostics, reveal, constraints, team, runPatternPass: () => runPatternPass(services) };
  return {
    recall: query => services.recall(query),
    onDidChangeMemories: services.onDidChangeMemories,
    testing,
  };
}

/**
 * VS Code awaits this before it disposes the subscriptions: pending forgets are written, open episodes are
 * saved for the next start and queued episode writes land, then the features' parts end (newest first)
 * and only then do the stores close.
 */
export function deactivate(): Thenable<void> | undefined {
  const s = active;
  active = undefined;
  return s?.shutdown();
}
