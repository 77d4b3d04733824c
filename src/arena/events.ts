/**
 * Events a tournament emits to a sink (fastchess `IOutput`): the plain reporter prints them, the
 * Ink dashboard renders them. Sinks only read events; they never drive rules or play.
 *
 * Order for each game: `game-started`, then one `move` per ply (only for sinks with
 * `detail: 'moves'`), then `game-ended` once its line is durable in `games.jsonl`. A game that is
 * cut short by an interruption ends with `game-aborted` instead and is replayed on resume.
 */
import type { Seat } from '../core/game.ts';
import type { GameRecord } from './match.ts';
import type { Standings } from './standings.ts';
import type { TournamentSummary } from './summary.ts';

/** The first event: what will be played. */
export interface TournamentStartedEvent {
  readonly type: 'tournament-started';
  readonly name: string;
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
  readonly isolation: 'worker' | 'none';
}

/** A bot could not be loaded: it forfeits every game (reported once, here). */
export interface BotFailedEvent {
  readonly type: 'bot-failed';
  readonly bot: string;
  readonly reason: string;
}

/** The position of a live game, for boards. */
export interface LivePosition {
  /** The game's `toJSON(state)`. */
  readonly state: unknown;
  /** The game's `describe(state)`: one line of text. */
  readonly text: string;
  /** Whose turn it is, or null when the game is over. */
  readonly toMove: Seat | null;
  /** Bot label of the seat to move, or null. */
  readonly toMoveBot: string | null;
}

/** A game begins (sinks with `detail: 'moves'` only). */
export interface GameStartedEvent {
  readonly type: 'game-started';
  readonly index: number;
  readonly key: string;
  /** The variant id. */
  readonly variant: string;
  readonly deal: number;
  /** Bot label in each seat. */
  readonly seats: { readonly first: string; readonly second: string };
  /** The dealt start position. */
  readonly position: LivePosition;
}

/** A move was played (sinks with `detail: 'moves'` only). */
export interface MoveEvent {
  readonly type: 'move';
  readonly index: number;
  readonly key: string;
  readonly variant: string;
  /** Ply number, 1 for the first move. */
  readonly ply: number;
  /** Who moved, and the bot's label. */
  readonly seat: Seat;
  readonly bot: string;
  /** The move in GAMES.md notation. */
  readonly move: string;
  /** Time the bot took, ms. */
  readonly ms: number;
  /** The position after the move. */
  readonly position: LivePosition;
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
  readonly done: number;
  readonly total: number;
}

/** The last event. `interrupted`: stopped early (SIGINT); `resume` is the command to continue. */
export interface FinishedEvent {
  readonly type: 'finished';
  readonly summary: TournamentSummary;
  readonly dir: string;
  readonly interrupted: boolean;
  /** Set when interrupted: the command line that continues the tournament. */
  readonly resume: string | null;
}

/** Everything a tournament reports. */
export type ArenaEvent =
  | TournamentStartedEvent
  | BotFailedEvent
  | GameStartedEvent
  | MoveEvent
  | GameEndedEvent
  | GameAbortedEvent
  | StandingsEvent
  | FinishedEvent;

/** A consumer of events. */
export interface EventSink {
  /**
   * `games` (default): no `game-started`/`move` events, so play pays nothing per move;
   * `moves`: every game start and move with its position (the dashboard).
   */
  readonly detail?: 'games' | 'moves';
  /** Receives one event; must not throw (errors are the sink's own business). */
  emit(event: ArenaEvent): void;
}


/** Fans events out to several sinks. */
export function teeSink(...sinks: readonly EventSink[]): EventSink {
  return {
    detail: sinks.some((s) => s.detail === 'moves') ? 'moves' : 'games',
    emit(event) {
      for (const s of sinks) {
        if ((event.type === 'move' || event.type === 'game-started') && s.detail !== 'moves') continue;
        s.emit(event);
      }
    },
  };
}
