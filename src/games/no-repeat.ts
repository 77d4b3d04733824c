import { lastMoveGoal, setText } from './goals.ts';
import { TooLargeError } from '../core/errors.ts';
import { otherSeat, type Game, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, intSetSchema, variantId } from '../core/params.ts';
import {
  noRepeatBestMove,
  noRepeatMisereTable,
  noRepeatPeriod,
  noRepeatPPositions,
  noRepeatTable,
  noRepeatWins,
} from '../solvers/no-repeat.ts';
import { periodicIndex } from '../solvers/period.ts';
import { dealPile, pileRangeParam, pileJSON, pileKey, pileSize, subPile, type Pile } from './pile.ts';
import { misereParam, misereTitle, noMoveWinner } from './misere.ts';
import { checkUpto, parseTake, type SubtractionParams } from './subtraction.ts';

/** Parameters of the no-repeat game: as `subtraction`. */
export type NoRepeatParams = SubtractionParams;

/** A pile, the amount the opponent just took (which may not be taken now; null: none) and the seat to move. */
export interface NoRepeatState {
  /** A number up to 2^53 − 1, a bigint above (see `toPile`). */
  readonly pile: Pile;
  readonly forbidden: number | null;
  readonly turn: Seat;
}

/** Largest pile the solver builds its table for (one byte per pile). */
export const MAX_NO_REPEAT_PILE = 1 << 25;

/** Piles up to which a plain table is cheaper than looking for the period first. */
const SMALL_TABLE_PILE = 1 << 20;

/**
 * The solver of a no-repeat variant for piles up to `maxPile`: a table to `maxPile` when that is
 * small, else the table of the eventual period (found within MAX_NO_REPEAT_PILE piles), which
 * answers any pile up to 2^63 − 1 in O(1). Undefined when neither applies. `misere`: who cannot
 * move wins (the rows of `noRepeatMisereTable`).
 */
export function noRepeatSolver(moves: readonly number[], maxPile: Pile, misere = false): Solver<NoRepeatState, number> | undefined {
  let table: Uint8Array;
  let at: (n: Pile) => number;
  const periodic = maxPile > SMALL_TABLE_PILE ? noRepeatPeriod(moves, MAX_NO_REPEAT_PILE, misere) : null;
  if (periodic) {
    table = periodic.table;
    at = (n) => periodicIndex(periodic, periodic.upto, n);
  } else {
    if (maxPile > MAX_NO_REPEAT_PILE) return undefined;
    const max = Number(maxPile);
    table = misere ? noRepeatMisereTable(moves, max) : noRepeatTable(moves, max);
    at = (n) => {
      if (typeof n !== 'number' || n > max) throw new TooLargeError(`Pile ${n} is beyond the solver's table (up to ${max})`);
      return n;
    };
  }
  const wins = (s: NoRepeatState): boolean => noRepeatWins(table, moves, at(s.pile), s.forbidden);
  return {
    scored: false,
    value: (s) => (wins(s) ? 1 : -1),
    classify: (s) => (wins(s) ? 'N' : 'P'),
    bestMove(s) {
      at(s.pile); // the range check of the position itself, before its options
      return noRepeatBestMove(table, moves, s.pile, s.forbidden, at);
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
    n: pileRangeParam(50, 200),
    misere: misereParam,
  },
  analysis: {
    tabulate({ moves, misere }, upto) {
      checkUpto(upto, MAX_NO_REPEAT_PILE);
      return { pPositions: noRepeatPPositions(misere ? noRepeatMisereTable(moves, upto) : noRepeatTable(moves, upto), upto) };
    },
    period({ moves, misere }) {
      const p = noRepeatPeriod(moves, MAX_NO_REPEAT_PILE, misere === true);
      return p && { preperiod: p.preperiod, period: p.period };
    },
  },
  create(params) {
    const { moves } = params;
    const misere = params.misere === true;
    const legal = (s: NoRepeatState): number[] => moves.filter((m) => m <= s.pile && m !== s.forbidden);
    const game: Game<NoRepeatState, number> = {
      id: variantId('no-repeat', params),
      family: 'no-repeat',
      title: `No-repeat {${moves.join(',')}}${misereTitle(misere)}`,
      params,
      deal: (rng) => ({ pile: dealPile(params.n, rng), forbidden: null, turn: 'first' }),
      toMove: (s) => s.turn,
      moves: legal,
      play: (s, m) => ({ pile: subPile(s.pile, m), forbidden: m, turn: otherSeat(s.turn) }),
      outcome: (s) => (legal(s).length === 0 ? { winner: noMoveWinner(s.turn, misere) } : null),
      key: (s) => {
        const f = s.forbidden === null ? 0 : moves.indexOf(s.forbidden) + 1;
        return pileKey(s.pile, 2 * (moves.length + 1), f * 2 + (s.turn === 'first' ? 0 : 1));
      },
      formatMove: (m) => String(m),
      parseMove: (text, s) => parseTake(text, legal(s)),
      describe: (s) =>
        `pile ${s.pile}, ${s.forbidden === null ? 'nothing' : `taking ${s.forbidden}`} forbidden, ${s.turn} to move`,
      toJSON: (s) => ({ pile: pileJSON(s.pile), forbidden: s.forbidden }),
      solver: () => noRepeatSolver(moves, params.n.max, misere),
      heuristic: (_s, m) => m,
      size: (s) => pileSize(s.pile),
      goal: lastMoveGoal<NoRepeatState>({
        misere,
        moves: `A move takes s stones with s in ${setText(moves)}, but never the amount the opponent just took (the first move is free).`,
        stone: 'stone',
        toMove: (s) => s.turn,
        why: (s) => ` (pile ${s.pile}${s.forbidden === null ? '' : `; may not take ${s.forbidden}, the amount just taken`})`,
      }),
    };
    return game;
  },
});
