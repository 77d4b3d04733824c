/**
 * Exact analysis of the no-repeat subtraction game (GAMES.md 2): a take may not repeat the amount
 * the opponent just took. The table over (pile, forbidden amount) is filled in one pass and stored
 * as one byte per pile (see `noRepeatTable`); its eventual period answers any pile up to 2^63 − 1.
 */
import { byteWindowPeriod, firstTableUpto, subPile, type Period, type Pile } from './period.ts';
import { zeroedBytes } from './small-tables.ts';

/** Row code: the player to move loses whatever amount is forbidden. */
export const LOST = 0;
/** Row code: the player to move wins whatever amount is forbidden. */
export const WON = 1;
/**
 * Row codes ONLY_IF + i (misère tables only): the player to move wins exactly when take s_i is
 * forbidden. Under misère, a pile where s_i is the only take that fits is won when s_i is forbidden
 * (no move: the opponent made the last one) and, when s_i is allowed, only if taking it wins.
 */
export const ONLY_IF = 128;

/**
 * The win/lose table over (pile, forbidden amount) for piles 0..upto, nothing forbidden included.
 *
 * Why one byte per pile is the whole table: from pile n a take s wins when (n − s, s forbidden) is
 * lost. With c such winning takes, the row over all forbidden amounts is "lost" (c = 0), "won"
 * (c ≥ 2: forbidding one still leaves another) or "won unless the one winning take s_i is
 * forbidden" (c = 1). Byte n is LOST, WON, or i + 2 for that last case (S has at most 64 takes).
 */
export function noRepeatTable(moves: readonly number[], upto: number): Uint8Array {
  if (moves.length > MAX_TAKES) throw new RangeError(`Expected at most ${MAX_TAKES} takes, got ${moves.length}`);
  const code = zeroedBytes(upto + 1);
  const count = moves.length;
  if (moves[count - 1]! <= RING_MAX_TAKE) {
    fillThroughRing(moves, upto, code);
    return code;
  }
  // A take too large for the ring: pile by pile, reading back with a bounds test on every take.
  for (let n = 0; n <= upto; n++) {
    let wins = 0;
    let winner = 0;
    for (let i = 0; i < count; i++) {
      const p = n - moves[i]!;
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
  return code;
}

/**
 * Rows 0..upto of `noRepeatTable` (every take at most RING_MAX_TAKE) through the ring, each
 * stretch copied into `code`; with `code` null (upto < RING_HALF), the rows are left in
 * `ring.RING[0..upto]` for the caller to read.
 */
function fillThroughRing(moves: readonly number[], upto: number, code: Uint8Array | null): void {
  const { RING, WINS, RING_TAKES, fillRing } = ring;
  const count = moves.length;
  for (let i = 0; i < count; i++) RING_TAKES[i] = moves[i]!;
  // Each stretch within one half of the ring is filled and copied out.
  for (let from = 0; from <= upto; ) {
    const end = Math.min(upto + 1, (from | (RING_HALF - 1)) + 1);
    fillRing(count, from, end);
    if (code !== null) code.set(RING.subarray(from & (RING_SIZE - 1), ((end - 1) & (RING_SIZE - 1)) + 1), from);
    from = end;
  }
  // The counts pushed past the table: cleared, so that WINS is all zero between calls.
  for (let n = upto + 1, last = upto + moves[count - 1]!; n <= last; n++) WINS[n & (RING_SIZE - 1)] = 0;
}

/** At most this many takes: byte codes i + 2 stay below 256, and `RING_TAKES` has room for them. */
const MAX_TAKES = 253;

/** Piles in the ring of `ringKernel` (2^16); a ring index is a pile masked with 0xffff. */
const RING_SIZE = 1 << 16;
/** Piles per stretch of `fillRing` (half the ring), each copied out of the ring in one piece. */
const RING_HALF = RING_SIZE / 2;
/**
 * Largest take the ring serves: a pile n hands its winning takes to piles up to max S ahead, whose
 * slots must not be those of piles still waiting; n + 2^16 takes n's own slot, already read.
 * Larger takes are filled by the loop with bounds tests.
 */
const RING_MAX_TAKE = RING_SIZE;

/**
 * The rows of the current stretch (pile n at RING[n & 0xffff]), the winning takes found so far
 * for the piles ahead (WINS: how many; WINNER: the last one's index) and the takes of the current
 * `noRepeatTable`. Constant arrays on purpose: V8 runs the loop over them much faster than over
 * parameter arrays, whose map check and field loads it repeats on every access (docs/ANALYSIS.md, "Kernel measurements"). Built by a
 * factory, not declared at the top level: a bundler (esbuild, which builds the worker scripts)
 * turns top-level `const`s into `var`s, and V8 gives this speed only to `const` bindings.
 */
function ringKernel() {
  const RING = new Uint8Array(RING_SIZE);
  const WINS = new Uint8Array(RING_SIZE);
  const WINNER = new Uint8Array(RING_SIZE);
  const RING_TAKES = new Int32Array(256);

  /** Pile n hands take i (of `take` stones) to pile n + take as one more winning take. */
  function push(n: number, take: number, i: number): void {
    const t = (n + take) & 0xffff;
    WINS[t] = WINS[t]! + 1;
    WINNER[t] = i;
  }

  /**
   * Rows from..end−1 (within one half of the ring) of `noRepeatTable`, pushing forward: when pile
   * n is decided, it hands its winning moves to the piles it leads to. A lost pile n makes take s
   * a winning take of pile n + s for every s; a pile won only by s_i ("won unless s_i is
   * forbidden") makes s_i a winning take of n + s_i; a pile won regardless makes none. So pile n
   * finds its own count (0, 1, or more: LOST, i + 2, WON) ready in WINS, and its slot is cleared
   * for the pile 2^16 later. Pushing reads fewer piles than pulling (reading n − s for every take
   * until two win) and runs about twice as fast.
   *
   * How it is written: a lost pile of a set of at most 12 takes pushes them from locals by
   * straight-line code (a switch on the count that falls through), where a loop paid a
   * bounds-checked take load, a stack check and the loop test on every push; the codes are
   * literals, not the module's LOST and WON, which optimised ES-module code reloads and converts
   * on every use; and the count and bounds are made int32 (`| 0`) before the loop, without which
   * V8 kept the pile counter tagged and dispatched the switch on a tagged value (docs/ANALYSIS.md, "Kernel measurements"). Its own
   * function that starts with its loop: V8 optimises a long first call on-stack before the code
   * ahead of the loop has type feedback, and the regular optimised code would then deoptimise on
   * every later call.
   */
  function fillRing(count: number, from: number, end: number): void {
    const ring = RING;
    const wins = WINS;
    const winner = WINNER;
    const takes = RING_TAKES;
    const t0 = takes[0]!, t1 = takes[1]!, t2 = takes[2]!, t3 = takes[3]!;
    const t4 = takes[4]!, t5 = takes[5]!, t6 = takes[6]!, t7 = takes[7]!;
    const t8 = takes[8]!, t9 = takes[9]!, t10 = takes[10]!, t11 = takes[11]!;
    const k = count | 0;
    const stop = end | 0;
    for (let n = from | 0; n < stop; n = (n + 1) | 0) {
      const slot = n & 0xffff;
      const c = wins[slot]!;
      wins[slot] = 0;
      if (c === 0) {
        ring[slot] = 0; // LOST
        switch (k) {
          case 12: push(n, t11, 11); // falls through
          case 11: push(n, t10, 10); // falls through
          case 10: push(n, t9, 9); // falls through
          case 9: push(n, t8, 8); // falls through
          case 8: push(n, t7, 7); // falls through
          case 7: push(n, t6, 6); // falls through
          case 6: push(n, t5, 5); // falls through
          case 5: push(n, t4, 4); // falls through
          case 4: push(n, t3, 3); // falls through
          case 3: push(n, t2, 2); // falls through
          case 2: push(n, t1, 1); // falls through
          case 1: push(n, t0, 0); break;
          default: for (let i = 0; i < k; i = (i + 1) | 0) push(n, takes[i & 255]!, i); // over PUSH_SLOTS
        }
      } else if (c === 1) {
        const i = winner[slot]!;
        ring[slot] = i + 2;
        push(n, takes[i & 255]!, i);
      } else ring[slot] = 1; // WON
    }
  }

  return { RING, WINS, RING_TAKES, fillRing };
}

const ring = ringKernel();

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
  if (c >= ONLY_IF) return moves[c - ONLY_IF] === forbidden;
  return moves[c - 2] !== forbidden;
}

/**
 * The rows of the misère no-repeat game (GAMES.md 8: who cannot move wins) for piles 0..upto, in
 * the codes of `noRepeatTable` plus ONLY_IF + i. Row n from the fitting takes s_i ≤ n and the
 * winning ones (those whose child (n − s_i, s_i forbidden) is lost): none fit → WON; one fits →
 * WON when it wins, else won only if it is forbidden; several fit → by the count of winning takes,
 * as in normal play. A plain scalar pass: misère tables are not on any hot path.
 */
export function noRepeatMisereTable(moves: readonly number[], upto: number): Uint8Array {
  if (moves.length > ONLY_IF - 2) throw new RangeError(`Expected at most ${ONLY_IF - 2} takes, got ${moves.length}`);
  const code = zeroedBytes(upto + 1);
  const count = moves.length;
  for (let n = 0; n <= upto; n++) {
    let fit = 0;
    let wins = 0;
    let winner = 0;
    for (let i = 0; i < count; i++) {
      const p = n - moves[i]!;
      if (p < 0) break;
      fit++;
      if (!noRepeatWins(code, moves, p, moves[i]!)) {
        wins++;
        winner = i;
      }
    }
    if (fit === 0) code[n] = WON;
    else if (fit === 1) code[n] = wins === 1 ? WON : ONLY_IF;
    else code[n] = wins === 0 ? LOST : wins === 1 ? winner + 2 : WON;
  }
  return code;
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
 *
 * `misere`: the rows of `noRepeatMisereTable` instead.
 *
 * A table shorter than half the ring (every seed set's first table) is searched in the ring
 * itself, and only the rows of the pre-period and one period are kept (all any pile needs):
 * measured over the seed sets' detections, 4% faster than copying the whole table out first.
 */
export function noRepeatPeriod(moves: readonly number[], limit = 1 << 25, misere = false): NoRepeatPeriodicity | null {
  const m = moves[moves.length - 1]!;
  if (misere) {
    for (let upto = Math.min(firstTableUpto(m), limit); ; upto = Math.min(upto * 2, limit)) {
      const table = noRepeatMisereTable(moves, upto);
      const found = byteWindowPeriod(table, upto - m + 1, m);
      if (found) return { preperiod: found.preperiod, period: found.period, table, upto };
      if (upto >= limit) return null;
    }
  }
  // The growing-table loop is written out in each period finder on purpose: one shared driver taking
  // a closure measured 5% slower over the seed detections (docs/ANALYSIS.md, "Kernel measurements").
  for (let upto = Math.min(firstTableUpto(m), limit); ; upto = Math.min(upto * 2, limit)) {
    if (upto < RING_HALF && moves.length <= MAX_TAKES) {
      fillThroughRing(moves, upto, null);
      const found = byteWindowPeriod(ring.RING, upto - m + 1, m);
      if (found) {
        const size = found.preperiod + found.period;
        const table = zeroedBytes(size);
        const rows = ring.RING;
        for (let i = 0; i < size; i++) table[i] = rows[i]!;
        return { preperiod: found.preperiod, period: found.period, table, upto: size - 1 };
      }
    } else {
      const table = noRepeatTable(moves, upto);
      const found = byteWindowPeriod(table, upto - m + 1, m);
      if (found) return { preperiod: found.preperiod, period: found.period, table, upto };
    }
    if (upto >= limit) return null;
  }
}
