// The static shell of both Engram webviews. It carries no memory data: memories arrive later as JSON
// messages and are written with textContent, so nothing from a memory is ever parsed as HTML. It does
// carry the UI strings (media/src/l10n.ts), so the first paint is in the user's language.
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import type { ViewKind } from '../../views/common';

/** Only built assets are loadable: the bundle + codicons in dist/, styles and icon in media/. */
export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function buildHtml(webview: vscode.Webview, extensionUri: vscode.Uri, view: ViewKind, title: string): string {
  const nonce = randomUUID().replace(/-/g, '');
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  // Attribute values below are ours (URIs built by VS Code, a fixed view kind), never memory text.
  return `<!DOCTYPE html>
<html lang="${vscode.env.language.startsWith('ko') ? 'ko' : 'en'}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'sidebar.css')}">
<title>${escapeHtml(title)}</title>
</head>
<body data-view="${view}"${l10nAttribute()}>
<div id="app" aria-busy="true"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}

/**
 * The l10n bundle VS Code loaded for Engram (undefined in English), as an escaped attribute: the way the
 * VS Code samples hand it to @vscode/l10n in a webview, without the extra dependency or a message the
 * first paint would have to wait for.
 */
function l10nAttribute(): string {
  const bundle = vscode.l10n.bundle;
  return bundle ? ` data-l10n="${escapeHtml(JSON.stringify(bundle))}"` : '';
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`);
}
