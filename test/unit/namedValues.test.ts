import * as assert from 'assert';
import { namedValues, namedWords, otherName } from '../../src/core/recall/namedValues';
import { normaliseSignature } from '../../src/core/signature';

const values = (message: string, file?: string) => namedValues(message, normaliseSignature(message).text, file);

describe('namedValues: what an error names beyond its signature', () => {
  it('reads quoted and bare names alike, whatever the tool', () => {
    assert.deepStrictEqual(values('‘setw’ is not a member of ‘std’'), ['setw', 'std']);
    assert.deepStrictEqual(values('rsycn: command not found'), ['rsycn']);
    assert.deepStrictEqual(values('boost/asio.hpp: No such file or directory'), ['boost/asio.hpp']);
    assert.deepStrictEqual(values("Type 'string' is not assignable to type 'number'."), ['string', 'number']);
  });

  it('never counts numbers, the file the error is in, a "did you mean" tail or the program\'s own bindings', () => {
    assert.deepStrictEqual(values("Can't locate object method \"sum\" via package \"Cart\" at bin/receipt.pl line 3.", 'bin/receipt.pl'), ['sum', 'cart']);
    assert.deepStrictEqual(values("error TS2551: Property 'lenght' does not exist on type 'string[]'. Did you mean 'length'?"), ['lenght', 'string']);
    assert.deepStrictEqual(values("variable 'Taxx' is unbound"), []);
    assert.deepStrictEqual(values('fmt.Printf format %d has arg city of wrong type string'), ['fmt.printf']);
    assert.deepStrictEqual(values('this function takes 2 arguments but 1 argument was supplied'), []);
  });

  it('finds the first value a memory\'s error text lacks', () => {
    const words = namedWords("src/a.cpp:2:30: error: ‘setw’ is not a member of ‘std’\nalso: ‘setw’ is not a member of ‘std’");
    assert.strictEqual(otherName(values('‘setw’ is not a member of ‘std’'), words), undefined);
    assert.strictEqual(otherName(values('‘quoted’ is not a member of ‘std’'), words), 'quoted');
  });
});
