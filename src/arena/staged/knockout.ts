/**
 * A seeded knockout (docs/TOURNAMENTS.md "Swiss, knockout and ratings across tournaments"). Bots are seeded by prior rating (a ratings
 * file), else in the spec's order, into a bracket of the next power of two: seed 1 meets the lowest
 * seed, and the seeds past the field are byes (the top seeds go through the first round without a
 * game). A match is every variant × `deals` deals, each in both seatings; the bot with more game
 * points goes through. Level: up to `tiebreakPairs` extra game pairs, one at a time (deal
 * `deals + e - 1` of the variants in turn), until one leads after a pair; still level, the higher
 * seed goes through.
 *
 * Stages: each round is one stage of main games, then one stage per extra pair (only the matches
 * still level play it; the others' reserved games count as skipped).
 */
import type { GameRecord } from '../match.ts';
import { pairOf } from '../schedule.ts';
import { seedOrder, tally, type BracketMatch, type FormatStandings, type StageCell, type StagedFormat, type StageSetup, type StageMatch } from './format.ts';

/** What a knockout is made from. */
export interface KnockoutSetup extends StageSetup {
  readonly tiebreakPairs: number;
}

/** Seed numbers (1-based) in bracket order for a bracket of `size` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6 for 8. */
export function bracketOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const n = order.length * 2;
    order = order.flatMap((s) => [s, n + 1 - s]);
  }
  return order;
}

/** A bracket match as the knockout keeps it (seeds 1-based; `b` -1 for a bye). */
interface KoMatch {
  readonly a: number;
  readonly b: number;
  points: { a: number; b: number; games: number };
  winner: number | null;
  decidedBy: BracketMatch['decidedBy'];
}

/** A knockout's rounds (see the module's comment). */
export class KnockoutFormat implements StagedFormat {
  readonly stages: number;
  readonly slots: number;
  /** Bots by seed: `seeded[0]` is seed 1. */
  readonly #seeded: readonly string[];
  readonly #variants: readonly string[];
  readonly #deals: number;
  readonly #extra: number;
  readonly #size: number;
  readonly #rounds: KoMatch[][] = [];
  /** The matches of the stage in play, by their bots `a\tb`. */
  #byKey = new Map<string, KoMatch>();

  constructor(setup: KnockoutSetup) {
    const { bots, variants, deals, tiebreakPairs } = setup;
    this.#seeded = seedOrder(bots, setup.prior);
    this.#variants = variants;
    this.#deals = deals;
    this.#extra = tiebreakPairs;
    let size = 1;
    while (size < bots.length) size *= 2;
    this.#size = size;
    this.stages = Math.log2(size) * (1 + tiebreakPairs);
    this.slots = (size / 2) * variants.length * deals;
    const order = bracketOrder(size);
    const first: KoMatch[] = [];
    for (let k = 0; k < size; k += 2) {
      const a = order[k]!;
      const b = order[k + 1]! <= bots.length ? order[k + 1]! : -1;
      first.push(b < 0 ? { a, b, points: { a: 0, b: 0, games: 0 }, winner: a, decidedBy: 'bye' } : { a, b, points: { a: 0, b: 0, games: 0 }, winner: null, decidedBy: null });
    }
    this.#rounds.push(first);
  }

  /** Matches (not byes) in round `k`. */
  #played(k: number): number {
    return k === 0 ? this.#seeded.length - this.#size / 2 : this.#size / 2 ** (k + 1);
  }

  reserved(stage: number): number {
    const k = Math.floor(stage / (1 + this.#extra));
    const e = stage % (1 + this.#extra);
    return this.#played(k) * 2 * (e === 0 ? this.#variants.length * this.#deals : 1);
  }

  plan(stage: number): readonly StageMatch[] {
    const k = Math.floor(stage / (1 + this.#extra));
    const e = stage % (1 + this.#extra);
    if (stage > 0 && e === 0) {
      // The round before is over: level matches go to the higher seed, the winners meet in order.
      const last = this.#rounds[k - 1]!;
      for (const m of last) if (m.winner === null) this.#decide(m);
      if (k < Math.log2(this.#size)) {
        const next: KoMatch[] = [];
        for (let q = 0; q < last.length; q += 2) next.push({ a: last[q]!.winner!, b: last[q + 1]!.winner!, points: { a: 0, b: 0, games: 0 }, winner: null, decidedBy: null });
        this.#rounds.push(next);
      }
    } else if (e > 0) {
      // After the main games (or an extra pair), a match with a leader is over.
      for (const m of this.#rounds[k]!) if (m.winner === null && m.points.a !== m.points.b) this.#decide(m);
    }
    if (stage >= this.stages) return [];
    const playing = this.#rounds[k]!.filter((m) => m.winner === null);
    const cells: StageCell[] =
      e === 0
        ? this.#variants.flatMap((variant) => Array.from({ length: this.#deals }, (_, d) => ({ variant, deal: d })))
        : [{ variant: this.#variants[(e - 1) % this.#variants.length]!, deal: this.#deals + e - 1 }];
    const matches = playing.map((m) => ({ m, a: this.#seeded[m.a - 1]!, b: this.#seeded[m.b - 1]!, cells }));
    this.#byKey = new Map(matches.map((x) => [`${x.a}\t${x.b}`, x.m]));
    return matches.map(({ a, b }) => ({ a, b, cells }));
  }

  /** Ends a match: the leader on game points goes through (after the main games, or an extra pair), else the higher seed. */
  #decide(m: KoMatch): void {
    const { a, b, games } = m.points;
    m.winner = a > b ? m.a : b > a ? m.b : Math.min(m.a, m.b);
    m.decidedBy = a === b ? 'seed' : games > this.#variants.length * this.#deals * 2 ? 'extra' : 'points';
  }

  add(rec: GameRecord): void {
    const [a, b] = pairOf(rec.seating, rec.seats);
    const m = this.#byKey.get(`${a}\t${b}`);
    if (!m) throw new RangeError(`Knockout: game ${rec.key} is not a match of the current stage`);
    tally(m.points, { a }, rec);
  }

  standings(): FormatStandings {
    const label = (seed: number): string => this.#seeded[seed - 1]!;
    const rounds = this.#rounds.map((round) =>
      round.map(
        (m): BracketMatch => ({
          a: label(m.a),
          seedA: m.a,
          b: m.b < 0 ? null : label(m.b),
          seedB: m.b < 0 ? null : m.b,
          pointsA: m.points.a,
          pointsB: m.points.b,
          games: m.points.games,
          winner: m.winner === null ? null : label(m.winner),
          decidedBy: m.decidedBy,
        }),
      ),
    );
    const final = this.#rounds.length === Math.log2(this.#size) ? this.#rounds[this.#rounds.length - 1]![0] : undefined;
    return { format: 'knockout', rounds, champion: final?.winner != null ? label(final.winner) : null };
  }
}
