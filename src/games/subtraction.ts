import { lastMoveGoal, setText } from './goals.ts';
import { MoveError, ParamError, TooLargeError, show } from '../core/errors.ts';
import { otherSeat, type Game, type PeriodSummary, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, intSetSchema, variantId } from '../core/params.ts';
import { misereParam, misereTitle, noMoveWinner } from './misere.ts';
import { dealPile, pileRangeParam, pileJSON, pileKey, pileSize, subPile, type Pile, type PileRange } from './pile.ts';
import {
  consecutiveIsP,
  pPositionBatches,
  isConsecutive,
  isN,
  periodicIsN,
  pPositionsOf,
  subtractionPeriod,
  subtractionTable,
} from '../solvers/subtraction.ts';

/** Parameters of a one-pile subtraction game (a type alias, so it is a Record for `Game.params`). */
export type SubtractionParams = {
  readonly moves: readonly number[];
  readonly n: PileRange;
  /** GAMES.md 8: the player who makes the last move loses. */
  readonly misere?: true | undefined;
};

/** A pile and the seat to move. */
export interface PileState {
  /** A number up to 2^53 − 1, a bigint above (see `toPile`). */
  readonly pile: Pile;
  readonly turn: Seat;
}

/** Largest pile the table-based solver will build a table for (one bit per pile). */
export const MAX_TABLE_PILE = 100_000_000;

/** Parses a move given as the number taken and checks it against the legal takes. */
export function parseTake(text: string, legal: readonly number[]): number {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new MoveError(`Expected a move as the number of stones to take, e.g. \`5\`, got ${show(text)}`);
  const take = Number(t);
  if (!legal.includes(take)) {
    throw new MoveError(`Taking ${take} is not legal here; legal takes: ${legal.join(', ') || 'none'}`);
  }
  return take;
}

/** Piles up to which a plain table is cheaper than looking for the period first. */
const SMALL_TABLE_PILE = 1 << 20;

/**
 * Win test (true when the pile is an N-position) for piles up to `maxPile`, or null when no exact
 * answer is affordable. Consecutive sets use the O(1) rule; small ranges a table to `maxPile`;
 * larger ones the eventual period (found in at most MAX_TABLE_PILE piles), which answers any pile.
 */
export function subtractionWinTest(moves: readonly number[], maxPile: Pile): ((n: Pile) => boolean) | null {
  if (isConsecutive(moves)) {
    const a = moves[0]!;
    const b = moves[moves.length - 1]!;
    return (n) => !consecutiveIsP(n, a, b);
  }
  if (maxPile > SMALL_TABLE_PILE) {
    const period = subtractionPeriod(moves, MAX_TABLE_PILE);
    if (period) return (n) => periodicIsN(period, n);
    if (maxPile > MAX_TABLE_PILE) return null;
  }
  // Here maxPile ≤ MAX_TABLE_PILE, so it is a number and so is every pile within it.
  const max = Number(maxPile);
  const table = subtractionTable(moves, max);
  return (n) => {
    if (typeof n !== 'number' || n > max) throw new TooLargeError(`Pile ${n} is beyond the solver's table (up to ${max})`);
    return isN(table, n);
  };
}

/** Best move by GAMES.md 1's tie-break: the largest winning take; when lost, the smallest legal take. */
export function bestTake(moves: readonly number[], pile: Pile, isWin: (n: Pile) => boolean): number | null {
  let smallest: number | null = null;
  for (let i = moves.length - 1; i >= 0; i--) {
    const take = moves[i]!;
    if (take > pile) continue;
    if (!isWin(subPile(pile, take))) return take;
    smallest = take;
  }
  // Lost: the smallest take keeps the most stones in play, leaving the opponent the most room to err.
  return smallest;
}

/**
 * The win test under misère play (GAMES.md 8), from the normal-play one. With a = min S, piles
 * below a have no move, so the mover wins them; and n ≥ a is won exactly when normal play wins
 * n − a: the misère sequence is the normal one shifted up by a, since piles a..2a−1 lose in both
 * (every take leads below a) and both obey the same recursion above. Null when the normal test is.
 */
export function misereWinTest(moves: readonly number[], maxPile: Pile): ((n: Pile) => boolean) | null {
  const a = moves[0]!;
  if (maxPile < a) return () => true;
  const normal = subtractionWinTest(moves, subPile(maxPile, a));
  return normal && ((n) => n < a || normal(subPile(n, a)));
}

/** The solver of a subtraction set for piles up to `maxPile` (any pile once the period is known), normal or misère play. */
export function subtractionSolver(moves: readonly number[], maxPile: Pile, misere = false): Solver<PileState, number> | undefined {
  const isWin = misere ? misereWinTest(moves, maxPile) : subtractionWinTest(moves, maxPile);
  if (!isWin) return undefined;
  return {
    scored: false,
    value: (s) => (isWin(s.pile) ? 1 : -1),
    classify: (s) => (isWin(s.pile) ? 'N' : 'P'),
    bestMove: (s) => bestTake(moves, s.pile, isWin),
  };
}

/**
 * The misère pre-period and period from the normal-play ones: the misère sequence is the normal
 * one shifted up by a = min S after a leading run of wins, so the period is the same and the
 * pre-period at most the normal one plus a, less where the leading wins already fit the period.
 */
function miserePeriod(moves: readonly number[], normal: PeriodSummary): PeriodSummary {
  const a = moves[0]!;
  const { period } = normal;
  const isP = (n: number): boolean => {
    if (n < a) return false;
    const m = n - a;
    if (isConsecutive(moves)) return consecutiveIsP(m, a, moves[moves.length - 1]!);
    const k = m < normal.preperiod + period ? m : normal.preperiod + ((m - normal.preperiod) % period);
    return normalP[k]!;
  };
  // The normal P-positions of one pre-period and period, enough to answer any pile.
  const normalP = isConsecutive(moves) ? [] : pPositionFlags(moves, normal.preperiod + period);
  let q = normal.preperiod + a;
  while (q > 0 && isP(q - 1) === isP(q - 1 + period)) q--;
  return { preperiod: q, period };
}

/** P-position flags of piles 0..upto−1 from a normal-play table. */
function pPositionFlags(moves: readonly number[], upto: number): boolean[] {
  const table = subtractionTable(moves, upto);
  return Array.from({ length: upto }, (_, n) => !isN(table, n));
}

/** Normal-play P-positions of piles 0..upto (consecutive sets by their rule, others from the table). */
function normalPPositions(moves: readonly number[], upto: number): number[] {
  if (isConsecutive(moves)) {
    const a = moves[0]!;
    const b = moves[moves.length - 1]!;
    const pPositions: number[] = [];
    for (let n = 0; n <= upto; n++) if (consecutiveIsP(n, a, b)) pPositions.push(n);
    return pPositions;
  }
  return pPositionsOf(subtractionTable(moves, upto), upto);
}

/** Checks the `upto` of a `tabulate` call: an integer from 0 to `max`. */
export function checkUpto(upto: number, max: number): void {
  if (!Number.isSafeInteger(upto) || upto < 0) {
    throw new ParamError(`Expected \`upto\` to be a non-negative integer, got ${show(upto)}`);
  }
  if (upto > max) throw new TooLargeError(`Expected \`upto\` to be at most ${max}, got ${upto}`);
}

/** GAMES.md 1: one pile, a fixed subtraction set, normal play. */
export const subtraction = defineFamily<SubtractionParams, PileState, number>({
  id: 'subtraction',
  title: 'Subtraction game',
  summary: 'One pile; a move removes s stones with s in the subtraction set. Who cannot move loses.',
  notation: 'the number of stones taken, e.g. `5`',
  params: {
    moves: {
      schema: intSetSchema(64),
      description: 'the subtraction set S',
      expected: '1 to 64 distinct positive integers, e.g. 1,5,8,10',
      default: [1, 5, 8, 10],
    },
    n: pileRangeParam(50, 200),
    misere: misereParam,
  },
  analysis: {
    tabulate({ moves, misere }, upto) {
      checkUpto(upto, MAX_TABLE_PILE);
      // Misère P-positions are the normal ones shifted up by min S (see `misereWinTest`).
      const a = misere ? moves[0]! : 0;
      return { pPositions: upto < a ? [] : normalPPositions(moves, upto - a).map((n) => n + a) };
    },
    *pPositionBatches({ moves, misere }, upto) {
      checkUpto(upto, MAX_TABLE_PILE);
      const a = misere ? moves[0]! : 0;
      if (upto < a) return;
      for (const batch of pPositionBatches(moves, upto - a)) yield a === 0 ? batch : batch.map((n) => n + a);
    },
    period({ moves, misere }) {
      // Consecutive sets need no table: P exactly when n mod (a+b) < a, from pile 0 on.
      const p: PeriodSummary | null = isConsecutive(moves)
        ? { preperiod: 0, period: moves[0]! + moves[moves.length - 1]! }
        : subtractionPeriod(moves, MAX_TABLE_PILE);
      if (!p) return null;
      return misere ? miserePeriod(moves, p) : { preperiod: p.preperiod, period: p.period };
    },
  },
  create(params) {
    const { moves } = params;
    const misere = params.misere === true;
    // The legal takes at a pile are the takes up to it: a prefix of the sorted set. The prefixes are
    // built once per variant and frozen (moves lists are read-only, see `Game.moves`), so asking for
    // the moves allocates nothing, and every pile at least the largest take shares one list.
    const prefixes: readonly (readonly number[])[] = Array.from({ length: moves.length + 1 }, (_, k) => Object.freeze(moves.slice(0, k)));
    const maxTake = moves[moves.length - 1]!;
    const all = prefixes[moves.length]!;
    const legalAt = (pile: Pile): readonly number[] => {
      if (pile >= maxTake) return all; // bigint piles (above 2^53) always land here
      let k = 0;
      while (k < moves.length && moves[k]! <= pile) k++;
      return prefixes[k]!;
    };
    const game: Game<PileState, number> = {
      id: variantId('subtraction', params),
      family: 'subtraction',
      title: `Subtraction {${moves.join(',')}}${misereTitle(misere)}`,
      params,
      deal: (rng) => ({ pile: dealPile(params.n, rng), turn: 'first' }),
      toMove: (s) => s.turn,
      moves: (s) => legalAt(s.pile),
      play: (s, m) => ({ pile: subPile(s.pile, m), turn: otherSeat(s.turn) }),
      outcome: (s) => (s.pile < moves[0]! ? { winner: noMoveWinner(s.turn, misere) } : null),
      key: (s) => pileKey(s.pile, 2, s.turn === 'first' ? 0 : 1),
      formatMove: (m) => String(m),
      parseMove: (text, s) => parseTake(text, game.moves(s)),
      describe: (s) => `pile ${s.pile}, ${s.turn} to move`,
      toJSON: (s) => ({ pile: pileJSON(s.pile) }),
      solver: () => subtractionSolver(moves, params.n.max, misere),
      heuristic: (_s, m) => m,
      size: (s) => pileSize(s.pile),
      goal: lastMoveGoal<PileState>({
        misere,
        moves: `A move takes s stones from the pile, with s in ${setText(moves)}.`,
        stone: 'stone',
        toMove: (s) => s.turn,
        why: (s) => ` (pile ${s.pile}, smaller than every take)`,
      }),
    };
    return game;
  },
});
