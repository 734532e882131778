// Activation only builds the services and registers features; every feature owns its disposables.
import * as vscode from 'vscode';
import type { EngramApi } from './vscode/api';
import { createLog } from './vscode/log';
import { Services } from './vscode/services';
import { formatError } from './vscode/errors';
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
import { registerLifecycle } from './vscode/lifecycle';
import { registerMcp } from './vscode/mcp';

let active: Services | undefined;

export function activate(context: vscode.ExtensionContext): EngramApi {
  const started = performance.now();
  const { channel, logger } = createLog();
  context.subscriptions.push(channel);
  const services = new Services(context, logger, channel);
  context.subscriptions.push(services);
  active = services;
  const features: [string, (s: Services) => void][] = [
    ['commands', registerCommands],
    ['capture', registerCapture],
    ['status bar', registerStatusBar],
    ['sidebar', registerSidebar],
    ['hover', registerHover],
    ['chat', registerChat],
    ['tools', registerTools],
    ['instructions', registerInstructions],
    ['constraints', registerConstraints],
    ['relevant status', registerRelevantStatus],
    ['lifecycle', registerLifecycle],
    ['mcp', registerMcp],
  ];
  for (const [name, register] of features) {
    // One broken feature must not take the others down; the user sees which one failed.
    try {
      register(services);
    } catch (e) {
      logger.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not start {0}: {1}', name, formatError(e)));
    }
  }
  logger.info(`activated in ${(performance.now() - started).toFixed(1)} ms`);
  // `npm start` sets this so a newcomer lands on the demo with the Memories view already showing.
  if (process.env.ENGRAM_DEMO === '1' && context.extensionMode === vscode.ExtensionMode.Development) {
    void vscode.commands.executeCommand('workbench.view.extension.engram');
  }
  return { services };
}

/**
 * VS Code awaits this before it disposes the subscriptions: pending forgets are written, open episodes are
 * saved for the next start and queued episode writes land, and only then do the stores close.
 */
export function deactivate(): Thenable<void> | undefined {
  const s = active;
  active = undefined;
  return s?.shutdown();
}
