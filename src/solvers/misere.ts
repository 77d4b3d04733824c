/**
 * Misère play of heap games (GAMES.md 8): the player who makes the last move loses.
 *
 * Under misère play the nim-value trick stops working: a sum's outcome is not a function of its
 * parts' nim-values. Two equal heaps no longer cancel: in Nim, {1, 1} and {2, 2} both have value 0
 * and the empty position too, yet under misère {1, 1} and the empty position are N-positions and
 * {2, 2} is a P-position. Misère Nim has its known rule (`misereNimWins`);
 * every other heap game here is decided by an exact search over positions, each a multiset of heaps
 * (order does not matter), with the heaps that have no move left out: a heap without moves is the
 * empty game, the identity of sums in misère play too. Memoised, so every position is solved once.
 * Its size is bounded before a solver is offered: `partitionCount` and `multisetCount` bound the
 * positions a deal can reach.
 */

/** Most positions a misère search may have to solve: a solver is offered only when the deals bound them below this. */
export const MAX_MISERE_POSITIONS = 300_000;

/** Misère Nim (Bouton): the mover wins iff some heap is ≥ 2 and the xor is non-zero, or every heap is ≤ 1 and the number of 1s is even. */
export function misereNimWins(heaps: readonly number[]): boolean {
  let x = 0;
  let big = false;
  let ones = 0;
  for (const h of heaps) {
    x ^= h;
    if (h >= 2) big = true;
    else if (h === 1) ones++;
  }
  return big ? x !== 0 : ones % 2 === 0;
}

/** Largest count the position bounds below report exactly (beyond it they report `cap + 1`). */
function capped(x: number, cap: number): number {
  return x > cap ? cap + 1 : x;
}

/**
 * How many multisets of heaps sum to at most `total` (Σ_{s ≤ total} p(s), partitions), capped at
 * `cap + 1`: a bound on the positions a take-and-break deal of `total` tokens can reach.
 */
export function partitionCount(total: number, cap: number): number {
  if (total > 400) return cap + 1;
  // p[s] over parts up to k, built part by part (the classic partition recurrence).
  const p = new Float64Array(total + 1);
  p[0] = 1;
  for (let k = 1; k <= total; k++) for (let s = k; s <= total; s++) p[s]! += p[s - k]!;
  let sum = 0;
  for (let s = 0; s <= total; s++) sum += p[s]!;
  return capped(sum, cap);
}

/** How many multisets of at most `count` heaps each at most `maxHeap` there are, C(maxHeap + count, count), capped at `cap + 1`. */
export function multisetCount(maxHeap: number, count: number, cap: number): number {
  let c = 1;
  for (let i = 1; i <= count; i++) {
    c = (c * (maxHeap + i)) / i;
    if (c > cap) return cap + 1;
  }
  return Math.round(c);
}

/**
 * Exact misère outcomes of heap games by memoised search. `options(n)` lists what one move on a
 * heap of n can leave (each a list of heaps, possibly empty); heaps with no option are dropped
 * from every position, as the empty game.
 */
export class MisereSearch {
  readonly #options: (n: number) => readonly (readonly number[])[];
  readonly #memo = new Map<string, boolean>();
  readonly #live = new Map<number, boolean>();

  constructor(options: (n: number) => readonly (readonly number[])[]) {
    this.#options = options;
  }

  /** Positions solved so far. */
  get size(): number {
    return this.#memo.size;
  }

  /** Whether a heap of n has a move (heaps without one are left out of positions). */
  #isLive(n: number): boolean {
    let live = this.#live.get(n);
    if (live === undefined) this.#live.set(n, (live = n > 0 && this.#options(n).length > 0));
    return live;
  }

  /** The canonical position: live heaps, largest first. */
  #canonical(heaps: readonly number[]): number[] {
    const out: number[] = [];
    for (const h of heaps) if (this.#isLive(h)) out.push(h);
    return out.sort((a, b) => b - a);
  }

  /** Whether the player to move wins `heaps` (in any order) under misère play. */
  wins(heaps: readonly number[]): boolean {
    return this.#wins(this.#canonical(heaps));
  }

  #wins(heaps: number[]): boolean {
    // Two UTF-16 units per heap: exact for every heap below 2^32.
    const key = String.fromCharCode(...heaps.flatMap((h) => [h & 0xffff, h >>> 16]));
    const known = this.#memo.get(key);
    if (known !== undefined) return known;
    let win = heaps.length === 0; // no move: the opponent made the last one
    for (let i = 0; i < heaps.length && !win; i++) {
      if (i > 0 && heaps[i] === heaps[i - 1]) continue; // equal heaps have equal options
      for (const rest of this.#options(heaps[i]!)) {
        const child = heaps.slice(0, i).concat(heaps.slice(i + 1));
        for (const r of rest) if (this.#isLive(r)) child.push(r);
        child.sort((a, b) => b - a);
        if (!this.#wins(child)) {
          win = true;
          break;
        }
      }
    }
    this.#memo.set(key, win);
    return win;
  }
}
