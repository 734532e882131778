import * as assert from 'assert';
import { boundText, byteLength, decodeBytes, escapeControls, sanitizeRecord, sanitizeText, stripAnsi } from '../../src/core/text';

describe('text: stripAnsi', () => {
  it('removes colours, cursor movement and erase sequences', () => {
    assert.strictEqual(stripAnsi('\x1b[96msrc/a.ts\x1b[0m:\x1b[93m2\x1b[0m - \x1b[91merror\x1b[0m'), 'src/a.ts:2 - error');
    assert.strictEqual(stripAnsi('\x1b[2K\x1b[1G⠋ Building\x1b[?25l\x1b[38;2;255;0;0mred\x1b[m'), '⠋ Buildingred');
  });

  it('removes VS Code shell-integration marks (OSC 633) and hyperlinks, with BEL or ST terminators', () => {
    const s = '\x1b]633;A\x07$ \x1b]633;B\x07npm test\x1b]633;E;npm test;nonce\x07\x1b]633;C\x07out\x1b]633;D;1\x1b\\';
    assert.strictEqual(stripAnsi(s), '$ npm testout');
    assert.strictEqual(stripAnsi('see \x1b]8;;https://x.dev/a\x1b\\link\x1b]8;;\x1b\\ now'), 'see link now');
  });

  it('removes charset selections, 8-bit CSI and unterminated OSC up to the end of the line', () => {
    assert.strictEqual(stripAnsi('a\x1b(Bb\x1b=c\x9b31md'), 'abcd');
    assert.strictEqual(stripAnsi('x\x1b]0;title never ends\nnext line'), 'x\nnext line');
  });

  it('leaves plain text (including non-ASCII) untouched', () => {
    const s = "error TS2322: Type 'string' — 타입 오류 ✓";
    assert.strictEqual(stripAnsi(s), s);
  });
});

describe('text: sanitizeText', () => {
  it('drops NUL and control characters but keeps tabs and newlines', () => {
    assert.strictEqual(sanitizeText('a\x00b\x07c\td\ne\x7f\x1f'), 'abc\td\ne');
  });

  it('normalises CRLF and turns progress-bar carriage returns into lines', () => {
    assert.strictEqual(sanitizeText('one\r\ntwo\r\n'), 'one\ntwo\n');
    assert.strictEqual(sanitizeText('10%\r55%\r100%\nError: boom'), '10%\n55%\n100%\nError: boom');
  });

  it('strips ANSI as part of sanitising and replaces lone surrogates', () => {
    assert.strictEqual(sanitizeText('\x1b[31mError\x1b[0m: x'), 'Error: x');
    assert.strictEqual(sanitizeText('a\ud800b\udc00c'), 'a\ufffdb\ufffdc');
    assert.strictEqual(sanitizeText('emoji 😀 ok'), 'emoji 😀 ok');
  });
});

describe('text: decodeBytes', () => {
  it('decodes UTF-8 and replaces invalid sequences with U+FFFD', () => {
    const d = decodeBytes(Uint8Array.from([0x68, 0x69, 0xff, 0x20, 0xed, 0x95, 0x9c]));
    assert.strictEqual(d.text, 'hi\ufffd 한');
    assert.strictEqual(d.replaced, 1);
    assert.strictEqual(d.binary, false);
  });

  it('drops a UTF-8 BOM', () => {
    assert.strictEqual(decodeBytes(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61])).text, 'a');
  });

  it('flags binary input (NUL bytes, PNG header, random bytes) but not text with escapes', () => {
    assert.strictEqual(decodeBytes(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])).binary, true);
    const noise = new Uint8Array(4096);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 256;
    assert.strictEqual(decodeBytes(noise).binary, true);
    assert.strictEqual(decodeBytes(Buffer.from('\x1b[31mred\x1b[0m\r\nline\ttab\n')).binary, false);
  });
});

describe('text: boundText', () => {
  it('returns short text unchanged', () => {
    assert.strictEqual(boundText('abc', 10), 'abc');
  });

  it('keeps head and tail within the byte budget and says how much was dropped', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    const s = `$ npm run build\n${lines.join('\n')}\nsrc/a.ts(1,1): error TS2304: Cannot find name 'x'.`;
    const out = boundText(s, 4096);
    assert.ok(byteLength(out) <= 4096, `got ${byteLength(out)} bytes`);
    assert.ok(out.startsWith('$ npm run build\n'));
    assert.ok(out.endsWith("error TS2304: Cannot find name 'x'."));
    const m = /…\[(\d+) bytes omitted\]…/.exec(out);
    assert.ok(m, 'marker present');
    // omitted + kept (minus the marker) adds up to the original size
    const kept = byteLength(out) - byteLength(m[0]) - 2;
    assert.strictEqual(+m[1] + kept, byteLength(s));
  });

  it('never splits a multi-byte character or surrogate pair', () => {
    const s = '가😀'.repeat(20000);
    for (const max of [100, 101, 102, 103, 1001, 4097]) {
      const out = boundText(s, max);
      assert.ok(byteLength(out) <= max, `max ${max}: ${byteLength(out)}`);
      assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out), `split pair at ${max}`);
      assert.ok(!out.includes('\ufffd'));
    }
  });

  it('byteLength agrees with Buffer.byteLength', () => {
    for (const s of ['', 'abc', 'é', '한국어', '😀x', 'a\ud800b']) assert.strictEqual(byteLength(s), Buffer.byteLength(s), s);
  });
});

describe('text: escapeControls (terminal output) and sanitizeRecord (input)', () => {
  it('shows OSC 52, OSC 8, CSI 2J, BEL, C1 and bidi overrides as visible escapes, keeps tabs and newlines', () => {
    const out = escapeControls('a\x1b]52;c;eA==\x07b\x1b[2Jc\x9b1m\u202Ed\te\nf');
    assert.strictEqual(out, 'a\\u001b]52;c;eA==\\u0007b\\u001b[2Jc\\u009b1m\\u202ed\te\nf');
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(out));
  });
  it('keeps JSON output the same data (the escape is a JSON escape)', () => {
    const json = JSON.stringify({ t: 'x\x9by\u202E' });
    assert.deepStrictEqual(JSON.parse(escapeControls(json)), { t: 'x\x9by\u202E' });
  });
  it('sanitizeRecord cleans every string of a record and leaves the input untouched', () => {
    const input = { a: 'x\x1b[31my', list: ['p\x1b]0;t\x07q'], n: 3, deep: { s: 'u\x00v' } };
    const out = sanitizeRecord(input);
    assert.deepStrictEqual(out, { a: 'xy', list: ['pq'], n: 3, deep: { s: 'uv' } });
    assert.strictEqual(input.a, 'x\x1b[31my');
  });
});
