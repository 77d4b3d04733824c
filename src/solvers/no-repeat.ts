/**
 * Exact analysis of the no-repeat subtraction game (GAMES.md 2): a take may not repeat the amount
 * the opponent just took. The table over (pile, forbidden amount) is filled in one pass and stored
 * as one byte per pile (see `noRepeatTable`).
 */

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
  const code = new Uint8Array(upto + 1);
  const count = moves.length;
  for (let n = 0; n <= upto; n++) {
    let wins = 0;
    let winner = 0;
    for (let i = 0; i < count; i++) {
      const s = moves[i]!;
      if (s > n) break;
      const c = code[n - s]!;
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

/** The best take: the largest winning take; when lost, the smallest legal take; null when none. */
export function noRepeatBestMove(
  table: Uint8Array,
  moves: readonly number[],
  pile: number,
  forbidden: number | null,
): number | null {
  let smallest: number | null = null;
  for (let i = moves.length - 1; i >= 0; i--) {
    const take = moves[i]!;
    if (take > pile || take === forbidden) continue;
    if (!noRepeatWins(table, moves, pile - take, take)) return take;
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
