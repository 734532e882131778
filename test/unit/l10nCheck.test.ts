// scripts/l10n-check.mjs on a throwaway copy of the tree: clean as committed, and failing on English
// the webview would show untranslated or on a new string without a Korean entry.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { repoRoot } from './buildCli';

describe('l10n check', function () {
  this.timeout(30_000);
  const root = repoRoot();
  let dir = '';

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-l10n-'));
    for (const p of ['scripts', 'src', 'media/src', 'l10n']) fs.cpSync(path.join(root, p), path.join(dir, p), { recursive: true });
    for (const f of ['package.json', 'package.nls.json', 'package.nls.ko.json']) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const check = () => spawnSync(process.execPath, [path.join(dir, 'scripts', 'l10n-check.mjs')], { encoding: 'utf8' });
  const edit = (file: string, from: string, to: string) => {
    const p = path.join(dir, file);
    const text = fs.readFileSync(p, 'utf8');
    assert.ok(text.includes(from), `${from} not in ${file}`);
    fs.writeFileSync(p, text.replace(from, to));
  };

  it('passes on the tree as committed', () => {
    const r = check();
    assert.strictEqual(r.status, 0, r.stderr);
    assert.match(r.stdout, /webview files scanned/);
  });

  it('fails on English the webview shows without t()', () => {
    edit('media/src/memoryRow.ts', "iconButton('trash', t('Forget'),", "iconButton('trash', 'Forget this memory',");
    const r = check();
    assert.strictEqual(r.status, 1);
    assert.match(r.stderr, /media\/src\/memoryRow\.ts:\d+: English shown without t\('…'\): "Forget this memory"/);
  });

  it('fails on a template literal with words, and passes when the line says why it is not UI text', () => {
    edit('media/src/memories.ts', "this.announce(t('Search cleared'));", 'this.announce(`Cleared ${this.searchQuery}`);');
    assert.match(check().stderr, /media\/src\/memories\.ts:\d+: English shown without t\('…'\): "Cleared"/);
    edit('media/src/memories.ts', 'this.announce(`Cleared ${this.searchQuery}`);', 'this.announce(`Cleared ${this.searchQuery}`); // l10n-ignore: test');
    assert.strictEqual(check().status, 0);
  });

  it('fails on a new webview string, or a new core t() string, without a Korean entry', () => {
    edit('media/src/memoryRow.ts', "t('Forget')", "t('Forget for good')");
    edit('src/core/reasons.ts', "t('personal memory')", "t('from your personal memory')");
    const r = check();
    assert.strictEqual(r.status, 1);
    assert.match(r.stderr, /missing "Forget for good" \(media\/src\/memoryRow\.ts\)/);
    assert.match(r.stderr, /missing "from your personal memory" \(src\/core\/reasons\.ts\)/);
  });

  it('does not take class names, keys, selectors or comments for text', async () => {
    const { bareStrings } = await import(pathToFileURL(path.join(root, 'scripts', 'bareStrings.mjs')).href) as { bareStrings(s: string): { line: number; text: string }[] };
    const code = [
      "import { h } from './dom';",
      "// A comment with 'Some English words' in it",
      "const el = h('div', { class: on ? 'text-button primary' : 'text-button', attrs: { 'aria-hidden': 'true' } });",
      "if (ev.key === 'ArrowDown') el.querySelector('.section-opened [data-row]');",
      "switch (k) { case 'Enter': break; }",
      "console.warn('Engram: ignored a malformed message');",
      "const ok = t('Already translated text');",
      "const bad = h('span', { text: 'Nothing here yet' });",
    ].join('\n');
    assert.deepStrictEqual(bareStrings(code), [{ line: 8, text: 'Nothing here yet' }]);
  });
});
