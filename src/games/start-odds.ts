import { ArenaError } from '../core/errors.ts';
import type { AnyGame } from '../core/game.ts';
import { createRng, type Rng } from '../core/rng.ts';

/**
 * How the player who moves first fares under perfect play over a variant's dealt start positions:
 * the shares of deals that mover wins, draws (scored games) and loses.
 */
export interface StartOdds {
  /** Share of dealt start positions the first mover wins with best play (0..1). */
  readonly win: number;
  readonly draw: number;
  readonly loss: number;
  /**
   * True when every deal the variant can make was solved, each weighted by its probability; false
   * when the deal space was too large and `positions` deals drawn from fixed seeds were solved.
   */
  readonly exact: boolean;
  /** Distinct deal paths solved (exact) or deals sampled (estimate). */
  readonly positions: number;
}

/** Limits of `startOdds`. */
export interface StartOddsOptions {
  /** Largest number of deal paths enumerated exactly (default 200,000). */
  readonly maxPaths?: number;
  /** Deals solved when the space is larger (default 2,000), drawn with seeds 0, 1, 2, …. */
  readonly sample?: number;
}

/** Thrown inside a scripted deal when it asks for a draw that cannot be enumerated. */
class NotEnumerable extends Error {}

/**
 * A generator that answers `deal`'s draws from a script: `choices[i]` is the answer to the i-th
 * integer draw (0-based within its range), missing answers are 0. It records each draw's range, so
 * the caller can step through every path of the deal's choice tree like an odometer.
 */
class ScriptedRng implements Rng {
  readonly seed = 0;
  readonly sizes: number[] = [];
  constructor(readonly choices: readonly number[]) {}

  int(lo: number, hi: number): number {
    const i = this.sizes.length;
    this.sizes.push(hi - lo + 1);
    return lo + (this.choices[i] ?? 0);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  shuffle<T>(items: readonly T[]): T[] {
    // A shuffle's n! orders are not worth enumerating: a deal that shuffles is sampled instead.
    if (items.length > 1) throw new NotEnumerable();
    return items.slice();
  }

  float(): number {
    throw new NotEnumerable();
  }
}

/**
 * Every start position `deal` can produce, with its probability, found by replaying `deal` on
 * scripted draws (each integer draw is uniform, so a path's probability is the product of
 * 1 / range over its draws). Null when the deal draws floats or shuffles, or has more than
 * `maxPaths` paths.
 */
function enumerateDeals(game: AnyGame, maxPaths: number): { state: unknown; p: number }[] | null {
  const out: { state: unknown; p: number }[] = [];
  let choices: number[] = [];
  for (;;) {
    if (out.length >= maxPaths) return null;
    const rng = new ScriptedRng(choices);
    let state: unknown;
    try {
      state = game.deal(rng);
    } catch (err) {
      if (err instanceof NotEnumerable) return null;
      throw err;
    }
    const sizes = rng.sizes;
    let p = 1;
    for (const s of sizes) p /= s;
    out.push({ state, p });
    // Next path: the odometer over this path's draws, last draw fastest.
    const next = sizes.map((_, i) => choices[i] ?? 0);
    let i = next.length - 1;
    while (i >= 0 && next[i]! + 1 >= sizes[i]!) i--;
    if (i < 0) return out;
    // Most deals draw the same ranges on every path: a first path whose ranges multiply past the
    // limit tells at once that the space is too large.
    if (out.length === 1 && sizes.reduce((a, b) => a * b, 1) > maxPaths) return null;
    next[i]!++;
    choices = next.slice(0, i + 1);
  }
}

/**
 * The first mover's exact odds over a variant's deals (see `StartOdds`). The mover is whoever the
 * dealt position says is to move (the first seat, or Right's seat in a partizan `start=right`
 * variant). Null when the variant has no exact solver or its positions are beyond it.
 */
export function startOdds(game: AnyGame, options: StartOddsOptions = {}): StartOdds | null {
  const solver = game.solver?.(); // never throws: a variant too large to solve has none
  // A searching solver answers within a time budget: its verdicts would depend on the machine.
  if (!solver || solver.bestMoveBy) return null;
  const deals = enumerateDeals(game, options.maxPaths ?? 200_000);
  const exact = deals !== null;
  const weighted =
    deals ??
    Array.from({ length: options.sample ?? 2000 }, (_, seed) => ({ state: game.deal(createRng(seed)), p: 1 / (options.sample ?? 2000) }));
  // Counted per path probability, then weighted: deals of uniform draws sum to exact fractions.
  const counts = new Map<number, [number, number, number]>();
  try {
    for (const { state, p } of weighted) {
      const v = solver.value(state);
      let c = counts.get(p);
      if (!c) counts.set(p, (c = [0, 0, 0]));
      c[v > 0 ? 0 : v < 0 ? 2 : 1]++;
    }
  } catch (err) {
    if (err instanceof ArenaError) return null; // TooLargeError: beyond the solver's tables
    throw err;
  }
  let win = 0;
  let draw = 0;
  let loss = 0;
  for (const [p, [w, d, l]] of counts) {
    win += p * w;
    draw += p * d;
    loss += p * l;
  }
  return { win, draw, loss, exact, positions: weighted.length };
}
