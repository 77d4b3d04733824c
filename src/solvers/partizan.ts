/**
 * Exact analysis of the partizan subtraction game (GAMES.md 3): Left and Right have their own
 * subtraction sets. Two bitsets filled together in one pass: who wins when Left moves next, and who
 * wins when Right moves next; the pair gives the CGT outcome class L, R, N or P.
 */

/** The two win bitsets of a partizan subtraction game for piles 0..upto. */
export interface PartizanTable {
  /** Bit n set: Left, moving next at pile n, wins. */
  readonly left: Uint32Array;
  /** Bit n set: Right, moving next at pile n, wins. */
  readonly right: Uint32Array;
  /** Last pile covered. */
  readonly upto: number;
}

function bit(bits: Uint32Array, n: number): boolean {
  return (bits[n >>> 5]! & (1 << (n & 31))) !== 0;
}

/**
 * Fills both bitsets in one pass: Left to move wins at n when some Left take leaves a pile where
 * Right to move loses, and symmetrically for Right. Both depend only on smaller piles.
 */
export function partizanTable(left: readonly number[], right: readonly number[], upto: number): PartizanTable {
  const words = (upto >>> 5) + 1;
  const l = new Uint32Array(words);
  const r = new Uint32Array(words);
  for (let n = 0; n <= upto; n++) {
    const w = n >>> 5;
    const b = 1 << (n & 31);
    for (const s of left) {
      if (s > n) break;
      if (!bit(r, n - s)) {
        l[w]! |= b;
        break;
      }
    }
    for (const s of right) {
      if (s > n) break;
      if (!bit(l, n - s)) {
        r[w]! |= b;
        break;
      }
    }
  }
  return { left: l, right: r, upto };
}

/** Whether the side to move (Left when `leftToMove`) wins at `pile`. */
export function partizanWins(t: PartizanTable, pile: number, leftToMove: boolean): boolean {
  if (!Number.isInteger(pile) || pile < 0 || pile > t.upto) {
    throw new RangeError(`Pile ${pile} is beyond the table (0 to ${t.upto})`);
  }
  return bit(leftToMove ? t.left : t.right, pile);
}

/** The CGT outcome class of a pile: L, R (that side wins whoever starts), N (mover wins) or P. */
export function partizanClass(t: PartizanTable, pile: number): 'L' | 'R' | 'N' | 'P' {
  const l = partizanWins(t, pile, true);
  const r = partizanWins(t, pile, false);
  return l ? (r ? 'N' : 'L') : r ? 'R' : 'P';
}

/**
 * The best take of the side to move: the largest winning take; when lost, the smallest legal take;
 * null when it has none.
 */
export function partizanBestMove(
  t: PartizanTable,
  left: readonly number[],
  right: readonly number[],
  pile: number,
  leftToMove: boolean,
): number | null {
  const mine = leftToMove ? left : right;
  let smallest: number | null = null;
  for (let i = mine.length - 1; i >= 0; i--) {
    const take = mine[i]!;
    if (take > pile) continue;
    if (!partizanWins(t, pile - take, !leftToMove)) return take;
    smallest = take;
  }
  // Lost: the smallest take keeps the most stones in play, leaving the opponent the most room to err.
  return smallest;
}

/** The piles 0..upto grouped by outcome class. */
export function partizanClasses(t: PartizanTable, upto: number): Record<'L' | 'R' | 'N' | 'P', number[]> {
  const out: Record<'L' | 'R' | 'N' | 'P', number[]> = { L: [], R: [], N: [], P: [] };
  for (let n = 0; n <= upto; n++) out[partizanClass(t, n)].push(n);
  return out;
}
