import type { Seat } from '../core/game.ts';
import { deriveSeed, fnvEnd, fnvText, seedFromState, seedState } from '../core/rng.ts';
import type { BotSpec } from '../hosting/index.ts';
import type { SeatClock, TimeControl } from './time-control.ts';

/**
 * One scheduled game: a self-contained, serializable job whose result is exactly one line of
 * `games.jsonl` (DESIGN.md "Growing past one machine"). Seeds depend only on the master seed and
 * the game's place in the schedule, never on what else is played: the deal's on (variant, deal),
 * each bot's on (variant, deal, seat) and its own label, never on its opponent.
 */
export interface GameJob {
  /** Position in the schedule (0-based); the order of the log when played one at a time. */
  readonly index: number;
  /** Stable identity across runs and resumes: `variant|deal|botA|botB|seating`. */
  readonly key: string;
  /** The variant id, e.g. `subtraction{moves=1,5,8,10;n=50..200}`. */
  readonly variant: string;
  /** Deal number within the variant (0-based); both seatings and every pair share the deal. */
  readonly deal: number;
  /** Seed of the generator that deals the start position. */
  readonly dealSeed: number;
  /** 0: the pair's first-listed bot sits first; 1: seats swapped. */
  readonly seating: 0 | 1;
  /** The bot in each seat. */
  readonly seats: { readonly first: BotSpec; readonly second: BotSpec };
  /**
   * Seed of each seat's bot generator for this game (`botSeed`): from what that bot may know, never
   * from its opponent.
   */
  readonly botSeeds: { readonly first: number; readonly second: number };
  /** Time limit per move in milliseconds; absent only with a time control (the bank alone limits a move). */
  readonly timePerMoveMs?: number | undefined;
  /** Each seat's time bank (`--tc`), absent without one. */
  readonly timeControl?: TimeControl | undefined;
  /** Time odds: each seat's own clock, in place of `timePerMoveMs` and `timeControl` (absent when every bot plays on the spec's). */
  readonly seatClocks?: { readonly first: SeatClock; readonly second: SeatClock } | undefined;
}

/**
 * One scheduled game pair: both seatings of one deal, the unit of work of every executor (DESIGN.md
 * "Growing past one machine"). Results arrive as whole pairs, which pair statistics (SPRT) need.
 */
export interface PairJob {
  /** Stable identity across runs, resumes and machines: `variant|deal|botA|botB`. */
  readonly id: string;
  /** Position of the pair in the schedule (0-based; pairs skipped by `supports` keep their place). */
  readonly index: number;
  /** The two games: seating 0, then seating 1. */
  readonly games: readonly [GameJob, GameJob];
}

/** What the schedule is built from. */
export interface ScheduleInput {
  readonly seed: number;
  readonly variants: readonly string[];
  readonly bots: readonly BotSpec[];
  readonly deals: number;
  readonly timePerMoveMs?: number;
  readonly timeControl?: TimeControl;
  /** Time odds: each bot's clock, parallel to `bots` (absent when every bot plays on `timePerMoveMs` and `timeControl`). */
  readonly clocks?: readonly SeatClock[];
  /** Whether a bot plays a variant (its `supports`); pairs with an unsupported bot are skipped. */
  readonly supports?: (bot: BotSpec, variant: string) => boolean;
  /** A gauntlet's champion (a bot label): only it plays, against each other bot. Absent: a round robin. */
  readonly champion?: string;
  /**
   * Deal by deal over the variants (deal 0 of each variant in turn, then deal 1, …) rather than
   * variant by variant. A sequential test that stops early has then sampled every variant alike,
   * not just the first: runs with `sprt` are scheduled so.
   */
  readonly interleave?: boolean;
}

/**
 * The variant (its index) and deal of the schedule's `cell`-th (variant, deal): variant by variant,
 * or deal by deal when the schedule interleaves.
 */
function cellAt(input: Pick<ScheduleInput, 'variants' | 'deals' | 'interleave'>, cell: number): { variant: number; deal: number } {
  const v = input.variants.length;
  return input.interleave ? { variant: cell % v, deal: Math.floor(cell / v) } : { variant: Math.floor(cell / input.deals), deal: cell % input.deals };
}

/**
 * The pairings of a schedule as index pairs into `bots`, in schedule order: every unordered pair
 * (round robin), or the champion against each other bot (gauntlet). The first of a pairing is the
 * bot its pair results and SPRT are counted for (the champion in a gauntlet).
 */
export function pairings(bots: readonly BotSpec[], champion?: string): [number, number][] {
  const out: [number, number][] = [];
  if (champion !== undefined) {
    const c = bots.findIndex((b) => b.label === champion);
    if (c < 0) throw new RangeError(`Champion ${champion} is not among the bots`);
    for (let j = 0; j < bots.length; j++) if (j !== c) out.push([c, j]);
    return out;
  }
  for (let i = 0; i < bots.length; i++) for (let j = i + 1; j < bots.length; j++) out.push([i, j]);
  return out;
}

/** The bots of a game's pairing (seat labels and seating), the pairing's first bot first: the seating swap undone. */
export function pairOf(seating: 0 | 1, seats: { readonly first: string; readonly second: string }): readonly [string, string] {
  return seating === 0 ? [seats.first, seats.second] : [seats.second, seats.first];
}
/** The deal seed of a variant's deal: shared by every pair, so all bots face the same positions. */
export function dealSeed(master: number, variant: string, deal: number): number {
  return deriveSeed(master, 'deal', variant, deal);
}

/**
 * A bot's generator seed for one seat of one game: from the master seed, the variant, the deal, the
 * seat and the bot's own label, which is all a bot may know of its game. Its opponent is left out,
 * so the seed cannot be hashed back to the opponent's name (docs/SECURITY.md), and a bot plays one
 * deal in one seat with the same random stream whoever it meets: its opponents face the same bot.
 */
export function botSeed(master: number, variant: string, deal: number, seat: Seat, label: string): number {
  return deriveSeed(master, 'bot', variant, deal, seat, label);
}

/** The stable key of a game. */
export function gameKey(variant: string, deal: number, a: string, b: string, seating: 0 | 1): string {
  return `${variant}|${deal}|${a}|${b}|${seating}`;
}

/** The stable id of a game pair (a game's key without its seating). */
export function pairId(variant: string, deal: number, a: string, b: string): string {
  return `${variant}|${deal}|${a}|${b}`;
}

/** Number of games the schedule holds (every pairing × variant × deals × 2 seatings, before `supports`). */
export function scheduleSize(input: Pick<ScheduleInput, 'variants' | 'bots' | 'deals' | 'champion'>): number {
  return pairings(input.bots, input.champion).length * input.variants.length * input.deals * 2;
}

/**
 * Number of games `schedule(input)` yields (after `supports`), counted without generating them: a
 * tournament needs its total before the first game, and generating every job (keys and seeds)
 * just to count them cost as much as a second schedule pass.
 */
export function scheduleCount(input: Pick<ScheduleInput, 'variants' | 'bots' | 'deals' | 'supports' | 'champion'>): number {
  const { variants, bots, deals, supports } = input;
  const pairs = pairings(bots, input.champion);
  let total = 0;
  for (const variant of variants) {
    const playing = bots.map((b) => !supports || supports(b, variant));
    for (const [i, j] of pairs) if (playing[i] && playing[j]) total += deals * 2;
  }
  return total;
}

/**
 * The key of the game at `index` in the schedule (null when there is none), computed from the
 * index alone: a results log is checked against the schedule line by line without generating it.
 * Unsupported pairs keep their indices (see `schedule`), so this holds with `supports` too.
 */
export function scheduleKeyAt(input: Pick<ScheduleInput, 'variants' | 'bots' | 'deals' | 'champion' | 'interleave'>, index: number): string | null {
  const { variants, bots, deals, champion } = input;
  const n = bots.length;
  const c = champion === undefined ? -1 : bots.findIndex((b) => b.label === champion);
  const pairs = c >= 0 ? n - 1 : (n * (n - 1)) / 2;
  if (!Number.isSafeInteger(index) || index < 0 || index >= pairs * variants.length * deals * 2) return null;
  const seating = (index % 2) as 0 | 1;
  const rest = (index - seating) / 2;
  let pair = rest % pairs;
  const cell = cellAt(input, (rest - pair) / pairs);
  const variant = variants[cell.variant]!;
  const deal = cell.deal;
  // A gauntlet: the champion against each other bot, in bot order.
  if (c >= 0) return gameKey(variant, deal, bots[c]!.label, bots[pair < c ? pair : pair + 1]!.label, seating);
  // Pairs run i < j in row order: row i holds n - 1 - i of them.
  let i = 0;
  while (pair >= n - 1 - i) pair -= n - 1 - i++;
  return gameKey(variant, deal, bots[i]!.label, bots[i + 1 + pair]!.label, seating);
}

/**
 * The schedule as a generator (fastchess `Scheduler::next()`): for each variant and deal (deal by
 * deal over the variants when `interleave`), every pairing (each unordered pair of bots, or in a
 * gauntlet the champion against each other bot) plays the deal twice, once in each seating, back to
 * back: a game pair. `skipPair(p)` (p: the pair's place, the index of its first game over 2) leaves
 * out both seatings of a pair without building their jobs: a resumed million-game tournament passes
 * over the games it has without a key and two seeds for each.
 */
export function* schedule(input: ScheduleInput, skipPair?: (pair: number) => boolean): Generator<GameJob> {
  const { seed, variants, bots, deals, timePerMoveMs, timeControl, clocks } = input;
  const supports = input.supports ?? (() => true);
  const pairs = pairings(bots, input.champion);
  // Seeds are `dealSeed` and `botSeed` exactly; the labels they share are hashed once (`seedState`),
  // and each bot's two seeds once per deal, not again for every game of a million.
  const dealState = seedState(seed, 'deal');
  const botState = seedState(seed, 'bot');
  // What each variant's games share, worked out once: who plays it, and its labels hashed.
  const perVariant = variants.map((variant) => ({
    variant,
    playing: bots.map((b) => supports(b, variant)),
    dealVariant: fnvEnd(fnvText(dealState, variant)),
    botVariant: fnvEnd(fnvText(botState, variant)),
  }));
  const seedsFirst = new Array<number>(bots.length);
  const seedsSecond = new Array<number>(bots.length);
  let index = 0;
  for (let cell = 0; cell < variants.length * deals; cell++) {
    // A cell whose pairs are all passed over (a resumed run's games played) is not worked out.
    if (skipPair) {
      let all = true;
      for (let p = 0; p < pairs.length && all; p++) all = skipPair(index / 2 + p);
      if (all) {
        index += 2 * pairs.length;
        continue;
      }
    }
    const at = cellAt(input, cell);
    const { variant, playing, dealVariant, botVariant } = perVariant[at.variant]!;
    const deal = at.deal;
    const ds = seedFromState(fnvEnd(fnvText(dealVariant, String(deal))));
    const botDeal = fnvEnd(fnvText(botVariant, String(deal)));
    const first = fnvEnd(fnvText(botDeal, 'first'));
    const second = fnvEnd(fnvText(botDeal, 'second'));
    for (let k = 0; k < bots.length; k++) {
      seedsFirst[k] = seedFromState(fnvEnd(fnvText(first, bots[k]!.label)));
      seedsSecond[k] = seedFromState(fnvEnd(fnvText(second, bots[k]!.label)));
    }
    for (const [i, j] of pairs) {
      const a = bots[i]!;
      const b = bots[j]!;
      if (skipPair?.(index / 2)) {
        index += 2;
        continue;
      }
      for (let seating: 0 | 1 = 0; seating <= 1; seating = (seating + 1) as 0 | 1) {
        const here = index++;
        if (!playing[i] || !playing[j]) continue;
        yield {
          index: here,
          key: gameKey(variant, deal, a.label, b.label, seating),
          variant,
          deal,
          dealSeed: ds,
          seating,
          seats: seating === 0 ? { first: a, second: b } : { first: b, second: a },
          botSeeds: seating === 0 ? { first: seedsFirst[i]!, second: seedsSecond[j]! } : { first: seedsFirst[j]!, second: seedsSecond[i]! },
          // Undefined when unset, rather than spread in: no spread per job (jobs travel as JSON, which drops them).
          timePerMoveMs,
          timeControl,
          seatClocks: clocks && (seating === 0 ? { first: clocks[i]!, second: clocks[j]! } : { first: clocks[j]!, second: clocks[i]! }),
        };
      }
    }
  }
}

/** The schedule as game pairs, in the same order: each pair is the two seatings `schedule` yields back to back (`skipPair` as there). */
export function* schedulePairs(input: ScheduleInput, skipPair?: (pair: number) => boolean): Generator<PairJob> {
  let first: GameJob | null = null;
  for (const job of schedule(input, skipPair)) {
    if (job.seating === 0) {
      first = job;
      continue;
    }
    const a = first!;
    yield { id: pairId(a.variant, a.deal, a.seats.first.label, a.seats.second.label), index: a.index / 2, games: [a, job] };
  }
}
