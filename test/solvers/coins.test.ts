import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_BONUS,
  boardSegments,
  coinCount,
  createCoinOracle,
  hasCell,
  isSubmask,
  joinMask,
  maskCells,
  maskHi,
  maskLo,
  misereTable,
  pointsTable,
  restrictGraph,
  squareGraph,
  testBit,
  triangleGraph,
  withoutMask,
  type LineGraph,
} from '../../src/solvers/coins.ts';

/** Binomial coefficient. */
const choose = (n: number, k: number): number => {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return k < 0 || k > n ? 0 : r;
};

/** Cell coordinates straight from GAMES.md's numbering (independent of the solver's graph). */
function coords(board: 'triangle' | 'square', size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < size; r++) for (let c = 0; c < (board === 'triangle' ? r + 1 : size); c++) out.push([r, c]);
  return out;
}

const DIRS = {
  triangle: [
    [0, 1],
    [1, 0],
    [1, 1],
  ],
  square: [
    [0, 1],
    [1, 0],
    [1, 1],
    [1, -1],
  ],
} as const;

/** Every take as a set of cells, enumerated from coordinates: all runs along the GAMES.md directions. */
function naiveSegments(board: 'triangle' | 'square', size: number): number[][] {
  const cells = coords(board, size);
  const at = new Map(cells.map(([r, c], i) => [`${r},${c}`, i]));
  const out = new Map<string, number[]>();
  cells.forEach(([r, c], i) => {
    out.set(`${i}`, [i]);
    for (const [dr, dc] of DIRS[board]) {
      const run = [i];
      for (let k = 1; ; k++) {
        const j = at.get(`${r + k * dr},${c + k * dc}`);
        if (j === undefined) break;
        run.push(j);
        out.set(run.join(','), run.slice());
      }
    }
  });
  return [...out.values()];
}

/** Misère minimax over subsets of a board, straight from the rules: no tables, no rays. */
function naiveMisere(segs: readonly number[][]): (cells: readonly number[]) => boolean {
  const memo = new Map<string, boolean>();
  const win = (cells: readonly number[]): boolean => {
    if (cells.length === 0) return true; // the opponent took the last coin
    const key = cells.join(',');
    const known = memo.get(key);
    if (known !== undefined) return known;
    const present = new Set(cells);
    const w = segs.some((s) => s.every((c) => present.has(c)) && !win(cells.filter((c) => !s.includes(c))));
    memo.set(key, w);
    return w;
  };
  return win;
}

/** Points negamax over subsets: the future margin for the player to move, bonus included. */
function naivePoints(segs: readonly number[][], bonus: number): (cells: readonly number[]) => number {
  const memo = new Map<string, number>();
  const f = (cells: readonly number[]): number => {
    if (cells.length === 0) return bonus;
    const key = cells.join(',');
    const known = memo.get(key);
    if (known !== undefined) return known;
    const present = new Set(cells);
    let best = -Infinity;
    for (const s of segs) {
      if (!s.every((c) => present.has(c))) continue;
      best = Math.max(best, s.length - f(cells.filter((c) => !s.includes(c))));
    }
    memo.set(key, best);
    return best;
  };
  return f;
}

const maskOf = (cells: readonly number[]): number => cells.reduce((m, c) => m + 2 ** c, 0);
const BIG = (m: number): bigint => BigInt(m);

const BOARDS: readonly ['triangle' | 'square', number, LineGraph][] = [
  ['triangle', 1, triangleGraph(1)],
  ['triangle', 2, triangleGraph(2)],
  ['triangle', 4, triangleGraph(4)],
  ['triangle', 6, triangleGraph(6)],
  ['triangle', 8, triangleGraph(8)],
  ['square', 1, squareGraph(1)],
  ['square', 3, squareGraph(3)],
  ['square', 5, squareGraph(5)],
  ['square', 6, squareGraph(6)],
];

describe('board masks above 32 bits', () => {
  const mask36 = fc.bigInt({ min: 0n, max: 2n ** 36n - 1n }).map(Number);
  it('split, count, test, subset and difference agree with bigint arithmetic', () => {
    fc.assert(
      fc.property(mask36, mask36, fc.integer({ min: 0, max: 35 }), (a, b, cell) => {
        expect(joinMask(maskLo(a), maskHi(a))).toBe(a);
        expect(coinCount(a)).toBe(BIG(a).toString(2).replace(/0/g, '').length);
        expect(hasCell(a, cell)).toBe(((BIG(a) >> BigInt(cell)) & 1n) === 1n);
        expect(isSubmask(a, b)).toBe((BIG(a) & BIG(b)) === BIG(a));
        expect(withoutMask(a, b)).toBe(Number(BIG(a) & ~BIG(b)));
        expect(maskCells(a, 36)).toEqual([...Array(36).keys()].filter((c) => ((BIG(a) >> BigInt(c)) & 1n) === 1n));
      }),
      { numRuns: 300 },
    );
  });
});

describe('lines and segments', () => {
  it('the triangle with R rows has n + 3·C(R+1, 3) takes; the S×S square S² + 2S·C(S,2) + 4·C(S,3) + 2·C(S,2)', () => {
    for (let rows = 1; rows <= 8; rows++) {
      const n = (rows * (rows + 1)) / 2;
      expect(boardSegments(triangleGraph(rows))).toHaveLength(n + 3 * choose(rows + 1, 3));
    }
    for (let side = 1; side <= 6; side++) {
      const expected = side * side + 2 * side * choose(side, 2) + 4 * choose(side, 3) + 2 * choose(side, 2);
      expect(boardSegments(squareGraph(side))).toHaveLength(expected);
    }
    expect(boardSegments(triangleGraph(6))).toHaveLength(126);
    expect(boardSegments(squareGraph(5))).toHaveLength(185);
    expect(boardSegments(squareGraph(6))).toHaveLength(326);
  });

  it('small boards list exactly the expected takes, in order (coin numbers)', () => {
    const names = (g: LineGraph) => boardSegments(g).map((s) => s.cells.map((c) => c + 1).join(','));
    // 1 / 2 3: the row 2-3, the column 1-2 and the diagonal 1-3
    expect(names(triangleGraph(2))).toEqual(['1', '1,2', '1,3', '2', '2,3', '3']);
    // 1 2 / 3 4: rows, columns and both diagonals
    expect(names(squareGraph(2))).toEqual(['1', '1,2', '1,3', '1,4', '2', '2,3', '2,4', '3', '3,4', '4']);
  });

  it('every take is a run of consecutive cells of one GAMES.md line, and every such run is a take', () => {
    for (const [board, size, g] of BOARDS) {
      const xy = coords(board, size);
      const segs = boardSegments(g);
      for (const s of segs) {
        expect(s.mask).toBe(maskOf(s.cells));
        if (s.cells.length === 1) continue;
        const [r0, c0] = xy[s.cells[0]!]!;
        const [r1, c1] = xy[s.cells[1]!]!;
        const step = [r1 - r0, c1 - c0];
        expect(DIRS[board].some(([dr, dc]) => dr === step[0] && dc === step[1])).toBe(true);
        s.cells.forEach((cell, k) => expect(xy[cell]).toEqual([r0 + k * step[0]!, c0 + k * step[1]!]));
      }
      const naive = naiveSegments(board, size).map((cells) => cells.join(',')).sort();
      expect(segs.map((s) => s.cells.join(',')).sort()).toEqual(naive);
    }
  });
});

describe('misereTable', () => {
  it('matches naive misère minimax on every subset of small boards', () => {
    for (const [board, size, g] of BOARDS.filter(([, , gr]) => gr.cells <= 10)) {
      const bits = misereTable(g);
      const win = naiveMisere(naiveSegments(board, size));
      for (let m = 0; m < 2 ** g.cells; m++) expect(testBit(bits, m), `${board} ${size} mask ${m}`).toBe(win(maskCells(m, g.cells)));
    }
  });

  it('the empty board wins for the player to move, one coin loses, one row of 4 wins', () => {
    const bits = misereTable(squareGraph(4));
    expect(testBit(bits, 0)).toBe(true);
    for (let c = 0; c < 16; c++) expect(testBit(bits, 2 ** c)).toBe(false);
    expect(testBit(bits, 0b1111)).toBe(true); // 1 2 3 4 (GAMES.md 5)
    expect(testBit(bits, 0b1000)).toBe(false); // after 1-3 the opponent must take 4
  });

  it('on compacted random subsets of the large boards, matches naive minimax (fast-check)', () => {
    const large = BOARDS.filter(([, , g]) => g.cells >= 21);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: large.length - 1 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 35 }), { minLength: 1, maxLength: 11 }),
        (which, raw) => {
          const [board, size, g] = large[which]!;
          const cells = [...new Set(raw.map((c) => c % g.cells))].sort((a, b) => a - b);
          const bits = misereTable(restrictGraph(g, cells));
          const win = naiveMisere(naiveSegments(board, size));
          // every subset of the dealt cells, compacted: bit t stands for cells[t]
          for (let m = 0; m < 2 ** cells.length; m++) {
            const sub = cells.filter((_, t) => (m >>> t) & 1);
            if (testBit(bits, m) !== win(sub)) return false;
          }
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('pointsTable', () => {
  it('matches naive negamax on every subset of small boards, for several bonuses', () => {
    for (const [board, size, g] of BOARDS.filter(([, , gr]) => gr.cells <= 10)) {
      for (const bonus of [0, 3, 7]) {
        const f = pointsTable(g, bonus);
        const naive = naivePoints(naiveSegments(board, size), bonus);
        for (let m = 0; m < 2 ** g.cells; m++) expect(f[m], `${board} ${size} bonus ${bonus} mask ${m}`).toBe(naive(maskCells(m, g.cells)));
      }
    }
  });

  it('one coin: the mover scores 1 and the opponent the bonus', () => {
    expect(pointsTable(squareGraph(2), 3)[0b0001]).toBe(1 - 3);
    expect(pointsTable(squareGraph(2), 3)[0]).toBe(3);
  });

  it('on compacted random subsets of the large boards, matches naive negamax (fast-check)', () => {
    const large = BOARDS.filter(([, , g]) => g.cells >= 21);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: large.length - 1 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 35 }), { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 0, max: MAX_BONUS }),
        (which, raw, bonus) => {
          const [board, size, g] = large[which]!;
          const cells = [...new Set(raw.map((c) => c % g.cells))].sort((a, b) => a - b);
          const f = pointsTable(restrictGraph(g, cells), bonus);
          const naive = naivePoints(naiveSegments(board, size), bonus);
          for (let m = 0; m < 2 ** cells.length; m++) {
            if (f[m] !== naive(cells.filter((_, t) => (m >>> t) & 1))) return false;
          }
          return true;
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rejects a bonus the Int8 table cannot hold', () => {
    expect(() => pointsTable(squareGraph(2), MAX_BONUS + 1)).toThrow(RangeError);
  });
});

describe('createCoinOracle', () => {
  it('answers positions of a 36-coin board from per-base tables, as naive minimax does', () => {
    const g = squareGraph(6);
    const segs = naiveSegments('square', 6);
    const win = naiveMisere(segs);
    const points = naivePoints(segs, 3);
    const misere = createCoinOracle(g, 'last-coin', 3, { keep: 2 });
    const scored = createCoinOracle(g, 'points', 3, { keep: 2 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 35 }), { minLength: 0, maxLength: 9 }), fc.nat(), (raw, pick) => {
        const cells = raw.sort((a, b) => a - b);
        const mask = maskOf(cells);
        // ask about the position and then one of its sub-positions (served by the same base table)
        const sub = cells.filter((_, t) => ((pick >>> t) & 1) === 1);
        return (
          misere.win(mask) === win(cells) &&
          misere.win(maskOf(sub)) === win(sub) &&
          scored.future(mask) === points(cells) &&
          scored.future(maskOf(sub)) === points(sub)
        );
      }),
      { numRuns: 150 },
    );
  });

  it('refuses positions above its cap', () => {
    const oracle = createCoinOracle(squareGraph(6), 'last-coin', 3, { cap: 10 });
    expect(() => oracle.win(2 ** 11 - 1)).toThrow(RangeError);
    expect(oracle.win(2 ** 35)).toBe(false); // coin 36 alone: a loss
  });
});
