import { TooLargeError } from '../core/errors.ts';
import { otherSeat, type Game, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, intSetSchema, rangeSchema, variantId, type Range } from '../core/params.ts';
import { noRepeatBestMove, noRepeatPPositions, noRepeatTable, noRepeatWins } from '../solvers/no-repeat.ts';
import { checkUpto, dealPile, parseTake } from './subtraction.ts';

/** Parameters of the no-repeat game: as `subtraction`. */
export type NoRepeatParams = {
  readonly moves: readonly number[];
  readonly n: Range;
};

/** A pile, the amount the opponent just took (which may not be taken now; null: none) and the seat to move. */
export interface NoRepeatState {
  readonly pile: number;
  readonly forbidden: number | null;
  readonly turn: Seat;
}

/** Largest pile the solver builds its table for (one byte per pile). */
export const MAX_NO_REPEAT_PILE = 1 << 25;

/** The solver of a no-repeat variant for piles up to `maxPile`. */
export function noRepeatSolver(moves: readonly number[], maxPile: number): Solver<NoRepeatState, number> {
  const table = noRepeatTable(moves, maxPile);
  const wins = (s: NoRepeatState): boolean => {
    if (s.pile > maxPile) throw new TooLargeError(`Pile ${s.pile} is beyond the solver's table (up to ${maxPile})`);
    return noRepeatWins(table, moves, s.pile, s.forbidden);
  };
  return {
    scored: false,
    value: (s) => (wins(s) ? 1 : -1),
    classify: (s) => (wins(s) ? 'N' : 'P'),
    bestMove(s) {
      if (s.pile > maxPile) throw new TooLargeError(`Pile ${s.pile} is beyond the solver's table (up to ${maxPile})`);
      return noRepeatBestMove(table, moves, s.pile, s.forbidden);
    },
  };
}

/** GAMES.md 2: one pile, a fixed subtraction set, and no take may repeat the opponent's last take. */
export const noRepeat = defineFamily<NoRepeatParams, NoRepeatState, number>({
  id: 'no-repeat',
  title: 'No-repeat subtraction',
  summary:
    'One pile; a move removes s stones with s in the set, but not the amount the opponent just took. Who cannot move loses.',
  notation: 'the number of stones taken, e.g. `3`',
  params: {
    moves: {
      schema: intSetSchema(64),
      description: 'the subtraction set S',
      expected: '1 to 64 distinct positive integers, e.g. 1,2,3,4,5',
      default: [1, 2, 3, 4, 5],
    },
    n: {
      schema: rangeSchema(0),
      description: 'the starting pile, or min..max to deal one per game',
      expected: 'a non-negative integer or a range min..max',
      default: { min: 50, max: 200 },
    },
  },
  create(params) {
    const { moves } = params;
    let solved: { solver: Solver<NoRepeatState, number> | undefined } | null = null;
    const legal = (s: NoRepeatState): number[] => moves.filter((m) => m <= s.pile && m !== s.forbidden);
    const game: Game<NoRepeatState, number> = {
      id: variantId('no-repeat', params),
      family: 'no-repeat',
      title: `No-repeat {${moves.join(',')}}`,
      params,
      deal: (rng) => ({ pile: dealPile(params.n, rng), forbidden: null, turn: 'first' }),
      toMove: (s) => s.turn,
      moves: legal,
      play: (s, m) => ({ pile: s.pile - m, forbidden: m, turn: otherSeat(s.turn) }),
      outcome: (s) => (legal(s).length === 0 ? { winner: otherSeat(s.turn) } : null),
      key: (s) => {
        const f = s.forbidden === null ? 0 : moves.indexOf(s.forbidden) + 1;
        const k = (s.pile * (moves.length + 1) + f) * 2 + (s.turn === 'first' ? 0 : 1);
        // Past 2^53 the arithmetic key could collide; a string stays exact.
        return Number.isSafeInteger(k) ? k : `${s.pile}:${f}:${s.turn}`;
      },
      formatMove: (m) => String(m),
      parseMove: (text, s) => parseTake(text, legal(s)),
      describe: (s) =>
        `pile ${s.pile}, ${s.forbidden === null ? 'nothing' : `taking ${s.forbidden}`} forbidden, ${s.turn} to move`,
      toJSON: (s) => ({ pile: s.pile, forbidden: s.forbidden }),
      solver: () => {
        // Built once per variant: bots ask for the solver every move, and the table is the costly part.
        if (solved === null) {
          solved = { solver: params.n.max <= MAX_NO_REPEAT_PILE ? noRepeatSolver(moves, params.n.max) : undefined };
        }
        return solved.solver;
      },
      tabulate(upto) {
        checkUpto(upto, MAX_NO_REPEAT_PILE);
        return { pPositions: noRepeatPPositions(noRepeatTable(moves, upto), upto) };
      },
      heuristic: (_s, m) => m,
      size: (s) => s.pile,
    };
    return game;
  },
});
