/**
 * The octal and Grundy families (GAMES.md 7) and misère play (GAMES.md 8) through the public game
 * entry points: every solver against a brute force over the game's own moves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, type AnyGame } from '../../src/core/index.ts';
import { analyzePosition, findPeriod, tabulate } from '../../src/games/analysis.ts';
import { makeGame, parseVariant } from '../../src/games/index.ts';
import type { OctalMove, OctalState } from '../../src/games/octal.ts';
import { bruteWins } from './onepile-brute.ts';

/** Brute-force win under misère: the mover wins when no move is left, else when some move leaves a loss. */
function bruteMisereWins(game: AnyGame, s: unknown, memo = new Map<string | number | bigint, boolean>()): boolean {
  const key = game.key(s);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const moves = game.moves(s);
  const win = moves.length === 0 || moves.some((m) => !bruteMisereWins(game, game.play(s, m), memo));
  memo.set(key, win);
  return win;
}

const at = (heaps: number[]): OctalState => ({ heaps, turn: 'first' });

describe('octal family', () => {
  it('names presets, normalises codes and round-trips ids', () => {
    const game = parseVariant('octal{code=kayles;n=30}');
    expect(game.id).toBe('octal{code=0.77;n=30}');
    expect(game.title).toMatch(/Kayles/);
    expect(parseVariant('octal{code=.07;heaps=3,4,5;misere=true}').id).toBe('octal{code=0.07;heaps=3,4,5;misere=true}');
    expect(parseVariant('octal{code=0.77;misere=false}').id).toBe('octal{code=0.77;n=5..40}');
    expect(parseVariant('grundy{heaps=[9]}').id).toBe('grundy{heaps=[9]}');
    expect(() => parseVariant('octal{code=0.9}')).toThrow(/Expected `code` to be an octal code/);
    expect(() => parseVariant('octal{code=0.77;misere=maybe}')).toThrow(/Expected `misere` to be `true` or `false`/);
  });

  it('writes and reads moves: take, take and split, split without taking', () => {
    const kayles = parseVariant('octal{code=0.77;heaps=[5]}');
    const s = kayles.deal(createRng(0)) as OctalState;
    const texts = kayles.moves(s).map((m) => kayles.formatMove(m));
    expect(texts).toEqual(['1:1', '1:1:1+3', '1:1:2+2', '1:2', '1:2:1+2']);
    const m = kayles.parseMove('1:1:3+1', s) as OctalMove;
    expect(m).toEqual({ heap: 1, take: 1, rest: [1, 3] });
    expect(kayles.play(s, m)).toEqual({ heaps: [1, 3], turn: 'second' });
    expect(() => kayles.parseMove('1:3', s)).toThrow(/not legal here; legal moves on heap 1: 1:1, /);
    const grundy = parseVariant('grundy{heaps=[7]}');
    expect(grundy.moves(grundy.deal(createRng(0))).map((x) => grundy.formatMove(x))).toEqual(['1:1+6', '1:2+5', '1:3+4']);
    expect(grundy.formatMove(grundy.parseMove('1:4+3', grundy.deal(createRng(0))))).toBe('1:3+4');
  });

  it('ends when no heap can move: normal play the mover loses, misère the mover wins', () => {
    const normal = parseVariant('octal{code=0.07;heaps=[1]}');
    expect(normal.moves(at([1, 1]))).toEqual([]);
    expect(normal.outcome({ heaps: [1, 1], turn: 'second' })).toEqual({ winner: 'first' });
    const misere = parseVariant('octal{code=0.07;heaps=[1];misere=true}');
    expect(misere.outcome({ heaps: [1, 1], turn: 'second' })).toEqual({ winner: 'second' });
  });

  it.each(['0.77', '0.07', '0.137', '0.6', '4.07', '0.165'])('%s: the solver agrees with a brute force on small positions, both plays', (code) => {
    for (const misere of [false, true]) {
      const game = parseVariant(`octal{code=${code};heaps=2;n=1..8${misere ? ';misere=true' : ''}}`);
      const solver = game.solver!()!;
      const memo = new Map<string | number | bigint, boolean>();
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }), (heaps) => {
          const s = at(heaps);
          const brute = misere ? bruteMisereWins(game, s, memo) : bruteWins(game, s, memo);
          expect(solver.value(s) > 0, `${code}${misere ? ' misère' : ''} ${heaps.join(' ')}`).toBe(brute);
          const best = solver.bestMove(s);
          expect(best === null).toBe(game.moves(s).length === 0);
          if (brute && best !== null) expect(misere ? bruteMisereWins(game, game.play(s, best), memo) : bruteWins(game, game.play(s, best), memo)).toBe(false);
        }),
        { numRuns: 40 },
      );
    }
  });

  it("Grundy's game: the solver agrees with a brute force, both plays", () => {
    for (const misere of [false, true]) {
      const game = parseVariant(`grundy{heaps=3;n=1..12${misere ? ';misere=true' : ''}}`);
      const solver = game.solver!()!;
      for (const heaps of [[3], [5, 4], [7, 6, 1], [12], [9, 3, 2], [11, 10]]) {
        const s = at(heaps);
        expect(solver.value(s) > 0, heaps.join(' ')).toBe(misere ? bruteMisereWins(game, s) : bruteWins(game, s));
      }
    }
  });

  it('prefers the largest winning take, and prolongs a lost game from the largest heap', () => {
    const game = parseVariant('octal{code=0.77;heaps=[6]}');
    const solver = game.solver!()!;
    // Kayles heap 6: G = 3; both takes have winning replies; the largest (2) is chosen.
    expect(game.formatMove(solver.bestMove(at([6])))).toBe('1:2:2+2');
    // {1, 1} is lost (xor 0): take 1 from the first of the largest heaps.
    expect(game.formatMove(solver.bestMove(at([1, 1])))).toBe('1:1');
  });

  it('analyses positions and tables: nim-values, P-positions, the proven period', () => {
    const kayles = parseVariant('octal{code=0.77;n=30}');
    expect(analyzePosition(kayles, at([4, 4])).outcome).toBe('P');
    expect(tabulate(kayles, 15)?.nimValues).toEqual([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]);
    expect(findPeriod(kayles)).toEqual({ preperiod: 71, period: 12 });
    expect(findPeriod(parseVariant('grundy'))).toBeUndefined();
    // Misère Kayles: the P-positions of one heap, against the brute force.
    const misere = parseVariant('octal{code=0.77;n=1..20;misere=true}');
    const memo = new Map<string | number | bigint, boolean>();
    const cold = Array.from({ length: 21 }, (_, n) => n).filter((n) => !bruteMisereWins(misere, at(n === 0 ? [] : [n]), memo));
    expect(tabulate(misere, 20)?.pPositions).toEqual(cold);
    expect(cold.slice(0, 4)).toEqual([1, 4, 9, 12]);
  });

  it('offers a misère solver only where the search is bounded', () => {
    expect(parseVariant('octal{code=0.77;n=5..40;misere=true}').solver?.()).toBeDefined();
    expect(parseVariant('octal{code=0.77;heaps=4;n=5..40;misere=true}').solver?.()).toBeUndefined();
  });
});

describe('misère play of the other families', () => {
  it('subtraction {1,2,3}: P-positions are n ≡ 1 (mod 4)', () => {
    const game = parseVariant('subtraction{moves=1,2,3;n=0..100;misere=true}');
    expect(tabulate(game, 40)?.pPositions).toEqual([1, 5, 9, 13, 17, 21, 25, 29, 33, 37]);
    const solver = game.solver!()!;
    for (let n = 0; n <= 100; n++) expect(solver.classify({ pile: n, turn: 'first' }), `pile ${n}`).toBe(n % 4 === 1 ? 'P' : 'N');
    expect(findPeriod(game)).toEqual({ preperiod: 0, period: 4 });
  });

  it('subtraction: the misère solver agrees with a brute force, big piles by the shifted period', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }), (moves) => {
        const game = makeGame('subtraction', { moves, n: [0, 80], misere: true });
        const solver = game.solver!()!;
        const memo = new Map<string | number | bigint, boolean>();
        for (let n = 0; n <= 80; n++) {
          const s = { pile: n, turn: 'first' };
          expect(solver.value(s) > 0, `${moves} pile ${n}`).toBe(bruteMisereWins(game, s, memo));
        }
        const period = findPeriod(game)!;
        const big = makeGame('subtraction', { moves, n: [0, 10 ** 15], misere: true }).solver!()!;
        for (let n = 0; n <= 80; n++) {
          const far = n + period.period * 1e12;
          if (n >= period.preperiod) expect(big.value({ pile: far, turn: 'first' })).toBe(solver.value({ pile: n, turn: 'first' }));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('no-repeat: the misère solver agrees with a brute force', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }), (moves) => {
        const game = makeGame('no-repeat', { moves, n: [0, 60], misere: true });
        const solver = game.solver!()!;
        const memo = new Map<string | number | bigint, boolean>();
        for (let n = 0; n <= 60; n++) {
          for (const forbidden of [null, ...moves]) {
            const s = { pile: n, forbidden, turn: 'first' };
            expect(solver.value(s) > 0, `${moves} pile ${n} forbidden ${forbidden}`).toBe(bruteMisereWins(game, s, memo));
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('Nim: the misère rule, and squares and sets by search, against a brute force', () => {
    for (const rule of ['nim', 'squares', '1,3,4']) {
      const game = makeGame('piles', { rule, piles: 3, size: [0, 7], misere: true });
      const solver = game.solver!()!;
      const memo = new Map<string | number | bigint, boolean>();
      for (let a = 0; a <= 7; a++)
        for (let b = 0; b <= a; b++)
          for (let c = 0; c <= b; c++) {
            const s = { piles: [a, b, c], turn: 'first' };
            const brute = bruteMisereWins(game, s, memo);
            expect(solver.value(s) > 0, `${rule} ${a} ${b} ${c}`).toBe(brute);
            const best = solver.bestMove(s);
            if (brute && best !== null) expect(bruteMisereWins(game, game.play(s, best), memo)).toBe(false);
          }
    }
  });

  it('greedy avoids a take that ends the game under misère', () => {
    const game = parseVariant('piles{rule=nim;piles=[5];misere=true}');
    const s = game.deal(createRng(0));
    const [take5, take4] = [game.parseMove('1:5', s), game.parseMove('1:4', s)];
    expect(game.heuristic!(s, take5)).toBeLessThan(game.heuristic!(s, take4));
  });
});
