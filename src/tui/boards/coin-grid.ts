/**
 * The coin board's grid as both its drawing and play's cursor read it: which coin sits in which
 * row, and what the board draws for the cursor. Kept apart from the drawing so that the cursor's
 * movement (src/tui/play) and the picture (CoinsBoard) share one grid without importing each other.
 */

/** What the coin board draws for play's cursor: the cell under it, the marked coin and the previewed take. */
export interface CoinCursor {
  /** Coin number (1-based) of the cell under the cursor; gaps can be visited too. */
  readonly at: number;
  /** The coin marked as the first of a line, or null. */
  readonly mark: number | null;
  /** Whether the previewed take (mark, or the cursor alone, to the cursor) is legal. */
  readonly legal: boolean;
  /** The coins a legal previewed take removes (empty when it is not legal). */
  readonly line: readonly number[];
}

/** Coin numbers (1-based) of each row of the board, in reading order. */
export function coinRows(shape: 'triangle' | 'square', size: number): number[][] {
  const rows: number[][] = [];
  let next = 1;
  for (let r = 0; r < size; r++) {
    const len = shape === 'triangle' ? r + 1 : size;
    rows.push(Array.from({ length: len }, () => next++));
  }
  return rows;
}
