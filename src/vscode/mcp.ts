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
  services.context.subscriptions.push(vscode.commands.registerCommand('engram.connectAgent', () => connectAgentCommand(services)));
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

/**
 * Engram: Connect an Agent… — writes the chosen client's MCP file (project-level; Codex's user file; the same code as
 * `engram connect`), shows what changed and offers to open the file. Claude Code's capture hooks are
 * added only when the user says yes to them.
 */
export async function connectAgentCommand(services: Services): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) { void vscode.window.showInformationMessage(vscode.l10n.t('Open a folder first: agents are connected per project.')); return; }
  const { CLIENTS, connect, connectHooks } = await import('../mcp/connect');
  const labels: Record<string, string> = { 'claude-code': 'Claude Code', codex: vscode.l10n.t('Codex CLI (your ~/.codex/config.toml)'), cursor: 'Cursor', vscode: vscode.l10n.t('VS Code (.vscode/mcp.json)') };
  const pick = await vscode.window.showQuickPick(CLIENTS.map(c => ({ label: labels[c] ?? c, client: c })), { title: vscode.l10n.t('Connect which agent to Engram\'s memory?') });
  if (!pick) return;
  const cli = path.join(services.context.extensionUri.fsPath, 'dist', 'cli.js');
  try {
    const r = connect(pick.client, folder, cli);
    // A user-level file (Codex) is named in full; a project file relative to the folder.
    const shown = path.relative(folder, r.file).startsWith('..') ? r.file : path.relative(folder, r.file);
    const lines = [vscode.l10n.t('{0}: {1} {2}', pick.label, r.change, shown)];
    if (pick.client === 'claude-code') {
      const yes = vscode.l10n.t('Yes, capture its sessions');
      const answer = await vscode.window.showQuickPick([{ label: yes }, { label: vscode.l10n.t('No, memory tools only') }], {
        title: vscode.l10n.t('Also add Claude Code hooks that turn its failing commands and fixes into episodes (.claude/settings.json)?'),
      });
      if (answer?.label === yes) {
        const h = connectHooks(folder, cli);
        lines.push(vscode.l10n.t('hooks: {0} {1}', h.change, path.relative(folder, h.file)));
      }
    }
    services.logger.info(`connect: ${lines.join('; ')}`);
    const open = vscode.l10n.t('Open File');
    if (await vscode.window.showInformationMessage(lines.join(' · '), open) === open) await vscode.window.showTextDocument(vscode.Uri.file(r.file));
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Engram could not connect {0}: {1}', pick.label, e instanceof Error ? e.message : String(e)));
  }
}
