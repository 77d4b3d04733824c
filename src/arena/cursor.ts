/**
 * Where a run stands in its schedule: which games are played (one bit each), which pair comes
 * next, and which pairs are not played because their pairing's sequential test has decided.
 */
import { IndexSet } from './index-set.ts';
import { pairOf, scheduleCount, scheduleKeyAt, schedulePairs, scheduleSize, type PairJob, type ScheduleInput } from './schedule.ts';

/** The schedule as an executor sees it: the pairs to play, in schedule order. */
export interface PairSource {
  /**
   * The next pair with a game still to play, in schedule order, or null once the schedule is
   * exhausted (or the run must stop: interrupted, early stop, a failed log).
   */
  next(): PairJob | null;
  /**
   * Whether a pair handed out earlier is no longer wanted: neither game is played and its pairing's
   * sequential test has decided. An executor that can still withdraw it (a queued job not started)
   * does so and calls `withdraw`.
   */
  unwanted(pair: PairJob): boolean;
  /** Counts a withdrawn pair's two games as skipped (not played, not missing). */
  withdraw(pair: PairJob): void;
  /** Whether the game at this schedule index is already folded (in the log before a resume, or played meanwhile). */
  isDone(index: number): boolean;
  /** The key of the game at a schedule index (null when there is none): remote results are checked against it. */
  keyAt(index: number): string | null;
  /**
   * After `next` returned null: a promise that settles once `next` may hand out more (a staged
   * format's next stage is planned when the games before are folded), or null (or absent) when
   * nothing more will come.
   */
  whenMore?(): Promise<void> | null;
}

/** A run's place in its schedule (see `PairSource`). */
export class ScheduleCursor implements PairSource {
  /** The games played, by schedule index: all the runner keeps per game. */
  readonly played: IndexSet;
  /** Games the schedule holds (pairs with an unsupported bot left out). */
  readonly total: number;
  /** Games not played because their pairing's test has decided. */
  skipped = 0;
  readonly #input: ScheduleInput;
  readonly #decided: (a: string, b: string) => boolean;
  readonly #signal: AbortSignal | undefined;
  #stopped = false;
  /** Pairs already played (both games in the log) are passed over without building their jobs. */
  readonly #pairs: Generator<PairJob>;
  /** Pairs withdrawn after they were handed out (counted as skipped until a result comes). */
  readonly #withdrawn = new Set<number>();

  /**
   * `decided(a, b)`: whether the pairing of `a` and `b` has decided (its pairs not begun are not
   * played). Once `signal` aborts, no more pairs are handed out.
   */
  constructor(input: ScheduleInput, decided: (a: string, b: string) => boolean, signal?: AbortSignal) {
    this.#input = input;
    this.#decided = decided;
    this.#signal = signal;
    this.total = scheduleCount(input);
    this.played = new IndexSet(scheduleSize(input));
    this.#pairs = schedulePairs(input, (p) => this.played.has(2 * p) && this.played.has(2 * p + 1));
  }

  /** Hands out no more pairs (the log failed: nothing more can be made durable). */
  stop(): void {
    this.#stopped = true;
  }

  next(): PairJob | null {
    if (this.#stopped || this.#signal?.aborted) return null;
    for (;;) {
      const next = this.#pairs.next();
      if (next.done) return null;
      const pair = next.value;
      const first = this.played.has(pair.games[0].index);
      const second = this.played.has(pair.games[1].index);
      if (first && second) continue;
      // Once a pairing's test has decided, its remaining pairs are not played (a pair already
      // begun, e.g. half of it in a resumed log, is completed: every game belongs to a whole pair).
      if (!first && !second && this.#pairDecided(pair)) {
        this.skipped += 2;
        continue;
      }
      return pair;
    }
  }

  unwanted(pair: PairJob): boolean {
    if (this.played.has(pair.games[0].index) || this.played.has(pair.games[1].index)) return false;
    return this.#pairDecided(pair);
  }

  withdraw(pair: PairJob): void {
    if (this.#withdrawn.has(pair.index)) return;
    this.#withdrawn.add(pair.index);
    this.skipped += 2;
  }

  isDone(index: number): boolean {
    return this.played.has(index);
  }

  keyAt(index: number): string | null {
    return scheduleKeyAt(this.#input, index);
  }

  /** Marks a game played; false when it already was (a result handed over twice). */
  markPlayed(index: number): boolean {
    if (this.played.has(index)) return false;
    this.played.add(index);
    // A withdrawn pair that was played after all (its job had just finished): it counts as played.
    if (this.#withdrawn.size && this.#withdrawn.delete(Math.floor(index / 2))) this.skipped -= 2;
    return true;
  }

  #pairDecided(pair: PairJob): boolean {
    const g = pair.games[0];
    return this.#decided(...pairOf(g.seating, { first: g.seats.first.label, second: g.seats.second.label }));
  }
}
