/**
 * The Swiss system (docs/TOURNAMENTS.md "Swiss, knockout and ratings across tournaments"): `rounds` rounds; in each, bots are paired by
 * score, nobody meets a bot twice, and with an odd number of bots one sits out (a bye). A round's
 * match is every variant × `deals` deals, each in both seatings (so the seats are balanced by
 * construction); round r plays deals `r·deals …`, fresh positions each round.
 *
 * The pairing rule, a simplified Dutch system: bots are ranked by score, then by seed (the prior
 * rating, else the spec's order). With an odd count, the lowest-ranked bot that has had no bye sits
 * out (1 point, no games). Then from the top: the first unpaired bot meets the bot half its score
 * group down (the top half of a group meets its bottom half, 1–5, 2–6, … in a group of eight); a
 * bot alone in its group floats down to meet the top of the next. Candidates are tried in that
 * order with backtracking, so no pair meets twice whenever some pairing allows it (when a search of
 * `SEARCH_BUDGET` steps finds none, repeats are allowed, in the same order).
 */
import type { GameRecord } from '../match.ts';
import { pairOf } from '../schedule.ts';
import { seedOrder, tally, type StagedFormat, type StageSetup, type StageCell, type StageMatch, type SwissLine, type FormatStandings } from './format.ts';

/** Steps of the backtracking search before a round is paired with repeats allowed. */
const SEARCH_BUDGET = 200_000;

/** A played round's match as the Swiss keeps it. */
interface SwissMatch extends StageMatch {
  readonly i: number;
  readonly j: number;
  readonly points: { a: number; b: number; games: number };
}

/** What a Swiss is made from. */
export interface SwissSetup extends StageSetup {
  readonly rounds: number;
}

/**
 * Pairs a round (see the module's comment): `order` holds bot indices ranked best first, `score`
 * their scores by index; returns index pairs, the higher-ranked first, none of them in `met` if some
 * pairing allows it.
 */
export function pairRound(order: readonly number[], score: readonly number[], met: (i: number, j: number) => boolean): [number, number][] {
  let steps = 0;
  const out: [number, number][] = [];
  const search = (rest: readonly number[], strict: boolean): boolean => {
    if (rest.length === 0) return true;
    if (strict && ++steps > SEARCH_BUDGET) return false;
    const x = rest[0]!;
    const group = rest.filter((y) => score[y] === score[x]);
    const h = Math.floor(group.length / 2);
    // The bot half the group down, then further down the group, then up it, then the floats below.
    const candidates = group.length > 1 ? [...group.slice(h), ...group.slice(1, h).reverse(), ...rest.filter((y) => score[y] !== score[x])] : rest.slice(1);
    for (const y of candidates) {
      if (strict && met(x, y)) continue;
      out.push([x, y]);
      if (search(rest.filter((z) => z !== x && z !== y), strict)) return true;
      out.pop();
      if (!strict) return false;
    }
    return false;
  };
  if (!search(order, true)) {
    out.length = 0;
    search(order, false);
  }
  return out;
}

/** A round's result for a match's `a`: 1 won on game points, ½ level, 0 lost (`b` has 1 minus it). */
function roundResult(points: { readonly a: number; readonly b: number }): number {
  return points.a > points.b ? 1 : points.a === points.b ? 0.5 : 0;
}

/** A Swiss tournament's rounds (see the module's comment). */
export class SwissFormat implements StagedFormat {
  readonly stages: number;
  readonly slots: number;
  readonly #bots: readonly string[];
  /** Seed rank of each bot (0 the top seed). */
  readonly #seed: number[];
  readonly #cells: (round: number) => StageCell[];
  readonly #score: number[];
  readonly #gamePoints: number[];
  readonly #byes: number[];
  readonly #played: number[];
  /** Each round's matches and bye (a bot index, or -1). */
  readonly #history: { matches: SwissMatch[]; bye: number }[] = [];
  readonly #met = new Set<number>();
  /** Rounds counted into the scores. */
  #closed = 0;
  #byKey = new Map<string, SwissMatch>();

  constructor(setup: SwissSetup) {
    const { bots, variants, deals, rounds } = setup;
    this.#bots = bots;
    const seeds = seedOrder(bots, setup.prior);
    this.#seed = bots.map((b) => seeds.indexOf(b));
    this.stages = rounds;
    this.slots = Math.floor(bots.length / 2) * variants.length * deals;
    this.#cells = (round) => variants.flatMap((variant) => Array.from({ length: deals }, (_, d) => ({ variant, deal: round * deals + d })));
    const zeros = (): number[] => bots.map(() => 0);
    this.#score = zeros();
    this.#gamePoints = zeros();
    this.#byes = zeros();
    this.#played = zeros();
  }

  reserved(): number {
    return this.slots * 2;
  }

  plan(stage: number): readonly StageMatch[] {
    if (stage > 0) this.#close(this.#history[stage - 1]!);
    if (stage >= this.stages) return [];
    const n = this.#bots.length;
    let order = this.#bots.map((_, i) => i).sort((x, y) => this.#score[y]! - this.#score[x]! || this.#seed[x]! - this.#seed[y]!);
    let bye = -1;
    if (n % 2 === 1) {
      // The lowest-ranked bot without a bye sits out (all have had one: the lowest-ranked).
      bye = [...order].reverse().find((i) => this.#byes[i] === 0) ?? order[n - 1]!;
      order = order.filter((i) => i !== bye);
    }
    const pairs = pairRound(order, this.#score, (i, j) => this.#met.has(i * n + j));
    const cells = this.#cells(stage);
    const matches: SwissMatch[] = pairs.map(([i, j]) => ({ i, j, a: this.#bots[i]!, b: this.#bots[j]!, cells, points: { a: 0, b: 0, games: 0 } }));
    this.#history.push({ matches, bye });
    this.#byKey = new Map(matches.map((m) => [`${m.a}\t${m.b}`, m]));
    return matches;
  }

  add(rec: GameRecord): void {
    const [a, b] = pairOf(rec.seating, rec.seats);
    const m = this.#byKey.get(`${a}\t${b}`);
    if (!m) throw new RangeError(`Swiss: game ${rec.key} is not a match of the current round`);
    tally(m.points, m, rec);
  }

  /** Counts a finished round into the scores. */
  #close(round: { matches: SwissMatch[]; bye: number }): void {
    this.#closed++;
    const n = this.#bots.length;
    for (const m of round.matches) {
      const r = roundResult(m.points);
      this.#score[m.i]! += r;
      this.#score[m.j]! += 1 - r;
      this.#gamePoints[m.i]! += m.points.a;
      this.#gamePoints[m.j]! += m.points.b;
      this.#played[m.i]!++;
      this.#played[m.j]!++;
      this.#met.add(m.i * n + m.j).add(m.j * n + m.i);
    }
    if (round.bye >= 0) {
      this.#score[round.bye]! += 1;
      this.#byes[round.bye]!++;
    }
  }

  standings(): FormatStandings {
    // Rounds closed so far count; the round in play adds its game points only.
    const closed = this.#closed;
    const current = closed < this.#history.length ? this.#history[closed] : undefined;
    const score = this.#score;
    const buchholz = this.#bots.map(() => 0);
    const sb = this.#bots.map(() => 0);
    for (const round of this.#history.slice(0, closed)) {
      for (const m of round.matches) {
        const r = roundResult(m.points);
        buchholz[m.i]! += score[m.j]!;
        buchholz[m.j]! += score[m.i]!;
        sb[m.i]! += r * score[m.j]!;
        sb[m.j]! += (1 - r) * score[m.i]!;
      }
    }
    const live = this.#bots.map(() => 0);
    for (const m of current?.matches ?? []) {
      live[m.i]! += m.points.a;
      live[m.j]! += m.points.b;
    }
    const lines: SwissLine[] = this.#bots.map((bot, i) => ({
      bot,
      score: score[i]!,
      buchholz: buchholz[i]!,
      sonnebornBerger: sb[i]!,
      gamePoints: this.#gamePoints[i]! + live[i]!,
      rounds: this.#played[i]! + this.#byes[i]!,
      byes: this.#byes[i]!,
    }));
    const seed = new Map(this.#bots.map((b, i) => [b, this.#seed[i]!]));
    lines.sort((x, y) => y.score - x.score || y.buchholz - x.buchholz || y.sonnebornBerger - x.sonnebornBerger || y.gamePoints - x.gamePoints || seed.get(x.bot)! - seed.get(y.bot)!);
    return { format: 'swiss', round: Math.min(this.#history.length, this.stages), rounds: this.stages, lines };
  }
}
