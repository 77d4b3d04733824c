import { describe, expect, it } from 'vitest';
import { noRepeatPeriod, noRepeatTable } from '../../src/solvers/no-repeat.ts';
import { zeroedBytes, zeroedWords } from '../../src/solvers/small-tables.ts';

describe('small tables carved from shared chunks', () => {
  it('hands out zeroed, non-overlapping tables of the asked length', () => {
    const tables = Array.from({ length: 300 }, (_, i) => (i % 2 ? zeroedBytes(1 + ((i * 37) % 500)) : zeroedWords(1 + ((i * 11) % 300))));
    tables.forEach((t, i) => {
      expect(t.length).toBe(i % 2 ? 1 + ((i * 37) % 500) : 1 + ((i * 11) % 300));
      expect(t.every((x) => x === 0)).toBe(true);
      t.fill(i % 2 ? 0xff : 0xffffffff);
    });
    // Filling each one left every other intact (they would read as filled, not as their own value).
    tables.forEach((t, i) => expect(t.every((x) => x === (i % 2 ? 0xff : 0xffffffff))).toBe(true));
  });

  it('never reuses memory a kept table still uses', () => {
    const kept = zeroedBytes(100);
    kept.fill(7);
    // Several chunks' worth of later tables, each filled.
    for (let i = 0; i < 2000; i++) zeroedBytes(200).fill(9);
    expect(kept.every((x) => x === 7)).toBe(true);
  });

  it('gives large tables a buffer of their own', () => {
    const big = zeroedWords(100_000);
    expect(big.length).toBe(100_000);
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(400_000);
  });

  it('keeps a period proof table valid while later detections run', () => {
    const p = noRepeatPeriod([1, 2, 3, 4, 5])!;
    const copy = Array.from(p.table);
    for (let i = 0; i < 2000; i++) noRepeatPeriod([2, 3, 7]);
    expect(Array.from(p.table)).toEqual(copy);
    expect(Array.from(p.table)).toEqual(Array.from(noRepeatTable([1, 2, 3, 4, 5], p.upto)));
  });
});
