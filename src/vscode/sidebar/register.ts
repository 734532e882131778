// Registers the two Engram webview views and the commands that open them, and returns the reveal that
// other features (the palette's commands) use to show a memory, a section or a search in the sidebar.
import * as vscode from 'vscode';
import type { CaptureApi } from '../capture/captureApi';
import type { Services } from '../services';
import { InsightsView } from './insightsView';
import { MemoriesView } from './memoriesView';
import type { RevealSection } from '../../views/memoriesProtocol';
import type { ViewHostState } from './viewHost';

/** Test-only view into the providers (commands not contributed in package.json, so not in the palette). */
export const TEST_STATE_COMMAND = 'engram.sidebar._testState';
export const TEST_RECEIVE_COMMAND = 'engram.sidebar._testReceive';

/** Shows a memory, a section or a search in the Memories view (opening it first). */
export type RevealMemory = (memoryId?: string, section?: RevealSection, query?: string) => Promise<void>;

/** `capture` is undefined when capture did not start: the views then say so instead of listing episodes. */
export function registerSidebar(services: Services, capture: CaptureApi | undefined): RevealMemory {
  const subs = services.context.subscriptions;
  const memories = services.register(new MemoriesView(services, capture), 'memories view');
  const insights = services.register(new InsightsView(services, capture !== undefined), 'insights view');
  subs.push(
    vscode.window.registerWebviewViewProvider(MemoriesView.viewType, memories),
    vscode.window.registerWebviewViewProvider(InsightsView.viewType, insights),
    vscode.commands.registerCommand('engram.showPanel', () => memories.reveal(undefined, 'relevant')),
    vscode.commands.registerCommand('engram.showInsights', async () => {
      await vscode.commands.executeCommand(`${InsightsView.viewType}.focus`);
      if (insights.isReady) await insights.refresh();
    }),
    vscode.commands.registerCommand('engram.openMemory', (id: unknown) => {
      if (typeof id !== 'string' || !id) return memories.reveal(undefined, 'recent');
      return memories.reveal(id);
    }),
  );
  // The tests' back door into the webviews exists only when the extension runs under test or from source,
  // never in an installed extension.
  if (services.context.extensionMode !== vscode.ExtensionMode.Production) {
    services.context.subscriptions.push(
      vscode.commands.registerCommand(TEST_STATE_COMMAND, (): { memories: ViewHostState; insights: ViewHostState } => ({
        memories: memories.testState(), insights: insights.testState(),
      })),
      vscode.commands.registerCommand(TEST_RECEIVE_COMMAND, (view: unknown, raw: unknown) => {
        (view === 'insights' ? insights : memories).receive(raw);
      }),
    );
  }
  return (id, section, query) => memories.reveal(id, section, query);
}
