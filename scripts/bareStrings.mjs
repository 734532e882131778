// Finds English text the webview would show untranslated: string and template literals in media/src
// that read like words for a person and do not go through t('…'). A heuristic, tuned to say nothing on
// code-ish literals (class names, keys, selectors, tag and attribute names); a line that must keep a
// word-like literal says so with a `l10n-ignore` comment on it or the line above.

/** Each string or template literal in `source` (comments skipped): its text with ${…} as a space, and where it starts. */
export function literals(source) {
  const out = [];
  let i = 0;
  const n = source.length;
  // Template nesting: each entry counts the braces open inside one ${ … }.
  const braces = [];
  const readTemplate = start => {
    // Reads from just after a backtick or a closing } of ${ … }; returns the text up to ` or ${.
    let text = '';
    let j = start;
    while (j < n) {
      const c = source[j];
      if (c === '\\') { text += source.slice(j, j + 2); j += 2; continue; }
      if (c === '`') return { text, end: j + 1, open: false };
      if (c === '$' && source[j + 1] === '{') return { text, end: j + 2, open: true };
      text += c;
      j++;
    }
    return { text, end: n, open: false };
  };
  let current; // the template literal being read, across its ${ … } parts
  const stack = [];
  while (i < n) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') { i = source.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '/' && source[i + 1] === '*') { i = source.indexOf('*/', i + 2); if (i < 0) break; i += 2; continue; }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out.push({ text: source.slice(i + 1, j), start: i });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      current = { text: '', start: i };
      const r = readTemplate(i + 1);
      current.text += r.text;
      i = r.end;
      if (r.open) { stack.push(current); braces.push(0); } else out.push(current);
      continue;
    }
    if (braces.length && c === '{') { braces[braces.length - 1]++; i++; continue; }
    if (braces.length && c === '}') {
      if (braces[braces.length - 1] > 0) { braces[braces.length - 1]--; i++; continue; }
      braces.pop();
      const t = stack.pop();
      t.text += ' ';
      const r = readTemplate(i + 1);
      t.text += r.text;
      i = r.end;
      if (r.open) { stack.push(t); braces.push(0); } else out.push(t);
      continue;
    }
    i++;
  }
  return out;
}

/** What may come right before a literal that is not text for a person. */
const CODE_CONTEXT = [
  /(?:\bl10n\.|(?<![\w.$]))t\(\s*$/, // already translated
  /\bfrom\s*$|\bimport\s*\(?\s*$/, // module paths
  /\b(?:class|className)\s*[:=][^,;{}]*$/, // CSS classes, also `class: on ? 'a b' : 'a'`
  /(?:===|!==|==|!=|\bcase)\s*$/, // comparisons with keys and states
  /\b(?:querySelector(?:All)?|closest|getElementById|addEventListener|removeEventListener|setAttribute|getAttribute|removeAttribute|createElement(?:NS)?|console\.\w+)\(\s*$/,
];

/** Reads like words for a person: two words, or a capitalised word. */
function wordy(text) {
  return /[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(text) || /(?:^|\s)[A-Z][a-z]{2,}/.test(text);
}

/** Bare UI text in one webview source: [{ line, text }]. */
export function bareStrings(source) {
  const lines = source.split('\n');
  const found = [];
  for (const lit of literals(source)) {
    if (!wordy(lit.text)) continue;
    const before = source.slice(Math.max(0, lit.start - 80), lit.start);
    if (CODE_CONTEXT.some(re => re.test(before))) continue;
    const line = source.slice(0, lit.start).split('\n').length;
    if (lines[line - 1].includes('l10n-ignore') || lines[line - 2]?.includes('l10n-ignore')) continue;
    found.push({ line, text: lit.text.trim() });
  }
  return found;
}
