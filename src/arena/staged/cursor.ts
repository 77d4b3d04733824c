/**
 * Where a staged run (Swiss, knockout) stands: the current stage's pairs handed out in order, and
 * the next stage planned once every game of this one is folded (`folded`). Executors wait for it
 * through `whenMore`. Each stage owns a fixed range of schedule indices, so a game's index and key
 * are known as soon as its stage is planned, and a resume checks the log against the plans as it
 * folds it: the log holds a stage's games only after all of the stage before (a stage is planned
 * only once the earlier one is durable), so each line is checked against a plan already made.
 */
import type { BotSpec } from '../../hosting/index.ts';
import type { PairSource } from '../cursor.ts';
import { IndexSet } from '../index-set.ts';
import type { GameRecord } from '../match.ts';
import { botSeed, dealSeed, gameKey, pairId, type GameJob, type PairJob, type ScheduleInput } from '../schedule.ts';
import type { StagedFormat, StageMatch } from './format.ts';

/** A staged run's place in its stages (see the module's comment). */
export class StagedCursor implements PairSource {
  readonly played: IndexSet;
  /** Games the stages reserve (a knockout's extra pairs not needed count as skipped). */
  readonly total: number;
  /** Reserved games not played: extra pairs a match did not need. */
  skipped = 0;
  readonly format: StagedFormat;
  readonly #input: ScheduleInput;
  readonly #bots: ReadonlyMap<string, BotSpec>;
  readonly #signal: AbortSignal | undefined;
  /** Each planned stage's matches, by stage. */
  readonly #plans: (readonly StageMatch[])[] = [];
  #stage = -1;
  #pairs: PairJob[] = [];
  #next = 0;
  /** Games of the current stage not yet folded. */
  #outstanding = 0;
  #stopped = false;
  #waiters: (() => void)[] = [];

  constructor(input: ScheduleInput, format: StagedFormat, signal?: AbortSignal) {
    this.#input = input;
    this.format = format;
    this.#bots = new Map(input.bots.map((b) => [b.label, b]));
    this.#signal = signal;
    let total = 0;
    for (let s = 0; s < format.stages; s++) total += format.reserved(s);
    this.total = total;
    this.played = new IndexSet(format.stages * format.slots * 2);
    signal?.addEventListener('abort', () => this.#wake(), { once: true });
    this.#advance();
  }

  /** Hands out no more pairs (the log failed). */
  stop(): void {
    this.#stopped = true;
    this.#wake();
  }

  next(): PairJob | null {
    if (this.#stopped || this.#signal?.aborted) return null;
    while (this.#next < this.#pairs.length) {
      const pair = this.#pairs[this.#next++]!;
      if (!this.played.has(pair.games[0].index) || !this.played.has(pair.games[1].index)) return pair;
    }
    return null;
  }

  /**
   * After `next` returned null: a promise that settles when it may return a pair again (the next
   * stage is planned, or the run stops), or null when no more will come.
   */
  whenMore(): Promise<void> | null {
    if (this.#stopped || this.#signal?.aborted || this.#stage >= this.format.stages) return null;
    if (this.#next < this.#pairs.length) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** A staged run never withdraws a pair it handed out. */
  unwanted(): boolean {
    return false;
  }

  withdraw(): void {
    throw new Error('A staged run never withdraws a pair');
  }

  isDone(index: number): boolean {
    return this.played.has(index);
  }

  keyAt(index: number): string | null {
    if (!Number.isSafeInteger(index) || index < 0) return null;
    const { slots } = this.format;
    const pair = Math.floor(index / 2);
    const matches = this.#plans[Math.floor(pair / slots)];
    if (!matches || matches.length === 0) return null;
    const width = matches[0]!.cells.length;
    const m = matches[Math.floor((pair % slots) / width)];
    if (!m) return null;
    const cell = m.cells[(pair % slots) % width]!;
    return gameKey(cell.variant, cell.deal, m.a, m.b, (index % 2) as 0 | 1);
  }

  /** Marks a game played; false when it already was. */
  markPlayed(index: number): boolean {
    if (this.played.has(index)) return false;
    this.played.add(index);
    return true;
  }

  /** A game of the current stage is folded: the format counts it, and the last one plans the next stage. */
  folded(rec: GameRecord): void {
    this.format.add(rec);
    if (--this.#outstanding === 0) this.#advance();
  }

  /** Plans the next stage with games (skipping stages that need none), and wakes the executors waiting for it. */
  #advance(): void {
    const { format } = this;
    while (this.#stage < format.stages) {
      const stage = ++this.#stage;
      const matches = format.plan(stage);
      if (stage >= format.stages) break;
      this.#plans[stage] = matches;
      this.#pairs = this.#jobs(stage, matches);
      this.#next = 0;
      this.#outstanding = this.#pairs.length * 2;
      this.skipped += format.reserved(stage) - this.#outstanding;
      if (this.#outstanding > 0) break;
    }
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** The game pairs of a stage's matches, at their fixed indices. */
  #jobs(stage: number, matches: readonly StageMatch[]): PairJob[] {
    const { seed, timePerMoveMs, timeControl } = this.#input;
    const out: PairJob[] = [];
    let pair = stage * this.format.slots;
    for (const m of matches) {
      const a = this.#bots.get(m.a)!;
      const b = this.#bots.get(m.b)!;
      for (const { variant, deal } of m.cells) {
        const ds = dealSeed(seed, variant, deal);
        const game = (seating: 0 | 1): GameJob => {
          const [first, second] = seating === 0 ? [a, b] : [b, a];
          return {
            index: pair * 2 + seating,
            key: gameKey(variant, deal, a.label, b.label, seating),
            variant,
            deal,
            dealSeed: ds,
            seating,
            seats: { first, second },
            botSeeds: { first: botSeed(seed, variant, deal, 'first', first.label), second: botSeed(seed, variant, deal, 'second', second.label) },
            timePerMoveMs,
            timeControl,
          };
        };
        out.push({ id: pairId(variant, deal, a.label, b.label), index: pair, games: [game(0), game(1)] });
        pair++;
      }
    }
    return out;
  }
}
