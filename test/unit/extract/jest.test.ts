import * as assert from 'assert';
import { primaryError } from '../../../src/core/extract';

describe('extract: jest, formats without recorded fixtures', () => {
  it('jest failure blocks', () => {
    const raw = ' FAIL  src/cart.test.ts\n  ● cart › adds items\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 3\n    Received: 2\n';
    const e = primaryError(raw)!;
    assert.strictEqual(e.tool, 'jest');
    // The test's name and Expected/Received travel with the message: they tell one failing test from another.
    assert.strictEqual(e.message, 'expect(received).toBe(expected) // Object.is equality\ntest: cart › adds items\nExpected: 3\nReceived: 2');
  });
});
