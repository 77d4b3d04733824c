/** Messages between a bot host and its worker threads (see `worker-host.ts`, `bot-worker.ts`). */
import type { Seat } from '../core/game.ts';

/** `workerData` of a bot worker: the bot module to load and its options. */
export interface WorkerInit {
  readonly file: string;
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** A new game for the bot: its variant, seat and generator seed. */
export interface OpenGame {
  readonly variant: string;
  readonly seat: Seat;
  readonly seed: number;
}

/**
 * Runner → worker: run the bot's `prepare` for a variant, or ask for a move. The first move
 * request of a game carries the game (`open`), saving a message per game.
 */
export type ToWorker =
  | { readonly t: 'prepare'; readonly id: number; readonly variant: string }
  | {
      readonly t: 'move';
      readonly id: number;
      readonly state: unknown;
      readonly moves: readonly unknown[];
      readonly deadline: number;
      readonly open?: OpenGame;
    };

/**
 * Worker → runner: loaded (and whether the bot has a `prepare`), could not load, prepared, a move,
 * a thrown error (from `choose` or `prepare`), or an unsendable reply.
 */
export type FromWorker =
  | { readonly t: 'ready'; readonly prepares: boolean }
  | { readonly t: 'prepared'; readonly id: number }
  | { readonly t: 'fatal'; readonly reason: string }
  | { readonly t: 'move'; readonly id: number; readonly move: unknown }
  | { readonly t: 'error'; readonly id: number; readonly reason: string }
  | { readonly t: 'garbage'; readonly id: number; readonly reason: string };
