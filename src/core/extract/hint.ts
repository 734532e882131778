// When the line matchers find nothing better: an editor diagnostic's source/code hint, or a bare
// message recognised by its tsc wording. Diagnostics arrive without a "file(l,c): error TSxxxx"
// prefix; the editor gives source and code instead.
import { RANK, type ExtractOptions, type Found } from './types';
import { knownTscCode } from './tsc';

/** The diagnostic as one error, its tool named by the editor's source. */
export function fromHint(lines: string[], opts: ExtractOptions): Found | undefined {
  const message = lines.map(l => l.trim()).find(Boolean);
  if (!message) return undefined;
  const src = (opts.source ?? '').toLowerCase();
  const codeRaw = opts.code === undefined ? undefined : String(opts.code);
  let tool = 'generic';
  let code = codeRaw;
  if (src === 'ts' || src === 'tsc' || src === 'typescript' || src === 'js') {
    tool = 'tsc';
    if (code && /^\d+$/.test(code)) code = `TS${code}`;
  } else if (/^(rustc|rust-analyzer|rust)$/.test(src)) tool = 'rustc';
  else if (/^(python|pylance|pyright|mypy|pylint)$/.test(src)) tool = 'python';
  else if (/^(gcc|g\+\+|clang|cpptools|c\/c\+\+)$/.test(src)) tool = 'gcc';
  else if (/^(java|javac|jdt)$/.test(src)) tool = 'javac';
  else if (src) tool = src;
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
