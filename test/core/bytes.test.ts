/**
 * Text written straight into bytes (src/core/bytes.ts): numbers as `String` writes them, and the
 * memo of recurring strings, whose bytes are always those of its encoding of the string asked for.
 */
import { describe, expect, it } from 'vitest';
import { ByteMemo, numberLength, putAscii, putNumber, putText } from '../../src/core/bytes.ts';
import { createRng } from '../../src/core/rng.ts';

/** What `put` writes from offset 3 of a buffer, checking it wrote nothing before. */
function written(put: (buf: Buffer, at: number) => number): string {
  const buf = Buffer.alloc(64, 0x7e);
  const end = put(buf, 3);
  expect(buf.subarray(0, 3).toString('latin1')).toBe('~~~');
  return buf.toString('utf8', 3, end);
}

describe('putNumber', () => {
  it('writes what String writes, for every kind of number', () => {
    const rng = createRng(7);
    const numbers = [0, -0, 1, 9, 10, 99, 100, 101, 999, 1000, 12_345, 99_999_999, 100_000_000, 4_294_967_295, 4_294_967_296, -1, -10, -4_294_967_295, 0.5, -2.5, 1e21, 2 ** 53, Number.NaN, Infinity, -Infinity];
    for (let k = 0; k < 5_000; k++) numbers.push(Math.floor(rng.float() * 2 ** 32), rng.int(0, 1000), -Math.floor(rng.float() * 2 ** 32));
    for (const n of numbers) {
      expect(written((buf, at) => putNumber(buf, at, n))).toBe(String(n));
      expect(numberLength(n)).toBe(String(n).length);
    }
  });
});

describe('putAscii and putText', () => {
  it('write ASCII as it is and any text as UTF-8', () => {
    expect(written((buf, at) => putAscii(buf, at, '{"index":'))).toBe('{"index":');
    for (const s of ['', 'plain', 'zé ½', '🎲 dice', 'ascii then ü']) expect(written((buf, at) => putText(buf, at, s))).toBe(s);
  });
});

describe('ByteMemo', () => {
  it('writes the encoding of the string asked for, from its last two, its map, or afresh past its limit', () => {
    const made: string[] = [];
    const memo = new ByteMemo((s) => {
      made.push(s);
      return `<${JSON.stringify(s)}>`;
    }, 3);
    for (const s of ['a', 'b', 'a', 'b', 'c', 'a', 'zé', 'd', 'e', 'a', 'a', '', '', 'b']) expect(written((buf, at) => memo.put(buf, at, s))).toBe(`<${JSON.stringify(s)}>`);
    // Each string is encoded once until the map holds 3, then afresh once per filling.
    expect(made).toEqual(['a', 'b', 'c', 'zé', 'd', 'e', 'a', '', 'b']);
  });
});
