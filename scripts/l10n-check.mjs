// Lists localisation gaps: %keys% in package.json missing from package.nls.json / package.nls.ko.json;
// vscode.l10n.t('…') and t('…') strings (core's translator, the webview's) in src/ and media/src/ missing
// from l10n/bundle.l10n.ko.json; and English left bare in the webview (media/src), which would show in
// English whatever the UI language. Exit code 1 when any is found. `--json` prints the missing l10n
// strings as a JSON object (English → "") to paste and translate.
//   node scripts/l10n-check.mjs [--json]
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { bareStrings } from './bareStrings.mjs';

const root = new URL('..', import.meta.url).pathname;
const read = p => JSON.parse(readFileSync(join(root, p), 'utf8'));

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts)$/.test(p) && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Unescapes the body of a JS string literal (the escapes l10n strings use). */
function unescape(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gs, (_, e) => {
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', '0': '\0' }[e] ?? e;
  });
}

/** First-argument string literals of l10n.t(...) and bare t(...) calls (template literals without ${} too). */
export function l10nStrings(source) {
  const out = [];
  const re = /(?:\bl10n\.|(?<![\w.$]))t\(\s*(?:'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|`((?:\\.|[^`\\$])*)`)/g;
  for (const m of source.matchAll(re)) out.push(unescape(m[1] ?? m[2] ?? m[3]));
  return out;
}

const problems = [];
const pkg = readFileSync(join(root, 'package.json'), 'utf8');
const keys = [...new Set([...pkg.matchAll(/"%([^%"]+)%"/g)].map(m => m[1]))];
for (const file of ['package.nls.json', 'package.nls.ko.json']) {
  const nls = existsSync(join(root, file)) ? read(file) : {};
  for (const k of keys) if (typeof nls[k] !== 'string' || !nls[k].trim()) problems.push(`${file}: missing "${k}"`);
  for (const k of Object.keys(nls)) if (!keys.includes(k)) console.log(`note: ${file} has unused key "${k}"`);
}

const used = new Map();
for (const file of [...walk(join(root, 'src')), ...walk(join(root, 'media', 'src'))]) {
  for (const s of l10nStrings(readFileSync(file, 'utf8'))) if (!used.has(s)) used.set(s, file.slice(root.length));
}
// The webview has no vscode.l10n: its words go through t('…') (media/src/l10n.ts) or stay English.
let webviewFiles = 0;
for (const file of walk(join(root, 'media', 'src'))) {
  webviewFiles++;
  for (const b of bareStrings(readFileSync(file, 'utf8'))) {
    problems.push(`${file.slice(root.length)}:${b.line}: English shown without t('…'): ${JSON.stringify(b.text.slice(0, 80))}`);
  }
}
const bundleFile = 'l10n/bundle.l10n.ko.json';
const bundle = existsSync(join(root, bundleFile)) ? read(bundleFile) : {};
const missing = [...used.keys()].filter(s => typeof bundle[s] !== 'string' || !bundle[s].trim());
for (const s of missing) problems.push(`${bundleFile}: missing ${JSON.stringify(s)} (${used.get(s)})`);
for (const k of Object.keys(bundle)) if (!used.has(k)) console.log(`note: ${bundleFile} has unused string ${JSON.stringify(k)}`);
// Placeholders must survive translation, or the Korean UI shows "{0}" or loses a value.
for (const [k, v] of Object.entries(bundle)) {
  if (!used.has(k) || typeof v !== 'string') continue;
  const ph = s => [...s.matchAll(/\{(\d+)\}/g)].map(m => m[1]).sort().join(',');
  if (ph(k) !== ph(v)) problems.push(`${bundleFile}: placeholders differ for ${JSON.stringify(k)}`);
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(Object.fromEntries(missing.map(s => [s, ''])), null, 2));
}
console.log(`${keys.length} manifest keys, ${used.size} l10n strings in src/ and media/src/ (${webviewFiles} webview files scanned for bare text), ${Object.keys(bundle).length} Korean bundle entries`);
if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`${problems.length} localisation problem(s)`);
  process.exit(1);
}
console.log('localisation complete');
