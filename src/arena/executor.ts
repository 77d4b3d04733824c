/**
 * The seam between the runner and whatever plays the games (DESIGN.md "Growing past one machine").
 * The runner owns the schedule, the results log and the standings; an executor pulls game pairs
 * from it, has them played (a local pool of concurrent matches, or a Redis queue feeding
 * `arena worker` processes), and hands back each finished game. The runner folds every result
 * once, by its place in the schedule, so a result that arrives twice (a retried job) is harmless.
 */
import type { Isolation } from '../hosting/index.ts';
import type { ClockKind } from '../platform/cpu-clock.ts';
import type { ArenaEvent } from './events.ts';
import type { GameRecord } from './match.ts';
import type { PauseGate } from './pause.ts';
import type { PairSource } from './cursor.ts';
import type { GameJudgement, MoveJudge } from './fold/accuracy.ts';
import type { WorkerHealthView } from './summary.ts';

/** How a run's bots are hosted and judged: settings that travel with every pair, whoever plays it. */
export interface PairSettings {
  readonly isolation: Isolation;
  /** Isolation of particular bots, by name (the rest use `isolation`). */
  readonly botIsolation?: Readonly<Record<string, Isolation>>;
  /** CPU seconds per sandboxed process. */
  readonly cpuSeconds?: number;
  /** Tell bots the game's key, which names both bots. */
  readonly revealOpponents?: boolean;
  readonly memoryMb: number;
  readonly prepareTimeoutMs: number;
  /** What bots' moves are charged (the spec's `clock`; each host falls back to the wall clock where there is no CPU clock). */
  readonly clock?: ClockKind;
  /** End games whose exact value the variant's solver knows (`--adjudicate`; see `exactJudge` in fold/accuracy.ts). */
  readonly adjudicate?: boolean;
  /**
   * How far past its limit (per move or bank) a bot may answer before it loses on time, in ms: the
   * spec's `timeMarginMs` (`--time-margin`); absent, `DEFAULT_GRACE_MS`.
   */
  readonly graceMs?: number;
}

/** What the runner offers an executor while it runs. */
export interface ExecutionContext {
  /** Aborting stops the tournament: games in flight are dropped (replayed on resume). */
  readonly signal?: AbortSignal;
  /** Holds back new games while paused. */
  readonly pause?: PauseGate;
  /** Whether the sink watches live games (`game-started` with a live view). */
  readonly wantLive: boolean;
  /** The schedule: the pairs to play, in order. */
  readonly pairs: PairSource;
  /**
   * Sends an event to the run's sink. A `bot-failed` event (a bot that cannot start: it forfeits
   * its games) is also kept for the summary.
   */
  emit(event: ArenaEvent): void;
  /**
   * A judge for a game of `variant` about to be played here: handed to its match as the observer
   * (`playMatch`), its `judgement()` goes with the record to `finish`, which spares the standings a
   * replay of the game.
   */
  follow(variant: string): MoveJudge;
  /**
   * Folds one finished game: appended to the log once per schedule index (later copies are
   * dropped) and reported once its line is durable. `judgement` is what its judge found (see
   * `follow`); a game without one (played elsewhere) is replayed. Returns a promise when the log is
   * behind: the executor awaits it before handing over more, so unwritten games stay few.
   */
  finish(record: GameRecord, judgement?: GameJudgement): Promise<void> | undefined;
  /** Settles once every game handed over so far is durable in the log (rejects when the log failed). */
  committed(): Promise<void>;
  /**
   * Each worker's health over the games folded so far (those a resumed run read from its log
   * included): games played on queue workers, as the summary will count them.
   */
  readonly workers: WorkerHealthView;
}

/** Plays a tournament's game pairs: a local pool, or a queue of remote workers. */
export interface Executor {
  /** How many games it plays at once (the dashboard's concurrency). */
  readonly concurrency: number;
  /**
   * Plays pairs from `ctx.pairs.next()` until it returns null or the signal aborts, handing every
   * finished game to `ctx.finish`. Resolves once nothing more will be handed over.
   */
  run(ctx: ExecutionContext): Promise<void>;
  /** Releases what it holds (bot hosts, connections); called once, after `run`, even when it threw. */
  close(): Promise<void>;
  /** Workers it stopped giving games to, with why (a queue's unhealthy workers), for the summary. */
  pausedWorkers?(): Readonly<Record<string, string>>;
}
