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
