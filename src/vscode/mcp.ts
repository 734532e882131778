// Offers `engram mcp` to agents in VS Code through the editor's MCP registry, when the user turns on
// engram.mcp.inVsCode. Off by default: Copilot already has Engram's language-model tools, and the same
// tools twice for one agent only split its choices. Light on purpose: no MCP SDK here, the server runs in
// its own process (dist/cli.js) over the very store folder this window uses.
import * as path from 'path';
import * as vscode from 'vscode';
import type { Services } from './services';

export const MCP_PROVIDER_ID = 'engram.mcp';

/** The stdio definition: the editor's own Node (Electron as Node) running the bundled CLI. */
export function mcpDefinition(services: Services): vscode.McpStdioServerDefinition {
  const ext = services.context.extensionUri.fsPath;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const args = [path.join(ext, 'dist', 'cli.js'), '--store', services.storeDir, '--workspace', services.workspaceId, 'mcp', ...(folder ? ['--folder', folder] : [])];
  const version = String((services.context.extension.packageJSON as { version?: unknown }).version ?? '');
  const def = new vscode.McpStdioServerDefinition(vscode.l10n.t('Engram memory'), process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, version);
  if (folder) def.cwd = vscode.Uri.file(folder);
  return def;
}

export function registerMcp(services: Services): void {
  // Hosts without the MCP API (older VS Code, other editors) simply do not get the provider.
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function' || typeof vscode.McpStdioServerDefinition !== 'function') return;
  const changed = new vscode.EventEmitter<void>();
  services.context.subscriptions.push(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => (services.config().mcp.inVsCode ? [mcpDefinition(services)] : []),
    }),
    vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('engram.mcp.inVsCode')) changed.fire(); }),
  );
}
