/**
 * Exact analysis of one-pile subtraction games (GAMES.md 1): the outcome table as a bitset filled in
 * one pass, the best move by seed 002's rule (largest winning take), and the O(1) rule for
 * consecutive sets.
 */

/** True when S = {a, a+1, …, b} (sorted input). */
export function isConsecutive(moves: readonly number[]): boolean {
  for (let i = 1; i < moves.length; i++) if (moves[i] !== moves[i - 1]! + 1) return false;
  return true;
}

/** Consecutive S = {a..b}: n is a P-position exactly when n mod (a+b) < a. O(1), no table. */
export function consecutiveIsP(n: number, a: number, b: number): boolean {
  return n % (a + b) < a;
}

/**
 * Win/lose table of a subtraction game for piles 0..upto: bit n is set when n is an N-position
 * (the player to move wins). One pass, one bit per pile.
 */
export function subtractionTable(moves: readonly number[], upto: number): Uint32Array {
  const bits = new Uint32Array((upto >>> 5) + 1);
  for (let n = 0; n <= upto; n++) {
    for (const s of moves) {
      if (s > n) break;
      const p = n - s;
      if ((bits[p >>> 5]! & (1 << (p & 31))) === 0) {
        bits[n >>> 5]! |= 1 << (n & 31);
        break;
      }
    }
  }
  return bits;
}

/** Reads bit n of a table from `subtractionTable`. */
export function isN(table: Uint32Array, n: number): boolean {
  return (table[n >>> 5]! & (1 << (n & 31))) !== 0;
}
