// Changes that cannot fix a compile, test or runtime error: documentation files and hunks that only touch
// comments. A flaky test that passes on a re-run after a README edit was not fixed by the README; the
// lesson must say it is unexplained rather than claim the edit. Two exceptions keep real fixes: the error
// is about that very file (markdownlint on README.md), and a comment that is a directive to a tool
// (`// @ts-expect-error`, `# type: ignore`, `/// <reference types="node" />`, `/** @jest-environment jsdom */`).
import type { Hunk } from './diff';

const DOC_EXTENSION = /\.(?:md|markdown|mdown|rst|adoc|asciidoc|rdoc)$/i;
const DOC_NAME = /(?:^|\/)(?:README|CHANGELOG|CHANGES|HISTORY|LICEN[CS]E|COPYING|AUTHORS|CONTRIBUTORS|CONTRIBUTING|NOTICE|CODE_OF_CONDUCT|SECURITY)(?:\.[\w.-]+)?$/i;

/** Documentation: prose files no compiler, test runner or program reads. */
export function isDocsFile(file: string): boolean {
  return DOC_EXTENSION.test(file) || DOC_NAME.test(file);
}

/** How each language starts a comment line (a file of an unknown language has none: its lines count). */
const SLASH = /^(?:\/\/|\/\*|\*\/?(?:\s|$))/;
const HASH = /^#(?![![])/;
const DASH = /^--(?:\s|$)/;
const MARKUP = /^<!--/;
const COMMENTS: [RegExp, RegExp[]][] = [
  [/\.(?:[cm]?[jt]sx?|java|kt|kts|scala|swift|go|rs|c|h|cc|cpp|cxx|hpp|cs|dart|php|css|scss|less|groovy|gradle|proto|jsonc)$/i, [SLASH]],
  [/(?:\.(?:py|pyi|rb|sh|bash|zsh|fish|ya?ml|toml|pl|pm|r|tf|cfg|conf|ini|env|ps1|cmake)|(?:^|\/)(?:[Mm]akefile|Dockerfile|\.gitignore|\.\w*ignore|requirements[\w.-]*\.txt))$/, [HASH]],
  [/\.(?:sql|lua|hs|elm)$/i, [DASH]],
  [/\.(?:html?|xml|vue|svelte|mdx)$/i, [MARKUP, SLASH]],
];

/** A comment that tells a tool what to do is code: it can be the fix. */
const DIRECTIVE = /@[a-z][\w-]*|eslint|jshint|jscs|noqa|type:\s*ignore|pylint:|pyright:|mypy:|nolint|NOLINT|shellcheck|rubocop:|prettier-ignore|istanbul|\bc8\b|<reference|-\*-|\bglobal\s|\bgo:|\+build|\bfmt:\s*(?:on|off|skip)|coding[:=]/;

function commentLine(markers: RegExp[], line: string): boolean {
  const t = line.trim();
  return markers.some(m => m.test(t)) && !DIRECTIVE.test(t);
}

/** The hunk's changed lines are all plain comments (or blank) in a language whose comments are known. */
export function isCommentOnly(file: string, h: Pick<Hunk, 'added' | 'removed'>): boolean {
  const markers = COMMENTS.find(([ext]) => ext.test(file))?.[1];
  if (!markers) return false;
  const lines = [...h.added, ...h.removed].filter(l => l.trim());
  return lines.length > 0 && lines.every(l => commentLine(markers, l));
}

/** The error names this file: its own file, or its path or name in the error text or the failing output. */
export function errorConcerns(t: { file?: string; error?: { message: string }; command?: { output?: string } }, file: string): boolean {
  if (t.file === file) return true;
  const text = `${t.error?.message ?? ''}\n${t.command?.output ?? ''}`;
  const base = file.replace(/^.*\//, '');
  return text.includes(file) || (base.length > 2 && text.includes(base));
}
