// The webview's words in the UI language. The host writes the l10n bundle VS Code loaded for Engram
// (vscode.l10n.bundle: English → translation; none in English) into the page (src/vscode/sidebar/html.ts),
// so even the first paint, before any message, is localised. Every string shown goes through t
// with a literal: scripts/l10n-check.mjs checks each has a Korean entry and that none is left bare.
import { fromBundle, type Translate } from '../../src/core/l10n';

function pageBundle(): Record<string, string> | undefined {
  const raw = document.body.dataset.l10n;
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, string> : undefined;
  } catch {
    return undefined; // English, rather than no view
  }
}

export const t: Translate = fromBundle(pageBundle());
