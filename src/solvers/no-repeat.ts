/**
 * Exact analysis of the no-repeat subtraction game (GAMES.md 2): a take may not repeat the amount
 * the opponent just took. The table over (pile, forbidden amount) is filled in one pass and stored
 * as one byte per pile (see `noRepeatTable`); its eventual period answers any pile up to 2^63 − 1.
 */
import { byteWindowPeriod, growUntilPeriodic, int32Takes, subPile, type Period, type Pile } from './period.ts';
import { zeroedBytes } from './small-tables.ts';

/** Row code: the player to move loses whatever amount is forbidden. */
export const LOST = 0;
/** Row code: the player to move wins whatever amount is forbidden. */
export const WON = 1;

/**
 * The win/lose table over (pile, forbidden amount) for piles 0..upto, nothing forbidden included.
 *
 * Why one byte per pile is the whole table: from pile n a take s wins when (n − s, s forbidden) is
 * lost. With c such winning takes, the row over all forbidden amounts is "lost" (c = 0), "won"
 * (c ≥ 2: forbidding one still leaves another) or "won unless the one winning take s_i is
 * forbidden" (c = 1). Byte n is LOST, WON, or i + 2 for that last case (S has at most 64 takes).
 */
export function noRepeatTable(moves: readonly number[], upto: number): Uint8Array {
  if (moves.length > 253) throw new RangeError(`Expected at most 253 takes, got ${moves.length}`);
  const code = zeroedBytes(upto + 1);
  const count = moves.length;
  // A typed copy keeps the inner loops on one monomorphic int array.
  const takes = int32Takes(moves);
  // Below max S some takes do not fit; from max S on all do, and the loops need no bounds test
  // (measured: about 1.6× faster than one loop with a `take > n` test on every take).
  const head = Math.min(upto, takes[count - 1]! - 1);
  for (let n = 0; n <= head; n++) {
    let wins = 0;
    let winner = 0;
    for (let i = 0; i < count; i++) {
      const p = n - takes[i]!;
      if (p < 0) break;
      const c = code[p]!;
      // (n − s, s forbidden) is lost when its row is LOST or "won unless s is forbidden".
      if (c === LOST || c === i + 2) {
        wins++;
        winner = i;
        if (wins === 2) break;
      }
    }
    code[n] = wins === 0 ? LOST : wins === 1 ? winner + 2 : WON;
  }
  fillNoRepeat(code, takes, count, head + 1, upto);
  return code;
}

/**
 * Piles from..upto (every take fits) of `noRepeatTable`. Its own function that starts with its
 * loop: V8 optimises a long first call on-stack before the code ahead of the loop has type
 * feedback, and the regular optimised code would then deoptimise on every later call.
 */
function fillNoRepeat(code: Uint8Array, takes: Int32Array, count: number, from: number, upto: number): void {
  for (let n = from; n <= upto; n = (n + 1) | 0) {
    let row = LOST;
    let i = 0;
    // The first winning take makes the row "won unless it is forbidden"; a second makes it WON.
    for (; i < count; i = (i + 1) | 0) {
      const c = code[(n - takes[i]!) | 0]!;
      if (c === LOST || c === i + 2) {
        row = i + 2;
        break;
      }
    }
    for (i = (i + 1) | 0; i < count; i = (i + 1) | 0) {
      const c = code[(n - takes[i]!) | 0]!;
      if (c === LOST || c === i + 2) {
        row = WON;
        break;
      }
    }
    code[n] = row;
  }
}

/** Whether the player to move wins at `pile` with `forbidden` (null: nothing) forbidden. */
export function noRepeatWins(
  table: Uint8Array,
  moves: readonly number[],
  pile: number,
  forbidden: number | null,
): boolean {
  const c = table[pile];
  if (c === undefined) throw new RangeError(`Pile ${pile} is beyond the table (up to ${table.length - 1})`);
  if (c === LOST) return false;
  if (c === WON) return true;
  return moves[c - 2] !== forbidden;
}

/**
 * The best take: the largest winning take; when lost, the smallest legal take; null when none.
 * `at` maps a pile to the table index holding its row (the identity for piles in the table; a
 * periodic reduction from `noRepeatPeriod` for larger ones).
 */
export function noRepeatBestMove(
  table: Uint8Array,
  moves: readonly number[],
  pile: Pile,
  forbidden: number | null,
  at: (n: Pile) => number = Number,
): number | null {
  let smallest: number | null = null;
  for (let i = moves.length - 1; i >= 0; i--) {
    const take = moves[i]!;
    if (take > pile || take === forbidden) continue;
    if (!noRepeatWins(table, moves, at(subPile(pile, take)), take)) return take;
    smallest = take;
  }
  // Lost: the smallest take keeps the most stones in play, leaving the opponent the most room to err.
  return smallest;
}

/** The start positions (nothing forbidden) in 0..upto that lose for the player to move. */
export function noRepeatPPositions(table: Uint8Array, upto: number): number[] {
  const out: number[] = [];
  for (let n = 0; n <= upto; n++) if (table[n] === LOST) out.push(n);
  return out;
}

/** The eventual period of a no-repeat game's rows, with the table that shows it. */
export interface NoRepeatPeriodicity extends Period {
  /** The rows (as `noRepeatTable`) of piles 0..upto, covering at least preperiod + period piles. */
  readonly table: Uint8Array;
  readonly upto: number;
}

/**
 * Pre-period and period of the rows of a no-repeat game, found in tables of at most `limit` piles
 * (null when that is not enough). The state window is the last max S rows: a row records the
 * outcome for every forbidden amount, so row n ≥ max S is a function of the window before it.
 */
export function noRepeatPeriod(moves: readonly number[], limit = 1 << 25): NoRepeatPeriodicity | null {
  const m = moves[moves.length - 1]!;
  const hit = growUntilPeriodic(
    (upto) => noRepeatTable(moves, upto),
    (table, upto) => byteWindowPeriod(table, upto - m + 1, m),
    limit,
    m,
  );
  return hit ? { preperiod: hit.found.preperiod, period: hit.found.period, table: hit.table, upto: hit.upto } : null;
}
