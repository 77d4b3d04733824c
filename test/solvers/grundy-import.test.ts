/**
 * Importing the solvers allocates nothing large: the subtract-a-square tables (tens of MB of address
 * space) are made at the first call that needs them (CLI start-up imports the games and their
 * solvers, issue 35). This file imports nothing else, so the module is first loaded here.
 */
import { describe, expect, it } from 'vitest';

const MB = 2 ** 20;

describe('solvers/grundy at import', () => {
  it('allocates its tables at the first call, not at import', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const grundy = await import('../../src/solvers/grundy.ts');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * MB);
    // The nim-value table (32 MB of address space) comes with the first nim-values…
    expect(Array.from(grundy.squaresNimValues(10))).toEqual([0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0]);
    const afterNim = process.memoryUsage().arrayBuffers;
    expect(afterNim - before).toBeGreaterThan(32 * MB);
    // …and the sieve's list (16 MB) with the first sieve; both are reused by later calls.
    expect(Array.from(grundy.squaresColdList(20))).toEqual([0, 2, 5, 7, 10, 12, 15, 17, 20]);
    const afterSieve = process.memoryUsage().arrayBuffers;
    expect(afterSieve - afterNim).toBeGreaterThan(16 * MB);
    grundy.squaresNimValues(100);
    grundy.squaresColdList(100);
    expect(process.memoryUsage().arrayBuffers - afterSieve).toBeLessThan(MB);
  });
});
