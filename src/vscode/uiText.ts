// Wording that core owns (recall reasons, history lines) in the UI language, for the host surfaces a
// person reads: @memory chat, the palette's pickers, the sidebar. The model context, the CLI and MCP
// keep core's English.
import * as vscode from 'vscode';
import type { Translate } from '../core/l10n';
import { reasonTexts, type RecallReason } from '../core/reasons';

/** vscode.l10n.t as core's translator (the bundle is l10n/bundle.l10n.<language>.json). */
export const uiText: Translate = (message, ...args) => vscode.l10n.t(message, ...args);

export function reasonLabels(reasons: readonly RecallReason[]): string[] {
  return reasonTexts(reasons, uiText);
}
