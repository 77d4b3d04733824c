import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBlockOracle } from '../../src/solvers/coin-block-oracle.ts';
import { boardSymmetries, createCoinSearch } from '../../src/solvers/coin-search.ts';
import { boardSegments, squareGraph, triangleGraph, withoutMask } from '../../src/solvers/coins.ts';

// The search splits off isolated coins (* + * = 0 in misère play), tries killer and counter takes,
// and cuts on children the table holds as lost: the word-parallel block table of each position is
// an independent exact reference for all of it.
const boards = [
  { name: 'square 6×6', board: 'square', size: 6, g: squareGraph(6) },
  { name: 'triangle 8 rows', board: 'triangle', size: 8, g: triangleGraph(8) },
] as const;

/** A mask of k distinct cells out of `cells`, drawn by fast-check's shuffle. */
const maskArb = (cells: number, minCoins: number, maxCoins: number): fc.Arbitrary<number> =>
  fc
    .tuple(
      fc.integer({ min: minCoins, max: maxCoins }),
      fc.shuffledSubarray(
        Array.from({ length: cells }, (_, i) => i),
        { minLength: cells, maxLength: cells },
      ),
    )
    .map(([k, order]) => order.slice(0, k).reduce((m, c) => m + 2 ** c, 0));

describe('coin search against the block table', () => {
  for (const { name, board, size, g } of boards) {
    it(`agrees on random 12–20-coin positions of the ${name} (fast-check, seeded)`, () => {
      // One search for all positions, so later positions also meet entries of earlier ones.
      const search = createCoinSearch(g, { symmetries: boardSymmetries(board, size), ttBits: 20 });
      fc.assert(
        fc.property(maskArb(g.cells, 12, 20), (m) => {
          expect(search.wins(m)).toBe(createBlockOracle(g).win(m));
        }),
        { numRuns: 40, seed: 6_2024 },
      );
    });

    it(`picks a winning take, or a single coin when lost, on the ${name} (fast-check, seeded)`, () => {
      const search = createCoinSearch(g, { symmetries: boardSymmetries(board, size), ttBits: 18 });
      const segs = boardSegments(g);
      fc.assert(
        fc.property(maskArb(g.cells, 10, 16), (m) => {
          const oracle = createBlockOracle(g);
          const take = search.bestTake(m)!;
          const chosen = segs.find((s) => s.mask === take);
          expect(chosen).toBeDefined();
          expect(withoutMask(m, take)).toBe(m - take); // a legal take: its coins are all present
          if (oracle.win(m)) expect(oracle.win(m - take)).toBe(false);
          else expect(chosen!.cells.length).toBe(1);
        }),
        { numRuns: 25, seed: 6_2025 },
      );
    });
  }

  it('agrees on symmetric positions (equal symmetry hashes) and without symmetries (one hash lane)', () => {
    // A position that a symmetry maps to itself has two images of equal hash, the tie that the
    // search breaks by the exact images; its children are often symmetric again. Without
    // symmetries the search keeps one real hash lane of its eight.
    const g = squareGraph(6);
    const syms = boardSymmetries('square', 6);
    const withSyms = createCoinSearch(g, { symmetries: syms, ttBits: 18 });
    const plain = createCoinSearch(g, { ttBits: 18 });
    fc.assert(
      fc.property(maskArb(g.cells, 5, 9), fc.integer({ min: 1, max: 7 }), (half, k) => {
        // The union of a random set and its image under symmetry k.
        let m = 0;
        for (let c = 0; c < 36; c++) {
          if (Math.floor(half / 2 ** c) % 2 === 0) continue;
          for (const cell of [c, syms[k]![c]!]) if (Math.floor(m / 2 ** cell) % 2 === 0) m += 2 ** cell;
        }
        const oracle = createBlockOracle(g).win(m);
        expect(withSyms.wins(m)).toBe(oracle);
        expect(plain.wins(m)).toBe(oracle);
      }),
      { numRuns: 25, seed: 6_2026 },
    );
  });

  it('treats pairs of isolated coins as cancelling (positions that differ by two of them agree)', () => {
    // Coins 1, 3, 5 of the top row and 31, 33 of the bottom one (cells 0, 2, 4, 30, 32) have no
    // neighbour in these positions; the 2×2 block in the middle is shared.
    const g = squareGraph(6);
    const search = createCoinSearch(g, { symmetries: boardSymmetries('square', 6), ttBits: 14 });
    const block = 2 ** 14 + 2 ** 15 + 2 ** 20 + 2 ** 21;
    const iso = [0, 2, 4, 30, 32].map((c) => 2 ** c);
    const oracle = createBlockOracle(g);
    for (let k = 0; k <= iso.length; k++) {
      const m = block + iso.slice(0, k).reduce((x, y) => x + y, 0);
      expect(search.wins(m)).toBe(oracle.win(m));
    }
  });
});
