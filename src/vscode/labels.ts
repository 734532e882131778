// The words every surface uses for a memory's state and for the choices a user makes about one, so the
// palette, the sidebar, the hover and chat say the same thing (and are translated once).
import * as vscode from 'vscode';
import type { Maturity, Outcome } from '../core/types';
import { confidenceText, maturityText } from '../core/render/memoryAnswer';
import { uiText } from './uiText';

export function maturityLabel(m: Maturity): string {
  return maturityText(m, uiText);
}

/** "73% confidence" from a 0–1 confidence (memoryActions.shownConfidence). */
export function confidenceLabel(confidence: number): string {
  return confidenceText(confidence, uiText);
}

/** How an episode can end, in the order the End Episode pick lists them. */
export function episodeOutcomeChoices(): { label: string; outcome: Outcome }[] {
  return [
    { label: vscode.l10n.t('$(check) Solved'), outcome: 'success' },
    { label: vscode.l10n.t('$(circle-slash) Partly solved'), outcome: 'partial' },
    { label: vscode.l10n.t('$(error) Gave up: it still fails'), outcome: 'failure' },
    { label: vscode.l10n.t('$(close) Abandon (not worth remembering)'), outcome: 'abandoned' },
  ];
}

