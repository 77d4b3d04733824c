import { TooLargeError } from '../core/errors.ts';
import { otherSeat, type Game, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, enumSchema, intSetSchema, rangeSchema, variantId, type Range } from '../core/params.ts';
import {
  partizanBestMove,
  partizanClass,
  partizanClasses,
  partizanTable,
  partizanWins,
  type PartizanTable,
} from '../solvers/partizan.ts';
import { checkUpto, dealPile, MAX_TABLE_PILE, parseTake } from './subtraction.ts';

/** Which side moves first in the start position. */
export type Side = 'left' | 'right';

/** Parameters of the partizan subtraction game. */
export type PartizanParams = {
  readonly left: readonly number[];
  readonly right: readonly number[];
  readonly n: Range;
  readonly start: Side;
};

/**
 * A pile and the seat to move. The first seat always plays Left and the second Right, so Left is
 * to move exactly when `turn` is `first`; `start: right` deals positions with `second` to move.
 */
export interface PartizanState {
  readonly pile: number;
  readonly turn: Seat;
}

/** The side a seat plays: the first seat is Left. */
export function sideOf(seat: Seat): Side {
  return seat === 'first' ? 'left' : 'right';
}

/** The solver of a partizan variant for piles up to `maxPile`. */
export function partizanSolver(
  left: readonly number[],
  right: readonly number[],
  maxPile: number,
): Solver<PartizanState, number> {
  let table: PartizanTable | undefined;
  const ready = (pile: number): PartizanTable => {
    if (pile > maxPile) throw new TooLargeError(`Pile ${pile} is beyond the solver's table (up to ${maxPile})`);
    table ??= partizanTable(left, right, maxPile);
    return table;
  };
  return {
    scored: false,
    value: (s) => (partizanWins(ready(s.pile), s.pile, s.turn === 'first') ? 1 : -1),
    classify: (s) => partizanClass(ready(s.pile), s.pile),
    bestMove: (s) => partizanBestMove(ready(s.pile), left, right, s.pile, s.turn === 'first'),
  };
}

/** GAMES.md 3: one pile; Left (the first seat) and Right (the second) have different subtraction sets. */
export const partizan = defineFamily<PartizanParams, PartizanState, number>({
  id: 'partizan',
  title: 'Partizan subtraction',
  summary:
    'One pile; Left (first seat) removes an amount from its set, Right (second seat) from its own. Who cannot move loses.',
  notation: 'the number of stones taken, e.g. `5`',
  params: {
    left: {
      schema: intSetSchema(64),
      description: "Left's subtraction set (the first seat plays Left)",
      expected: '1 to 64 distinct positive integers, e.g. 2,5,9',
      default: [2, 5, 9],
    },
    right: {
      schema: intSetSchema(64),
      description: "Right's subtraction set (the second seat plays Right)",
      expected: '1 to 64 distinct positive integers, e.g. 3,4,8',
      default: [3, 4, 8],
    },
    n: {
      schema: rangeSchema(0),
      description: 'the starting pile, or min..max to deal one per game',
      expected: 'a non-negative integer or a range min..max',
      default: { min: 20, max: 100 },
    },
    start: {
      schema: enumSchema(['left', 'right']),
      description: 'which side moves first in the start position',
      expected: '`left` or `right`',
      default: 'left',
      choices: ['left', 'right'],
    },
  },
  create(params) {
    const { left, right } = params;
    let solved: { solver: Solver<PartizanState, number> | undefined } | null = null;
    const legal = (s: PartizanState): number[] => {
      const mine = s.turn === 'first' ? left : right;
      return mine.filter((m) => m <= s.pile);
    };
    const game: Game<PartizanState, number> = {
      id: variantId('partizan', params),
      family: 'partizan',
      title: `Partizan L{${left.join(',')}} R{${right.join(',')}}`,
      params,
      deal: (rng) => ({ pile: dealPile(params.n, rng), turn: params.start === 'left' ? 'first' : 'second' }),
      toMove: (s) => s.turn,
      moves: legal,
      play: (s, m) => ({ pile: s.pile - m, turn: otherSeat(s.turn) }),
      outcome: (s) => (legal(s).length === 0 ? { winner: otherSeat(s.turn) } : null),
      key: (s) => s.pile * 2 + (s.turn === 'first' ? 0 : 1),
      formatMove: (m) => String(m),
      parseMove: (text, s) => parseTake(text, legal(s)),
      describe: (s) => `pile ${s.pile}, ${sideOf(s.turn) === 'left' ? 'Left' : 'Right'} (${s.turn}) to move`,
      toJSON: (s) => ({ pile: s.pile, side: sideOf(s.turn) }),
      solver: () => {
        // Built once per variant: bots ask for the solver every move, and the table is the costly part.
        if (solved === null) {
          solved = { solver: params.n.max <= MAX_TABLE_PILE ? partizanSolver(left, right, params.n.max) : undefined };
        }
        return solved.solver;
      },
      tabulate(upto) {
        checkUpto(upto, MAX_TABLE_PILE);
        return { classes: partizanClasses(partizanTable(left, right, upto), upto) };
      },
      heuristic: (_s, m) => m,
      size: (s) => s.pile,
    };
    return game;
  },
});
