/**
 * Game pairs: both seatings of one deal. A pair completes when its second game is in, whichever
 * finished first; only then does it count (pentanomial counts in the standings, the sequential
 * test), so a pair is never half counted.
 */
import type { GameRecord } from '../match.ts';
import { pairScore, type PairScore } from './sprt.ts';

/** A pair whose two games are in, counted for the pairing's first bot `a` (the champion in a gauntlet). */
export interface CompletedPair {
  readonly variant: string;
  readonly deal: number;
  readonly a: string;
  readonly b: string;
  /** `a`'s half points over the two games. */
  readonly score: PairScore;
}

/** The inner map under `key`, made when missing. */
export function nested<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
}

/**
 * Holds the first finished game of each pair until its other seating is in: per variant and
 * pairing, `a`'s points by deal. Memory grows with the pairs in flight, not with the games folded.
 */
export class PairTracker {
  /** Per variant, pairing's first bot `a`, then `b`: the halves waiting, by deal (no key string built per game). */
  readonly #halves = new Map<string, Map<string, Map<string, Map<number, number>>>>();

  /** Adds a game; returns its pair once both games are in, else null. */
  add(rec: GameRecord): CompletedPair | null {
    // The pairing's bots, the seating swap undone (`pairOf`, without its array).
    const a = rec.seating === 0 ? rec.seats.first : rec.seats.second;
    const b = rec.seating === 0 ? rec.seats.second : rec.seats.first;
    const points = rec.winner === null ? 0.5 : rec.winner === a ? 1 : 0;
    const byB = nested(nested(this.#halves, rec.variant), a);
    let halves = byB.get(b);
    if (!halves) byB.set(b, (halves = new Map()));
    const other = halves.get(rec.deal);
    if (other === undefined) {
      halves.set(rec.deal, points);
      return null;
    }
    halves.delete(rec.deal);
    return { variant: rec.variant, deal: rec.deal, a, b, score: pairScore(other, points) };
  }

  /** The halves waiting, each as [variant, a, b, deal, a's points] (for a checkpoint). */
  state(): HalfPair[] {
    const out: HalfPair[] = [];
    for (const [variant, byA] of this.#halves) for (const [a, byB] of byA) for (const [b, halves] of byB) for (const [deal, points] of halves) out.push([variant, a, b, deal, points]);
    return out;
  }

  /** Holds these halves (from `state`) as waiting, on a tracker that holds none yet. */
  restore(halves: readonly HalfPair[]): void {
    for (const [variant, a, b, deal, points] of halves) {
      const byB = nested(nested(this.#halves, variant), a);
      let waiting = byB.get(b);
      if (!waiting) byB.set(b, (waiting = new Map()));
      waiting.set(deal, points);
    }
  }
}

/** A pair's first game waiting for its other seating: variant, the pairing's bots `a` and `b`, the deal, `a`'s points. */
export type HalfPair = readonly [string, string, string, number, number];
