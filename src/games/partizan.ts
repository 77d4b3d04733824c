import { setText } from './goals.ts';
import { TooLargeError } from '../core/errors.ts';
import { otherSeat, type Game, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, enumSchema, intSetSchema, variantId } from '../core/params.ts';
import {
  partizanBestMove,
  partizanClass,
  partizanClasses,
  partizanPeriod,
  partizanTable,
  partizanWins,
  type PartizanTable,
} from '../solvers/partizan.ts';
import { periodicIndex } from '../solvers/period.ts';
import { dealPile, pileRangeParam, pileJSON, pileKey, pileSize, subPile, type Pile, type PileRange } from './pile.ts';
import { checkUpto, MAX_TABLE_PILE, parseTake } from './subtraction.ts';

/** Which side moves first in the start position. */
export type Side = 'left' | 'right';

/** Parameters of the partizan subtraction game. */
export type PartizanParams = {
  readonly left: readonly number[];
  readonly right: readonly number[];
  readonly n: PileRange;
  readonly start: Side;
};

/**
 * A pile and the seat to move. The first seat always plays Left and the second Right, so Left is
 * to move exactly when `turn` is `first`; `start: right` deals positions with `second` to move.
 */
export interface PartizanState {
  /** A number up to 2^53 − 1, a bigint above (see `toPile`). */
  readonly pile: Pile;
  readonly turn: Seat;
}

/** The side a seat plays: the first seat is Left. */
export function sideOf(seat: Seat): Side {
  return seat === 'first' ? 'left' : 'right';
}

/** Piles up to which a plain table is cheaper than looking for the period first. */
const SMALL_TABLE_PILE = 1 << 20;

/**
 * The solver of a partizan variant for piles up to `maxPile`: tables to `maxPile` when that is
 * small, else the tables of the eventual period (found within MAX_TABLE_PILE piles), which answer
 * any pile up to 2^63 − 1 in O(1). Undefined when neither applies. Tables are built on first use.
 */
export function partizanSolver(
  left: readonly number[],
  right: readonly number[],
  maxPile: Pile,
): Solver<PartizanState, number> | undefined {
  let ready: () => { table: PartizanTable; at: (n: Pile) => number };
  const periodic = maxPile > SMALL_TABLE_PILE ? partizanPeriod(left, right, MAX_TABLE_PILE) : null;
  if (periodic) {
    const at = (n: Pile): number => periodicIndex(periodic, periodic.table.upto, n);
    ready = () => ({ table: periodic.table, at });
  } else {
    if (maxPile > MAX_TABLE_PILE) return undefined;
    const max = Number(maxPile);
    const at = (n: Pile): number => {
      if (typeof n !== 'number' || n > max) throw new TooLargeError(`Pile ${n} is beyond the solver's table (up to ${max})`);
      return n;
    };
    let built: { table: PartizanTable; at: (n: Pile) => number } | undefined;
    ready = () => (built ??= { table: partizanTable(left, right, max), at });
  }
  return {
    scored: false,
    value(s) {
      const { table, at } = ready();
      return partizanWins(table, at(s.pile), s.turn === 'first') ? 1 : -1;
    },
    classify(s) {
      const { table, at } = ready();
      return partizanClass(table, at(s.pile));
    },
    bestMove(s) {
      const { table, at } = ready();
      at(s.pile); // the range check of the position itself, before its options
      return partizanBestMove(table, left, right, s.pile, s.turn === 'first', at);
    },
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
    n: pileRangeParam(20, 100),
    start: {
      schema: enumSchema(['left', 'right']),
      description: 'which side moves first in the start position',
      expected: '`left` or `right`',
      default: 'left',
      choices: ['left', 'right'],
    },
  },
  analysis: {
    tabulate({ left, right }, upto) {
      checkUpto(upto, MAX_TABLE_PILE);
      return { classes: partizanClasses(partizanTable(left, right, upto), upto) };
    },
    period({ left, right }) {
      const p = partizanPeriod(left, right, MAX_TABLE_PILE);
      return p && { preperiod: p.preperiod, period: p.period };
    },
  },
  create(params) {
    const { left, right } = params;
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
      play: (s, m) => ({ pile: subPile(s.pile, m), turn: otherSeat(s.turn) }),
      outcome: (s) => (legal(s).length === 0 ? { winner: otherSeat(s.turn) } : null),
      key: (s) => pileKey(s.pile, 2, s.turn === 'first' ? 0 : 1),
      formatMove: (m) => String(m),
      parseMove: (text, s) => parseTake(text, legal(s)),
      describe: (s) => `pile ${s.pile}, ${sideOf(s.turn) === 'left' ? 'Left' : 'Right'} (${s.turn}) to move`,
      toJSON: (s) => ({ pile: pileJSON(s.pile), side: sideOf(s.turn) }),
      solver: () => partizanSolver(left, right, params.n.max),
      heuristic: (_s, m) => m,
      size: (s) => pileSize(s.pile),
      goal: {
        short: `Goal: take the last stone, leaving your opponent no move. Left takes ${setText(left)}, Right takes ${setText(right)}; who cannot move loses.`,
        full: [
          `The first seat plays Left and may take only ${setText(left)}; the second seat plays Right and may take only ${setText(right)}.`,
          `${params.start === 'left' ? 'Left' : 'Right'} moves first. Normal play: the player who cannot move on their turn loses.`,
          'Each pile has an outcome class: L (Left wins whoever moves first), R (Right wins whoever moves first), N (whoever moves next wins), P (whoever moves next loses).',
        ],
        ending: (s, names) =>
          `${names[s.turn]} (${s.turn === 'first' ? 'Left' : 'Right'}) cannot move (pile ${s.pile}, smaller than every take of ${setText(s.turn === 'first' ? left : right)}): who cannot move loses`,
      },
    };
    return game;
  },
});
