/**
 * Everything a run folds its finished games into, each game once: the standings (with accuracy and
 * pair counts), one sequential test per pairing of a gauntlet, the time tally, the counts by
 * termination. Order-independent where it must be: a resumed run folds the same games to the same
 * state as an uninterrupted one.
 */
import { z } from 'zod';
import type { GameRecord, Termination } from '../match.ts';
import { pairings, type ScheduleInput } from '../schedule.ts';
import { TimeTally, WorkerTally, type SprtResult, type TimeTotals, type WorkerHealth, type WorkerHealthView } from '../summary.ts';
import type { GameJudgement, MoveJudge } from './accuracy.ts';
import type { CompletedPair } from './pairs.ts';
import { InOrder, SprtTest, type PairScore, type SprtConfig } from './sprt.ts';
import type { Anchor } from './ratings.ts';
import { anchorStandings, StandingsBuilder, type Standings, type StandingsState } from './standings.ts';

/** Games folded per termination (interrupted games are not results). */
export type TerminationCounts = Record<Exclude<Termination, 'interrupted'>, number>;

/** What a fold is made from. */
export interface FoldSetup {
  /** Bot labels and variant ids, in the spec's order (rows and tables with no games yet still appear). */
  readonly bots: readonly string[];
  readonly variants: readonly string[];
  /** The schedule: a gauntlet's pairings and the pair ordinals of its sequential tests. */
  readonly schedule: ScheduleInput;
  /** The sequential test of each pairing of a gauntlet, if any. */
  readonly sprt?: SprtConfig | undefined;
  /** The bot whose rating is pinned to a value (`--anchor`), if any. */
  readonly anchor?: Anchor | undefined;
}

/** A fold as plain data, for a checkpoint (`TournamentFold.state`). */
export interface FoldState {
  readonly done: number;
  readonly byTermination: TerminationCounts;
  readonly time: readonly [number, number, number, number];
  readonly standings: StandingsState;
}

const count = z.number().int().nonnegative();
const perSeat = z.tuple([count, count]);
const forfeits = z.object({ timeout: count, crash: count, 'illegal-move': count });
/** What `FoldState` must look like to be taken up (a checkpoint is sealed, but may come from another version). */
const FOLD_STATE = z.object({
  done: count,
  byTermination: z.object({ normal: count, timeout: count, crash: count, 'illegal-move': count, adjudicated: count }),
  time: z.tuple([count, count, count, count]),
  standings: z.object({
    variants: z.array(z.string()),
    cells: z.array(
      z.object({
        variant: z.string(),
        first: z.string(),
        second: z.string(),
        games: count,
        firstWins: count,
        draws: count,
        secondWins: count,
        scoredGames: count,
        firstMarginSum: z.number().int(),
        forfeits: z.tuple([forfeits, forfeits]),
        moves: perSeat,
        totalUs: perSeat,
        maxUs: perSeat,
        judged: perSeat,
        accurate: perSeat,
        blunders: perSeat,
        hasSolver: z.boolean(),
      }),
    ),
    pairCells: z.array(z.object({ variant: z.string(), a: z.string(), b: z.string(), counts: z.tuple([count, count, count, count, count]) })),
    halves: z.array(z.tuple([z.string(), z.string(), z.string(), count, z.number()])),
  }),
});

/** A run's fold (see the module's comment). */
export class TournamentFold {
  readonly standings: StandingsBuilder;
  readonly byTermination: TerminationCounts = { normal: 0, timeout: 0, crash: 0, 'illegal-move': 0, adjudicated: 0 };
  /** Games folded. */
  done = 0;
  readonly #sprt: SprtBook | null;
  /** Think time and arena overhead of the moves played under a time control (`ovh` in the records). */
  readonly #time = new TimeTally();
  /** Each worker's games and faults (queued tournaments). */
  readonly #workers = new WorkerTally();
  readonly #anchor: Anchor | undefined;

  constructor(setup: FoldSetup) {
    this.#anchor = setup.anchor;
    this.standings = new StandingsBuilder(setup.bots, setup.variants);
    this.#sprt = setup.sprt ? new SprtBook(setup.schedule, setup.sprt) : null;
  }

  /**
   * Folds a finished game (interrupted ones are ignored). `judgement`: what a judge found that
   * followed it as it was played (absent: it is replayed from its record). Returns the sequential
   * test of its pairing when the game completed a pair that moved it.
   */
  add(rec: GameRecord, judgement?: GameJudgement): SprtResult | null {
    if (rec.termination === 'interrupted') return null;
    this.done++;
    this.byTermination[rec.termination]++;
    this.#time.add(rec);
    this.#workers.add(rec);
    const pair = this.standings.add(rec, judgement);
    return pair && this.#sprt ? this.#sprt.add(pair) : null;
  }

  /** A judge for a game of `variant` about to be played here (the match's observer; see `add`). */
  follow(variant: string): MoveJudge {
    return this.standings.judge(variant).follow();
  }

  /** Whether the pairing of these two bots has decided (its remaining pairs are not played). */
  decided(a: string, b: string): boolean {
    return this.#sprt?.decided(a, b) ?? false;
  }

  /** Every pairing's sequential test (none without one). */
  sprt(): SprtResult[] | undefined {
    return this.#sprt?.results();
  }

  /** The time tally of the games under a time control (undefined when none was). */
  time(): TimeTotals | undefined {
    return this.#time.totals() ?? undefined;
  }

  /** Each worker's sums and checks as they stand (every game folded so far, a resumed run's log included). */
  get workerHealth(): WorkerHealthView {
    return this.#workers;
  }

  /** Each worker's health (undefined when no game was played on a worker). */
  workers(): Record<string, WorkerHealth> | undefined {
    return this.#workers.totals() ?? undefined;
  }

  /**
   * What the fold holds, as plain data (what a checkpoint keeps), or null when it runs sequential
   * tests (their pairs wait in schedule order, which a checkpoint does not keep) or holds games
   * played on queue workers (their health is not kept either): resume then reads the log.
   */
  state(): FoldState | null {
    if (this.#sprt || this.#workers.totals() !== null) return null;
    return { done: this.done, byTermination: { ...this.byTermination }, time: this.#time.state(), standings: this.standings.state() };
  }

  /**
   * Takes up a `state` on a fold that has folded nothing: it then stands where the fold that made
   * it stood. False, and nothing changed, when the state is not one (or this fold runs sequential tests).
   */
  restore(state: unknown): boolean {
    if (this.#sprt || this.done !== 0) return false;
    const parsed = FOLD_STATE.safeParse(state);
    if (!parsed.success) return false;
    const s = parsed.data;
    this.done = s.done;
    Object.assign(this.byTermination, s.byTermination);
    this.#time.restore(s.time);
    this.standings.restore(s.standings);
    return true;
  }

  /** The standings so far, every table's ratings shifted to the anchor when there is one. */
  snapshot(): Standings {
    const s = this.standings.snapshot();
    return this.#anchor ? anchorStandings(s, this.#anchor) : s;
  }
}

/** A pairing's sequential test as the fold keeps it. */
interface PairingTest {
  readonly a: string;
  readonly b: string;
  readonly test: SprtTest;
  /** Completed pairs wait here until every earlier pair of the pairing is folded. */
  readonly order: InOrder<PairScore>;
  /** The pairing's pair ordinal of a deal of a variant it plays: its pairs numbered in schedule order. */
  readonly ordinal: (variant: string, deal: number) => number;
}

/**
 * One sequential test per pairing of a gauntlet (the champion against each other bot), fed whole
 * pairs in schedule order: a pair's place is fixed by the schedule, so the decision never depends
 * on which game finished first, and a resumed run folds the same pairs again to the same state.
 */
class SprtBook {
  readonly #tests = new Map<string, PairingTest>();

  constructor(input: ScheduleInput, config: SprtConfig) {
    const bots = input.bots;
    for (const [i, j] of pairings(bots, input.champion)) {
      const a = bots[i]!;
      const b = bots[j]!;
      // The variants both play, in schedule order: variant by variant, each deal's pair follows the
      // last; deal by deal, each variant's pair of a deal follows the other variants' ones.
      const played = input.variants.filter((v) => !input.supports || (input.supports(a, v) && input.supports(b, v)));
      const rank = new Map(played.map((v, k) => [v, k]));
      const ordinal = input.interleave
        ? (v: string, deal: number) => deal * played.length + rank.get(v)!
        : (v: string, deal: number) => rank.get(v)! * input.deals + deal;
      this.#tests.set(`${a.label}\t${b.label}`, { a: a.label, b: b.label, test: new SprtTest(config), order: new InOrder(), ordinal });
    }
  }

  decided(a: string, b: string): boolean {
    return this.#tests.get(`${a}\t${b}`)?.test.decided ?? false;
  }

  /** Folds a completed pair; returns the pairing's test when it moved. */
  add(pair: CompletedPair): SprtResult | null {
    const p = this.#tests.get(`${pair.a}\t${pair.b}`);
    if (!p) return null;
    const ready = p.order.offer(p.ordinal(pair.variant, pair.deal), pair.score);
    for (const score of ready) p.test.update(score);
    return ready.length > 0 ? { a: p.a, b: p.b, ...p.test.status } : null;
  }

  results(): SprtResult[] {
    return [...this.#tests.values()].map((p) => ({ a: p.a, b: p.b, ...p.test.status }));
  }
}
