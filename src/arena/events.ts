/**
 * Events a tournament emits to a sink (fastchess `IOutput`): the plain reporter prints them, the
 * Ink dashboard renders them. Sinks only read events; they never drive rules or play.
 *
 * Order for each game: `game-started` (only for sinks with `detail: 'live'`), then `game-ended`
 * once its line is durable in `games.jsonl`. A game that is cut short by an interruption ends with
 * `game-aborted` instead and is replayed on resume. Moves are not events: they come thousands a
 * second, and a sink that draws positions polls each game's `LiveGame` when it draws instead.
 */
import type { Seat } from '../core/game.ts';
import type { GameRecord } from './match.ts';
import type { DropCounts } from './results/index.ts';
import type { Standings } from './fold/standings.ts';
import type { FormatStandings } from './staged/format.ts';
import type { SprtResult, TournamentSummary } from './summary.ts';

/** The first event: what will be played. */
export interface TournamentStartedEvent {
  readonly type: 'tournament-started';
  readonly name: string;
  /** The master seed: every deal and bot seed derives from it. */
  readonly seed: number;
  /** The results folder. */
  readonly dir: string;
  /** Bot labels, in spec order. */
  readonly bots: readonly string[];
  /** Variant ids, in spec order. */
  readonly variants: readonly string[];
  /** Games in the whole schedule. */
  readonly total: number;
  /** Games already in the log (resume), not played again. */
  readonly done: number;
  readonly concurrency: number;
  readonly isolation: 'worker' | 'none' | 'sandbox';
  /**
   * On resume, the log lines that could not be trusted (garbage, a failed checksum, a duplicate
   * key, a game not in the schedule, a write cut short), per reason, and the file they were moved
   * to; absent when every line verified.
   */
  readonly repaired?: { readonly dropped: DropCounts; readonly quarantine: string };
  /**
   * The standings as they stand now, for a sink that draws them: call it when drawing, not per
   * event (it costs a snapshot of the fold). They count exactly the games whose `game-ended` has
   * been sent, where the throttled `standings` events lag behind them.
   */
  readonly standingsNow?: () => Omit<StandingsEvent, 'type'>;
}

/** A bot could not be loaded: it forfeits every game (reported once, here). */
export interface BotFailedEvent {
  readonly type: 'bot-failed';
  readonly bot: string;
  readonly reason: string;
}

/** A bot's store (`ctx.store`) was corrupt or over its cap when the run began: it was emptied. */
export interface BotStoreResetEvent {
  readonly type: 'bot-store-reset';
  readonly bot: string;
  /** What was wrong, with the folder. */
  readonly reason: string;
}

/** The position of a live game, for boards. */
export interface LivePosition {
  /** The game's `toJSON(state)`. */
  readonly state: unknown;
  /** The game's `describe(state)`: a line of text (a user's game may give several). */
  readonly text: string;
  /** Whose turn it is, or null when the game is over. */
  readonly toMove: Seat | null;
  /** Bot label of the seat to move, or null. */
  readonly toMoveBot: string | null;
}

/** The last move of a live game: who played it, in GAMES.md notation, and the time the bot took (ms). */
export interface LiveMove {
  readonly seat: Seat;
  readonly bot: string;
  readonly move: string;
  readonly ms: number;
}

/** A live game as it stood when `LiveGame.snapshot()` was called: plain data. */
export interface LiveSnapshot {
  /** Moves played so far. */
  readonly ply: number;
  readonly position: LivePosition;
  /** The `toJSON` of the position before the last move (boards mark what it took), or null at the start. */
  readonly prevState: unknown;
  /** Null before the first move. */
  readonly last: LiveMove | null;
}

/**
 * A game in flight, as the runner keeps it: the match updates it in place after every move (a few
 * references and numbers), and nothing is serialised until someone asks. Read it when drawing
 * (every ~100 ms), not per move; it stops changing once the game is over.
 */
export interface LiveGame {
  /** Moves played so far: cheap, so a sink can tell whether a game moved since its last snapshot. */
  readonly ply: number;
  /** Whether the game has ended (its `game-ended` may come later, after the group commit). */
  readonly over: boolean;
  /** Serialises the game as it stands now. */
  snapshot(): LiveSnapshot;
}

/**
 * A game begins (sinks with `detail: 'live'` only). Its `live` view shows the game as it stands
 * whenever it is read: in-process bots may have played the whole game before the sink hears of it.
 */
export interface GameStartedEvent {
  readonly type: 'game-started';
  readonly index: number;
  readonly key: string;
  /** The variant id. */
  readonly variant: string;
  readonly deal: number;
  /** Bot label in each seat. */
  readonly seats: { readonly first: string; readonly second: string };
  /** The game in flight, to poll. */
  readonly live: LiveGame;
  /**
   * The `arena worker` playing it (queued tournaments): its view is the worker's last published
   * position, refreshed about ten times a second, not every move.
   */
  readonly worker?: string;
  /**
   * Games the local pool keeps in flight as this one starts: the spec's `concurrency`, or as many
   * as the pool has learned pay (in-flight.ts).
   */
  readonly inFlight?: number;
}

/** A game finished and its line is on disk. */
export interface GameEndedEvent {
  readonly type: 'game-ended';
  /** Exactly the line written to `games.jsonl`. */
  readonly record: GameRecord;
  /** Games finished so far (including resumed ones) and in all. */
  readonly done: number;
  readonly total: number;
}

/** A game was cut short by an interruption; it is not a result and resume replays it. */
export interface GameAbortedEvent {
  readonly type: 'game-aborted';
  readonly index: number;
  readonly key: string;
}

/** Standings so far (throttled while running; always once at the end). */
export interface StandingsEvent {
  readonly type: 'standings';
  readonly standings: Standings;
  /** A Swiss's score table or a knockout's bracket, with those formats. */
  readonly format?: FormatStandings;
  readonly done: number;
  readonly total: number;
}

/**
 * A pairing's sequential test moved: sent once per pairing when the tournament starts (as it
 * stands, after resume), then after each game pair folded in schedule order. The last one of a
 * pairing has `decision` set when the test ended with one.
 */
export interface SprtEvent {
  readonly type: 'sprt';
  readonly result: SprtResult;
}

/** The last event. `interrupted`: stopped early (SIGINT); the results folder `dir` can be resumed. */
export interface FinishedEvent {
  readonly type: 'finished';
  readonly summary: TournamentSummary;
  readonly dir: string;
  readonly interrupted: boolean;
}

/** A worker of a queued tournament, as the coordinator sees it. */
export interface WorkerStatus {
  readonly id: string;
  readonly host: string;
  /** `working`, `idle`, `stopping` or `reconnecting`, as the worker last said. */
  readonly state: string;
  /** Games it played for this tournament. */
  readonly games: number;
  /** Seconds since its heartbeat last changed, on the coordinator's clock. */
  readonly lastBeatS: number;
}

/** The coordinator's link to Redis changed (queued tournaments only). */
export interface QueueLinkEvent {
  readonly type: 'queue-link';
  readonly state: 'connecting' | 'connected' | 'reconnecting';
  /** The last connection error while reconnecting, or what was done on reconnecting. */
  readonly detail: string;
  readonly url: string;
}

/** Workers and queue of a queued tournament (about once a second). */
export interface QueueStatusEvent {
  readonly type: 'queue-status';
  readonly link: 'connecting' | 'connected' | 'reconnecting';
  readonly detail: string;
  readonly workers: readonly WorkerStatus[];
  /** Pairs handed to the queue and not yet folded. */
  readonly queued: number;
}

/** A worker could not play a job (a refused bundle, a missing external bot), or the queue itself needs the user (no worker, another coordinator). */
export interface QueueProblemEvent {
  readonly type: 'queue-problem';
  /** The worker it is about; absent for the queue's own. */
  readonly worker?: string;
  readonly reason: string;
}

/** Everything a tournament reports. */
export type ArenaEvent =
  | TournamentStartedEvent
  | BotFailedEvent
  | BotStoreResetEvent
  | GameStartedEvent
  | GameEndedEvent
  | GameAbortedEvent
  | StandingsEvent
  | SprtEvent
  | QueueLinkEvent
  | QueueStatusEvent
  | QueueProblemEvent
  | FinishedEvent;

/** A consumer of events. */
export interface EventSink {
  /**
   * `games` (default): no `game-started` events, so play pays nothing for watchers;
   * `live`: every game start with a `LiveGame` to poll for its position (the dashboard).
   */
  readonly detail?: 'games' | 'live';
  /** Receives one event; must not throw (errors are the sink's own business). */
  emit(event: ArenaEvent): void;
}
