/**
 * The End Game's parity strategy (GAMES.md 6, seed 004: "Player 1 can turn it into a game of evens
 * versus odds"). With an even count of numbers left, the player to move can take every number in
 * one place class (1st, 3rd, … or 2nd, 4th, …): whichever end they take, both ends left to the
 * opponent belong to the other class. Choosing the class with the larger sum guarantees at least a
 * draw from there. Re-choosing at every turn never lowers that guarantee (what was taken plus the
 * larger class left is at least what the first class promised), so the rule needs no memory.
 */

/** A row of numbers with `row[lo..hi)` left (the End Game's state shape). */
export interface RowView {
  readonly row: readonly number[];
  readonly lo: number;
  readonly hi: number;
}

/** Sums of the numbers left in the 1st, 3rd, … places (`first`) and in the 2nd, 4th, … places (`second`). */
export function placeSums(s: RowView): { readonly first: number; readonly second: number } {
  let first = 0;
  let second = 0;
  for (let i = s.lo; i < s.hi; i++) {
    if ((i - s.lo) % 2 === 0) first += s.row[i]!;
    else second += s.row[i]!;
  }
  return { first, second };
}

/**
 * The parity move with an even count left: the end in the class with the larger sum (the left end
 * is 1st-placed, the right end 2nd-placed), ties to `L`. With an odd count (second player on an even
 * row, or first on an odd one) the stated fallback: the end that maximises the number taken minus
 * what the opponent's parity strategy then guarantees them, ties to `L`. Null on an empty row.
 */
export function parityMove(s: RowView): 'L' | 'R' | null {
  const left = s.hi - s.lo;
  if (left <= 0) return null;
  if (left % 2 === 0) {
    const { first, second } = placeSums(s);
    return first >= second ? 'L' : 'R';
  }
  const afterL = placeSums({ row: s.row, lo: s.lo + 1, hi: s.hi });
  const afterR = placeSums({ row: s.row, lo: s.lo, hi: s.hi - 1 });
  const l = s.row[s.lo]! - Math.abs(afterL.first - afterL.second);
  const r = s.row[s.hi - 1]! - Math.abs(afterR.first - afterR.second);
  return l >= r ? 'L' : 'R';
}
