// What a command line is about: the same command despite env prefixes and `./`, whether it changes the
// environment (install, generate, config), and whether it concerns an episode's error. Used by the
// tracker to attach steps and by fixEvidence to credit a fix; it imports neither, so neither cycles.
import { changesEnvironment, isInstallCommand } from './packageManagers';

/** What an episode offers for tying a command to it (a TrackedEpisode has all of it). */
export interface CommandContext {
  readonly source: 'diagnostics' | 'terminal';
  readonly command?: { readonly output?: string };
  readonly error?: { readonly message: string; readonly family: string; readonly code?: string };
  readonly files: readonly string[];
}

/** Same command for pairing a failure with a later success: whitespace, env prefixes and `./` don't matter. */
export function normaliseCommand(line: string): string {
  let tokens = line.trim().replace(/[;&\s]+$/, '').split(/\s+/).filter(Boolean);
  while (tokens.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0])) tokens = tokens.slice(1);
  return tokens.map(t => t.replace(/^\.\//, '')).join(' ');
}

/** Strip leading env assignments and `sudo`, for classification. */
export function commandBody(line: string): string {
  let tokens = line.trim().split(/\s+/).filter(Boolean);
  while (tokens.length > 1 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0]) || tokens[0] === 'sudo')) tokens = tokens.slice(1);
  return tokens.join(' ');
}

/**
 * Does this command change the environment in a way that can fix an error (install, generate, config)?
 * However the program is invoked: by path (`.venv/bin/pip install x`), as a module (`python -m pip`),
 * through a launcher (`npx --yes prisma generate`), in any part of a `&&` list (capture/packageManagers.ts).
 */
export function isFixCommand(line: string): boolean {
  return changesEnvironment(line);
}

/** Words of an error message that can tie a command to it: module and package names, file names. */
export function errorAnchors(t: CommandContext): Set<string> {
  const out = new Set<string>();
  const text = [t.error?.message ?? '', t.command?.output ?? ''].join('\n').slice(0, 4000);
  for (const m of text.matchAll(/['"`‘’“”]([@\w./-]{2,80})['"`‘’“”]/g)) {
    const spec = m[1];
    out.add(spec.toLowerCase());
    // "@scope/pkg/sub" and "pkg/sub" are installed as "@scope/pkg" and "pkg"; "a.b" (Python) as "a".
    const parts = spec.split('/');
    out.add((spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]).toLowerCase());
    out.add(spec.split('.')[0].toLowerCase());
    const base = parts[parts.length - 1];
    if (base) out.add(base.toLowerCase());
  }
  for (const m of text.matchAll(/\b([\w-]+\.(?:py|ts|tsx|js|jsx|mjs|cjs|json|toml|ya?ml|rs|go|java|c|h|cpp|rb|env|cfg|ini|lock))\b/g)) out.add(m[1].toLowerCase());
  for (const f of t.files) out.add(f.split('/').pop()!.toLowerCase());
  out.delete('');
  return out;
}

const MODULE_FAMILY = /module|import|package|dependency|not[- ]found|cannot find|no such|unresolved|E0432|E0433|TS2307|ERR_MODULE/i;

/** Is `line` plausibly about this episode? Used both to attach steps and to credit a command as the fix. */
export function commandConcerns(t: CommandContext, line: string): boolean {
  const body = commandBody(line).toLowerCase();
  if (t.source === 'terminal' && t.command) {
    // Anything run in between the failure and the passing re-run is part of the attempt.
    return true;
  }
  const words = body.split(/[\s=:'"]+/).map(w => w.replace(/^[./]+/, '').replace(/@[\d^~<>=.*x-]+$/, ''));
  const anchors = errorAnchors(t);
  if (words.some(w => w.length > 1 && (anchors.has(w) || anchors.has(w.split('/').pop()!)))) return true;
  // A bare install ("npm install", "pip install -r requirements.txt") concerns missing-module errors.
  const family = `${t.error?.family ?? ''} ${t.error?.code ?? ''} ${t.error?.message ?? ''}`;
  return isInstallCommand(line) && MODULE_FAMILY.test(family);
}
