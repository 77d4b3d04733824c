import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, createVariant, MoveError, ParamError, type Game } from '../../src/core/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { endGame, type EndGameMove, type EndGameState } from '../../src/games/end-game.ts';

type EndGame = Game<EndGameState, EndGameMove>;

const make = (raw: Record<string, unknown> = {}): EndGame => createVariant(endGame, raw);

/** Brute-force minimax through the game's rules: final margin for the player to move, scores included. */
function bruteValue(game: EndGame, s: EndGameState): number {
  const outcome = game.outcome(s);
  if (outcome) {
    const [a, b] = outcome.scores!;
    return s.turn === 'first' ? a - b : b - a;
  }
  return Math.max(...game.moves(s).map((m) => -bruteValue(game, game.play(s, m)))) + 0; // + 0 turns −0 into 0
}

/** Plays both sides with the solver's best move. */
function playOut(game: EndGame, s: EndGameState): { state: EndGameState; first: EndGameMove | null } {
  const solver = game.solver!()!;
  const first = solver.bestMove(s);
  while (game.outcome(s) === null) s = game.play(s, solver.bestMove(s)!);
  return { state: s, first };
}

describe('end-game parameters', () => {
  it('defaults to 10 numbers in -10..10', () => {
    const game = make();
    expect(game.id).toBe('end-game{length=10;values=-10..10}');
    expect(parseVariant(game.id).id).toBe(game.id);
  });

  it('an explicit row fixes the start and the length; the id names only the row', () => {
    const game = make({ row: '-1 3 9 4', length: 50 });
    expect(game.id).toBe('end-game{row=-1,3,9,4}');
    expect(game.params.length).toBe(4);
    expect(parseVariant(game.id).id).toBe(game.id);
    expect(parseVariant(game.id).params).toEqual(game.params);
    const s = game.deal(createRng(5));
    expect(s).toEqual({ row: [-1, 3, 9, 4], lo: 0, hi: 4, scores: [0, 0], turn: 'first' });
  });

  it('names the field in errors', () => {
    expect(() => make({ length: 0 })).toThrow(ParamError);
    expect(() => make({ length: 10_001 })).toThrow(/Expected `length` to be an integer in 1\.\.10000, got 10001/);
    expect(() => make({ values: '3..1' })).toThrow(/`values`/);
    expect(() => make({ row: '1,x' })).toThrow(/Expected `row` to be 1 to 10000 integers/);
  });
});

describe('end-game rules', () => {
  it('deals rows of the given length and value range, reproducibly', () => {
    const game = make({ length: 30, values: '-3..4' });
    const s = game.deal(createRng(9));
    expect(s.row).toHaveLength(30);
    for (const x of s.row) expect(x >= -3 && x <= 4).toBe(true);
    expect(game.deal(createRng(9))).toEqual(s);
  });

  it('takes from either end, scores the taker, shares the row and never mutates', () => {
    const game = make({ row: [-1, 3, 9, 4] });
    const s0 = game.deal(createRng(0));
    const s1 = game.play(s0, 'L');
    expect(s1).toMatchObject({ lo: 1, hi: 4, scores: [-1, 0], turn: 'second' });
    expect(s1.row).toBe(s0.row);
    const s2 = game.play(s1, 'R');
    expect(s2).toMatchObject({ lo: 1, hi: 3, scores: [-1, 4], turn: 'first' });
    expect(s0).toEqual({ row: [-1, 3, 9, 4], lo: 0, hi: 4, scores: [0, 0], turn: 'first' });
    expect(game.heuristic!(s1, 'R')).toBe(4);
    expect(game.size!(s2)).toBe(2);
    expect(game.toJSON(s2)).toEqual({ row: [3, 9], scores: [-1, 4] });
    expect(game.describe(s2)).toBe('row 3 9, scores -1–4, first to move');
  });

  it('reports the larger score as the winner, equal scores as a draw, with the scores', () => {
    const game = make({ row: [2, 2] });
    let s = game.deal(createRng(0));
    s = game.play(game.play(s, 'L'), 'R');
    expect(game.moves(s)).toEqual([]);
    expect(game.outcome(s)).toEqual({ winner: null, scores: [2, 2] });
    const g2 = make({ row: [1, 5, 1] });
    const end = g2.play(g2.play(g2.play(g2.deal(createRng(0)), 'L'), 'L'), 'L');
    expect(g2.outcome(end)).toEqual({ winner: 'second', scores: [2, 5] });
    const end2 = g2.play(g2.play(g2.play(g2.deal(createRng(0)), 'R'), 'R'), 'L');
    expect(g2.outcome(end2)).toEqual({ winner: 'second', scores: [2, 5] });
    const end3 = g2.play(g2.play(g2.play(g2.deal(createRng(0)), 'L'), 'R'), 'L');
    expect(g2.outcome(end3)).toEqual({ winner: 'first', scores: [6, 1] });
  });

  it('parses L and R (any case) and rejects anything else', () => {
    const game = make({ row: [1, 2] });
    const s = game.deal(createRng(0));
    expect(game.parseMove(' l ', s)).toBe('L');
    expect(game.parseMove('R', s)).toBe('R');
    expect(() => game.parseMove('left', s)).toThrow(MoveError);
    expect(() => game.parseMove('L', game.play(game.play(s, 'L'), 'L'))).toThrow(/game is over/);
  });

  it('gives states with equal remaining numbers, scores and turn equal keys', () => {
    const game = make({ row: [9, 1, 2, 9] });
    const s = game.deal(createRng(0));
    const lr = game.play(game.play(s, 'L'), 'R');
    expect(game.key(lr)).toBe(game.key(game.play(game.play(s, 'R'), 'L')));
    expect(game.key(lr)).toBe(game.key({ row: [1, 2], lo: 0, hi: 2, scores: [9, 9], turn: 'first' }));
    expect(game.key(lr)).not.toBe(game.key({ ...lr, turn: 'second' }));
    expect(game.key(lr)).not.toBe(game.key({ ...lr, scores: [9, 8] }));
    expect(game.key(game.play(s, 'L'))).not.toBe(game.key(game.play(s, 'R')));
  });
});

describe('end-game solver', () => {
  it('row −1 3 9 4: optimal play gives 8 to 7 (margin +1), first move L', () => {
    const game = make({ row: [-1, 3, 9, 4] });
    const s = game.deal(createRng(0));
    const solver = game.solver!()!;
    expect(solver.scored).toBe(true);
    expect(solver.value(s)).toBe(1);
    expect(solver.classify(s)).toBe('N');
    const { state, first } = playOut(game, s);
    expect(first).toBe('L');
    expect(game.outcome(state)).toEqual({ winner: 'first', scores: [8, 7] });
  });

  it('classifies by the sign of the margin, scores already made included', () => {
    const game = make({ row: [3, 3, 1] });
    const solver = game.solver!()!;
    const s = game.deal(createRng(0));
    expect(solver.value(s)).toBe(1); // 3 + 1 against 3
    const drawn = { ...s, scores: [0, 1] as const };
    expect(solver.classify(drawn)).toBe('D');
    expect(solver.classify({ ...s, scores: [0, 4] as const })).toBe('P');
    expect(solver.bestMove(game.play(game.play(game.play(s, 'L'), 'L'), 'L'))).toBeNull();
  });

  it('even lengths: the first player never loses under optimal play', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 10_000 }), (half, seed) => {
        const game = make({ length: 2 * half, values: '-9..9' });
        const s = game.deal(createRng(seed));
        expect(game.solver!()!.value(s)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });

  it('agrees with brute-force minimax on mid-game positions, and its best move keeps the value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -15, max: 15 }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.constantFrom<EndGameMove>('L', 'R'), { maxLength: 10 }),
        (row, prefix) => {
          const game = make({ row });
          let s = game.deal(createRng(0));
          for (const m of prefix) if (game.outcome(s) === null) s = game.play(s, m);
          // A clone crosses a worker boundary: the solver must still answer for it.
          if (prefix.length % 2 === 1) s = structuredClone(s);
          const solver = game.solver!()!;
          const value = bruteValue(game, s);
          expect(solver.value(s)).toBe(value);
          expect(solver.classify(s)).toBe(value > 0 ? 'N' : value < 0 ? 'P' : 'D');
          const best = solver.bestMove(s);
          if (game.outcome(s) !== null) expect(best).toBeNull();
          else {
            expect(0 - solver.value(game.play(s, best!))).toBe(value);
            // Ties prefer L.
            if (0 - bruteValue(game, game.play(s, 'L')) === value) expect(best).toBe('L');
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('plays a dealt 400-number game optimally to a result matching its value', () => {
    const game = make({ length: 400, values: '-50..50' });
    const s = game.deal(createRng(11));
    const value = game.solver!()!.value(s);
    const { state } = playOut(game, s);
    const [a, b] = game.outcome(state)!.scores!;
    expect(a - b).toBe(value);
  });
});
