import { describe, expect, it } from 'vitest';
import { readOnly } from '../../src/hosting/in-process-host.ts';

describe('readOnly (the state an in-process bot is shown)', () => {
  it('freezes plain objects and arrays in place, all the way down', () => {
    const state = { pile: 7, rows: [[1, 2], [3]], nested: { a: { b: null } } };
    expect(readOnly(state)).toBe(state);
    expect(Object.isFrozen(state)).toBe(true);
    expect(Object.isFrozen(state.rows[0])).toBe(true);
    expect(Object.isFrozen(state.nested.a)).toBe(true);
    // Already frozen at the top, a mutable child still gets frozen.
    const shallow = Object.freeze({ child: { n: 1 } });
    readOnly(shallow);
    expect(Object.isFrozen(shallow.child)).toBe(true);
  });

  it('gives a structured copy of a state holding a typed array, Map, Set or ArrayBuffer, anywhere in it', () => {
    for (const inner of [new Uint8Array([1, 2]), new Map([[1, 2]]), new Set([3]), new ArrayBuffer(4)]) {
      for (const state of [{ pile: 1, inner }, [0, { deep: inner }], inner]) {
        const view = readOnly(state);
        expect(view).not.toBe(state);
        expect(view).toEqual(state);
      }
    }
    // An object with another prototype is checked as before: a Map subclass is still copied.
    class Board extends Map<number, number> {}
    const board = { cells: new Board([[1, 1]]) };
    expect(readOnly(board)).not.toBe(board);
  });
});
