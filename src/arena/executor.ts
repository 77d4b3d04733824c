/**
 * The seam between the runner and whatever plays the games (DESIGN.md "Growing past one machine").
 * The runner owns the schedule, the results log and the standings; an executor pulls game pairs
 * from it, has them played (a local pool of concurrent matches, or a Redis queue feeding
 * `arena worker` processes), and hands back each finished game. The runner folds every result
 * once, by its place in the schedule, so a result that arrives twice (a retried job) is harmless.
 */
import type { AnyGame } from '../core/game.ts';
import type { Isolation } from '../hosting/index.ts';
import type { ArenaEvent } from './events.ts';
import type { GameRecord } from './match.ts';
import type { PauseGate } from './pause.ts';
import type { PairJob } from './schedule.ts';
import type { MoveJudge } from './standings.ts';

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
  /** End games whose exact value the variant's solver knows (`--adjudicate`; see `exactJudge`). */
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
  /** Sends an event to the run's sink. */
  emit(event: ArenaEvent): void;
  /**
   * The next pair with a game still to play, in schedule order, or null once the schedule is
   * exhausted (or the run must stop: interrupted, early stop, a failed log).
   */
  nextPair(): PairJob | null;
  /**
   * Whether a pair handed out earlier is no longer wanted: neither game is played and its pairing's
   * sequential test has decided. An executor that can still withdraw it (a queued job not started)
   * does so and calls `skip`.
   */
  unwanted(pair: PairJob): boolean;
  /**
   * The standings' accuracy judge of the games of a variant played here, made from each game's
   * dealt position: handed to their matches (`MatchOptions.judgeInPlay`), it spares the standings
   * a replay of each finished game.
   */
  judgeInPlay(variant: string, game: AnyGame): (start: unknown) => MoveJudge;
  /** Counts a withdrawn pair's two games as skipped (not played, not missing). */
  skip(pair: PairJob): void;
  /** Whether the game at this schedule index is already folded (in the log before a resume, or played meanwhile). */
  isDone(index: number): boolean;
  /**
   * Folds one finished game: appended to the log once per schedule index (later copies are
   * dropped) and reported once its line is durable. Returns a promise when the log is behind:
   * the executor awaits it before handing over more, so unwritten games stay few.
   */
  finish(record: GameRecord): Promise<void> | undefined;
  /** Settles once every game handed over so far is durable in the log. */
  committed(): Promise<void>;
  /** The key of the game at a schedule index (null when there is none): remote results are checked against it. */
  keyAt(index: number): string | null;
  /** A bot that cannot start (it forfeits its games): reported once, kept for the summary. */
  botFailed(bot: string, reason: string): void;
  /** A bot's store had to be emptied (corrupt or over its cap); the bot plays on with an empty one. */
  storeReset(bot: string, reason: string): void;
}

/** Plays a tournament's game pairs: a local pool, or a queue of remote workers. */
export interface Executor {
  /** How many games it plays at once (the dashboard's concurrency). */
  readonly concurrency: number;
  /**
   * Plays pairs from `ctx.nextPair()` until it returns null or the signal aborts, handing every
   * finished game to `ctx.finish`. Resolves once nothing more will be handed over.
   */
  run(ctx: ExecutionContext): Promise<void>;
  /** Releases what it holds (bot hosts, connections); called once, after `run`, even when it threw. */
  close(): Promise<void>;
}
