// When the line matchers find nothing better: an editor diagnostic's source/code hint, or a bare
// message recognised by its tsc wording. Diagnostics arrive without a "file(l,c): error TSxxxx"
// prefix; the editor gives source and code instead.
import { RANK, type ExtractOptions, type Found } from './types';
import { knownTscCode } from './tsc';
import { toolOfSource } from './program';

/** The diagnostic as one error, its tool named by the editor's source. */
export function fromHint(lines: string[], opts: ExtractOptions): Found | undefined {
  const message = lines.map(l => l.trim()).find(Boolean);
  if (!message) return undefined;
  const src = (opts.source ?? '').toLowerCase();
  const codeRaw = opts.code === undefined ? undefined : String(opts.code);
  // The terminal names a program's output by the same table, so an editor's and a build's error match.
  const tool = src ? toolOfSource(src) : 'generic';
  let code = codeRaw;
  if (tool === 'tsc' && code && /^\d+$/.test(code)) code = `TS${code}`;
  if (!code) code = knownTscCode(message);
  return { tool, code, message, stack: [], excerpt: lines.slice(0, 6).join('\n').trim(), rank: RANK.compiler, at: 0 };
}

/** A pasted message without any prefix: a tsc error when its first line has tsc's wording. */
export function guessBare(lines: string[]): Found | undefined {
  const first = lines.map(l => l.trim()).find(Boolean);
  if (!first) return undefined;
  const code = knownTscCode(first);
  if (code) return { tool: 'tsc', code, message: first, stack: [], excerpt: lines.slice(0, 6).join('\n').trim(), rank: RANK.compiler, at: 0 };
  return undefined;
}
