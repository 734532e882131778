import * as assert from 'assert';
import { Bm25Index, stem, tokenize } from '../../src/core/lexical';

describe('lexical: tokenize', () => {
  it('keeps compiler and errno codes whole', () => {
    const t = tokenize("src/a.ts(3,5): error TS2322: Type 'string' is not assignable. E0382 ENOENT ERR_REQUIRE_ESM");
    for (const code of ['ts2322', 'e0382', 'enoent', 'err_require_esm']) assert.ok(t.includes(code), `${code} in ${t.join(' ')}`);
  });

  it('splits camelCase, snake_case and paths, and keeps the whole identifier', () => {
    const t = tokenize('ModuleNotFoundError in packages/web/src/fooBar.ts via load_config_file');
    for (const w of ['modul', 'found', 'modulenotfounderror', 'packag', 'web', 'foo', 'bar', 'load', 'config']) {
      assert.ok(t.includes(w), `${w} in ${t.join(' ')}`);
    }
    // An absolute path's upper folders are someone's machine: its file name and the folder holding it count.
    const abs = tokenize('ENOENT: open /home/dev/shop-api/templates/settings.json');
    for (const w of [...tokenize('settings'), ...tokenize('templates')]) assert.ok(abs.includes(w), `${w} in ${abs.join(' ')}`);
    for (const w of ['home', 'dev', 'shop', 'json']) assert.ok(!abs.includes(w), `${w} not in ${abs.join(' ')}`);
  });

  it('keeps numbers, runtime-internal stack frames and location lines out of the words', () => {
    const nodeTrace = [
      'node:internal/modules/cjs/loader:1210', '  throw err;', '  ^', '',
      "Error: Cannot find module 'express'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      '    at Object.<anonymous> (/tmp/app/server.js:1:17)',
      '    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)',
      '    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)',
      '    at loadRoutes (/tmp/app/routes.js:12:3)',
      '    at node:internal/main/run_main_module:28:49 {', 'Node.js v20.20.2',
    ].join('\n');
    const t = tokenize(nodeTrace);
    for (const w of ['cannot', 'find', 'modul', 'express', 'loadrout']) assert.ok(t.includes(w), `${w} in ${t.join(' ')}`);
    for (const w of ['1210', '1623', '164', 'compil', 'extension', 'executeuserentrypoint', 'runmain', 'anonymou', 'internal', 'tmp', 'app', 'js', 'v20']) {
      assert.ok(!t.includes(w), `${w} not in ${t.join(' ')}`);
    }
    const py = tokenize('Traceback (most recent call last):\n  File "/usr/lib/python3.12/runpy.py", line 198, in _run_module_as_main\n  File "/home/me/etl/load.py", line 4, in load_rows\nKeyError: \'user_id\'');
    assert.ok(py.includes('loadrow') || py.includes('load_row') || py.includes('load'), py.join(' '));
    for (const w of ['runpy', '_run_module_as_main', 'runmoduleasmain', '198', 'usr', 'home']) assert.ok(!py.includes(w), `${w} not in ${py.join(' ')}`);
  });

  it('stems plurals and tenses so they meet', () => {
    assert.strictEqual(stem('errors'), stem('error'));
    assert.strictEqual(stem('resolved'), stem('resolve'));
    assert.strictEqual(stem('resolving'), stem('resolve'));
    assert.strictEqual(stem('moved'), stem('move'));
    assert.strictEqual(stem('modules'), stem('module'));
  });

  it('drops stop words but keeps negation', () => {
    const t = tokenize('why is the value not defined');
    assert.ok(!t.includes('the') && !t.includes('why') && !t.includes('is'));
    assert.ok(t.includes('not'));
  });

  it('maps Korean developer words to the English words of error messages', () => {
    const t = tokenize('모듈을 찾을 수 없다는 에러');
    for (const w of ['modul', 'cannot', 'find', 'error']) assert.ok(t.includes(w), `${w} in ${t.join(' ')}`);
    const b = tokenize('빌림 검사 오류: 이동된 값');
    for (const w of ['borrow', 'mov', 'error']) assert.ok(b.includes(w), `${w} in ${b.join(' ')}`);
  });

  it('maps English paraphrases to compiler wording', () => {
    const t = tokenize("it can't find lodash");
    assert.ok(t.includes('cannot') && t.includes('find'));
  });
});

describe('lexical: Bm25Index', () => {
  it('ranks the document sharing the rare words first', () => {
    const ix = new Bm25Index();
    ix.add('a', 'error TS2322 type string is not assignable to type number');
    ix.add('b', 'error cannot find module lodash');
    ix.add('c', 'error permission denied EACCES');
    assert.strictEqual(ix.search('Cannot find module "react"', 3)[0].id, 'b');
    assert.strictEqual(ix.search('EACCES when writing', 3)[0].id, 'c');
  });

  it('removes and re-adds documents in place', () => {
    const ix = new Bm25Index();
    ix.add('a', 'cannot find module lodash');
    ix.add('b', 'heap out of memory');
    ix.remove('a');
    assert.strictEqual(ix.size, 1);
    assert.deepStrictEqual(ix.search('lodash', 5), []);
    ix.add('a', 'lodash again');
    assert.strictEqual(ix.search('lodash', 5)[0].id, 'a');
    ix.add('a', 'replaced text'); // re-adding an id replaces it
    assert.deepStrictEqual(ix.search('lodash', 5), []);
  });

  it('returns exactly the top n when many documents match', () => {
    const ix = new Bm25Index();
    for (let i = 0; i < 300; i++) ix.add(`d${i}`, `error number ${i} ${i % 7 === 0 ? 'special special' : ''}`);
    const hits = ix.search('special error', 10);
    assert.strictEqual(hits.length, 10);
    assert.ok(hits.every(h => Number(h.id.slice(1)) % 7 === 0), hits.map(h => h.id).join());
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
  });
});

describe('lexical: identifier splitting and repeat calls', () => {
  it('splits capital runs, digits and separators the way error text needs', () => {
    const t = tokenize('HTTPServer v8Flags XMLHttpRequest parseJSONData load_config$file');
    for (const w of ['http', 'server', 'httpserver', 'v8', 'flag', 'v8flags', 'xml', 'request', 'json', 'data', 'pars', 'load', 'config', 'fil', 'loadconfigfil']) {
      assert.ok(t.includes(w), `${w} in ${t.join(' ')}`);
    }
    // A word with one part after stripping separators is kept as written, not as its part.
    assert.deepStrictEqual(tokenize('_private'), ['_privat']);
  });

  it('gives the same tokens every time (memoised words must not leak between texts)', () => {
    const a = 'ModuleNotFoundError: No module named numpy; fooBar_baz failed';
    const first = tokenize(a);
    tokenize('ModuleNotFoundError fooBar_baz something else entirely');
    const again = tokenize(a);
    assert.deepStrictEqual(again, first);
    again.push('mutated');
    assert.deepStrictEqual(tokenize(a), first);
  });
});

describe('lexical: Bm25Index bookkeeping', () => {
  it('forgets a word once no document uses it, and a new word never inherits old postings', () => {
    const ix = new Bm25Index();
    ix.add('a', 'zebrafish overflow');
    ix.add('b', 'common words only');
    assert.ok(ix.idf('zebrafish') > 0);
    ix.remove('a');
    assert.strictEqual(ix.idf('zebrafish'), 0);
    assert.deepStrictEqual(ix.search('zebrafish', 5), []);
    ix.add('c', 'quokka habitat');
    assert.deepStrictEqual(ix.search('quokka', 5).map(h => h.id), ['c']);
    assert.deepStrictEqual(ix.search('zebrafish overflow', 5), []);
    assert.deepStrictEqual(ix.searchWithTerms(['quokka', 'habitat'], 5)[0].terms, ['quokka', 'habitat']);
  });

  it('scores match the BM25 formula, also for a word in most documents of a big index', () => {
    const ix = new Bm25Index();
    const docs: string[][] = [];
    for (let i = 0; i < 1200; i++) {
      const toks = ['error', ...(i % 400 === 0 ? ['rareword', 'rareword'] : []), ...(i % 2 ? ['pad'] : []), ...(i % 20 === 1 ? ['mid'] : [])];
      docs.push(toks);
      ix.addTokens(`d${i}`, toks);
    }
    const N = docs.length;
    const avg = docs.reduce((s, d) => s + d.length, 0) / N;
    const idf = (t: string) => { const df = docs.filter(d => d.includes(t)).length; return Math.log(1 + (N - df + 0.5) / (df + 0.5)); };
    const part = (t: string, d: string[]) => { const c = d.filter(x => x === t).length; return c ? idf(t) * c * 2.2 / (c + 1.2 * (0.25 + 0.75 * d.length / avg)) : 0; };
    const hits = ix.searchWithTerms(['rareword', 'error'], 10);
    assert.deepStrictEqual(hits.map(h => h.id).sort(), ['d0', 'd400', 'd800']);
    for (const h of hits) {
      const d = docs[Number(h.id.slice(1))];
      assert.ok(Math.abs(h.score - (part('rareword', d) + part('error', d))) < 1e-9, `${h.id}: ${h.score}`);
      assert.deepStrictEqual(h.terms, ['rareword', 'error']);
    }
    // 60 documents found by "mid", then "pad" (in 600): the common word is added from its own postings.
    const mid = ix.searchWithTerms(['mid', 'pad'], 100);
    assert.strictEqual(mid.length, 60);
    for (const h of mid) {
      const d = docs[Number(h.id.slice(1))];
      assert.ok(Math.abs(h.score - (part('mid', d) + part('pad', d))) < 1e-9, `${h.id}: ${h.score}`);
    }
  });
});
