// One status bar item for capture: open episodes, paused state, and the terminal limitation when shell
// integration is missing. Clicking opens the Engram panel.
import * as vscode from 'vscode';
import type { CaptureApi } from './capture/captureApi';
import type { Services } from './services';

export function statusText(capture: Pick<CaptureApi, 'paused' | 'terminalLimitation' | 'openEpisodes'>): string {
  if (capture.paused) return `$(debug-pause) ${vscode.l10n.t('Engram paused')}`;
  const n = capture.openEpisodes().length;
  const icon = capture.terminalLimitation ? '$(warning)' : '$(record)';
  return n ? `${icon} Engram ${n}` : `${icon} Engram`;
}

function tooltip(capture: CaptureApi): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = false;
  const reason = capture.pauseReason;
  if (capture.paused) md.appendMarkdown(`**${vscode.l10n.t('Capture is paused')}**${reason ? `: ${escape(reason)}` : ''}\n\n`);
  if (capture.terminalLimitation) md.appendMarkdown(`$(warning) ${escape(capture.terminalLimitation)}\n\n`);
  const open = capture.openEpisodes();
  if (!open.length) md.appendMarkdown(vscode.l10n.t('No open episode.'));
  else {
    md.appendMarkdown(`${vscode.l10n.t('Open episodes:')}\n\n`);
    for (const e of open.slice(0, 8)) md.appendMarkdown(`- ${escape(e.title)} (${e.steps} ${vscode.l10n.t('steps')})\n`);
    if (open.length > 8) md.appendMarkdown(`- … ${open.length - 8} ${vscode.l10n.t('more')}\n`);
  }
  md.appendMarkdown(`\n\n${vscode.l10n.t('Click to open the Engram panel.')}`);
  return md;
}

function escape(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, c => `\\${c}`);
}

export function registerStatusBar(services: Services, capture: CaptureApi | undefined): void {
  const item = vscode.window.createStatusBarItem('engram.capture', vscode.StatusBarAlignment.Left, 50);
  item.name = vscode.l10n.t('Engram capture');
  item.command = 'engram.showPanel';
  services.context.subscriptions.push(item);
  if (!capture) {
    item.text = '$(book) Engram';
    item.tooltip = vscode.l10n.t('Capture is not running; see the Engram log.');
    item.show();
    return;
  }
  const update = () => {
    item.text = statusText(capture);
    item.tooltip = tooltip(capture);
    item.backgroundColor = capture.paused && capture.pauseReason !== vscode.l10n.t('paused by you')
      ? new vscode.ThemeColor('statusBarItem.warningBackground')
      : undefined;
  };
  update();
  item.show();
  services.context.subscriptions.push(capture.onDidChange(update));
}
