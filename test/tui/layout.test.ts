/** The dashboard's number formatting: the same text as toLocaleString('en-US'), without loading ICU for integers. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fmtInt } from '../../src/tui/text/layout.ts';

describe('fmtInt', () => {
  it('groups integers exactly as toLocaleString("en-US") does', () => {
    for (const n of [0, 1, -1, 9, 10, 99, 100, 999, 1000, -1000, 3600, 12345, 999999, 1000000, -1234567, 2 ** 31, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(fmtInt(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => fmtInt(n) === n.toLocaleString('en-US')), { seed: 19, numRuns: 2000 });
    fc.assert(fc.property(fc.bigInt(), (n) => fmtInt(n) === n.toLocaleString('en-US')), { seed: 19, numRuns: 500 });
  });

  it('leaves everything else to toLocaleString', () => {
    for (const n of [-0, 0.5, 1234.5678, -9876.54321, 2 ** 60, 1e21, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(fmtInt(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
