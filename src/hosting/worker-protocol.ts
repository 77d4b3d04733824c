/**
 * Messages between a bot host and its worker threads (see `worker-host.ts`, `bot-worker.ts`).
 *
 * Start-up (`ready`, `fatal`) goes over the worker's ordinary message port. Requests and replies go
 * over a private channel built for latency: each side posts the message on a `MessageChannel` port
 * that nobody listens to, then bumps a sequence number in a SharedArrayBuffer and wakes the other
 * side with `Atomics.notify`; the receiver takes the message synchronously with
 * `receiveMessageOnPort`. That skips the event-loop dispatch of `postMessage` (about two thirds of
 * its round trip here) while keeping structured cloning, so a bot still only ever sees copies.
 */
import type { MessagePort } from 'node:worker_threads';
import type { BotClock } from '../core/bot.ts';
import type { Seat } from '../core/game.ts';
import type { StoreLocation, StoreSnapshot } from '../platform/bot-store.ts';
import type { StoreBridgeEnd } from '../platform/store-bridge.ts';

/** `workerData` of a bot worker: the bot module to load and its options. */
export interface WorkerInit {
  readonly file: string;
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** The bot's store: its folder (null: in memory) and the snapshot every thread of the run reads. */
  readonly store: { readonly location: StoreLocation | null; readonly snapshot: StoreSnapshot };
}

/** A thread's request/reply channel: `Int32Array` slots `REQUEST` and `REPLY` of `sab`, and the worker's port. */
export interface WorkerChannel {
  readonly sab: SharedArrayBuffer;
  readonly port: MessagePort;
}

/** What a bot worker gets as `workerData`. */
export interface WorkerData extends WorkerInit {
  readonly channel: WorkerChannel;
  /** The thread's bridge to its store's live copy, when that is held elsewhere (a queued run). */
  readonly storeBridge?: StoreBridgeEnd;
}

/** Slot of the id of the latest request (written by the runner, waited on by the worker). */
export const REQUEST = 0;
/** Slot of the id of the latest reply (written by the worker, waited on by the runner). */
export const REPLY = 1;

/**
 * How long each side busy-waits for the other before sleeping in `Atomics.wait` (ms). A fast bot
 * answers, and the runner asks again, within a few tens of microseconds; waking a sleeping thread
 * costs about 10 µs here, so a short spin saves most of a round trip and costs nothing measurable
 * when bots are slow.
 */
export const RUNNER_SPIN_MS = 0.05;
export const WORKER_SPIN_MS = 0;

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
      /** The bot's bank under a time control (`ctx.clock`): the worker then times `choose` itself. */
      readonly clock?: BotClock;
    };

/** Worker → runner at start-up, on the worker's port: loaded (and whether the bot has a `prepare`), or could not load. */
export type StartMessage = { readonly t: 'ready'; readonly prepares: boolean } | { readonly t: 'fatal'; readonly reason: string };

/**
 * Worker → runner on the channel: prepared, a move, a thrown error (from `choose` or `prepare`),
 * or an unsendable reply.
 */
export type Reply =
  | { readonly t: 'prepared'; readonly id: number }
  | {
      readonly t: 'move';
      readonly id: number;
      readonly move: unknown;
      /** The bot's clock, not its own budget, ended its search (`ctx.clockStopped`). */
      readonly clock?: true;
      /** Under a time control: the bot's think time (ms), timed on its own thread around `choose`. */
      readonly think?: number;
    }
  | { readonly t: 'error'; readonly id: number; readonly reason: string }
  | { readonly t: 'garbage'; readonly id: number; readonly reason: string };

/** Busy-waits up to `ms` for `ctl[slot]` to leave `seen`; true when it did. */
export function spinWhile(ctl: Int32Array, slot: number, seen: number, ms: number): boolean {
  if (Atomics.load(ctl, slot) !== seen) return true;
  const until = performance.now() + ms;
  do {
    if (Atomics.load(ctl, slot) !== seen) return true;
  } while (performance.now() < until);
  return false;
}
