/**
 * Messages between a bot host and its worker threads (see `worker-host.ts`, `bot-worker.ts`).
 *
 * Start-up (`ready`, `fatal`) goes over the worker's ordinary message port. Requests and replies go
 * over a private channel built for latency: each side posts the message on a `MessageChannel` port
 * that nobody listens to, then bumps a sequence number in a SharedArrayBuffer and wakes the other
 * side with `Atomics.notify`; the receiver takes the message synchronously with
 * `receiveMessageOnPort`. That skips the event-loop dispatch of `postMessage` (about two thirds of
 * its round trip here) while keeping structured cloning, so a bot still only ever sees copies.
 *
 * A thread plays many games at once (each in its own slot, with its own generator). The worker runs
 * the requests in order, each with its own limit from when it begins, and posts each reply as it is
 * made. It is woken only when it sleeps (`SLEEPING`), and it wakes the runner only when it runs out
 * of work: requests that come while it is busy cost no wake-up, so a fast bot's many games share
 * each one.
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

/** A thread's request/reply channel: its shared memory (`channelMemory`) and the worker's port. */
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

/** Slot of the id of the latest request sent (written by the runner, waited on by the worker). */
export const REQUEST = 0;
/** Slot of the id of the latest request answered when the worker last ran out of work (written by the worker, waited on by the runner). */
export const REPLY = 1;
/** Slot of the id of the request the worker is running (or last ran): its watchdog's subject. */
export const CURRENT = 2;
/** Slot set (1) while the worker sleeps: only then does the runner need to wake it. */
export const SLEEPING = 3;

/** Slots of the reply ring's next entry to write (worker) and to read (runner). */
export const RING_WRITE = 4;
export const RING_READ = 5;

/**
 * The shared memory of a thread's channel: `ctl` (the `Int32Array` slots above), `start` (when the
 * worker began the `CURRENT` request, in ms on the clock both threads share:
 * `performance.timeOrigin + performance.now()`), `rng`: for each game slot, 4 words of the bot's
 * generator as it stood after the slot's last move, so a game outlives the thread it was playing on;
 * and the reply ring: the replies whose move is a 32-bit integer (most games' moves) as
 * `ringInts` [id, move] and `ringThink` (ms), `ringSize` entries, so the commonest reply costs no
 * message. Every other reply goes on the port.
 */
export interface ChannelMemory {
  readonly ctl: Int32Array;
  readonly start: Float64Array;
  readonly rng: Int32Array;
  readonly ringInts: Int32Array;
  readonly ringThink: Float64Array;
  readonly ringSize: number;
}

/** The channel's fixed part: the six `ctl` slots and `start`. */
const HEADER_BYTES = 32;
/** Per game slot: its generator (16 bytes) and a ring entry ([id, move] 8 bytes, think time 8). */
const SLOT_BYTES = 32;

/**
 * A channel's shared memory for `slots` games at once. A game has at most one move request out at a
 * time, so a ring of `slots` entries never fills (the worker still checks, and uses the port then).
 */
export function channelBuffer(slots: number): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + SLOT_BYTES * slots);
}

/** Lays the channel's memory out on `sab` (made by `channelBuffer`). */
export function channelMemory(sab: SharedArrayBuffer): ChannelMemory {
  const slots = (sab.byteLength - HEADER_BYTES) / SLOT_BYTES;
  return {
    ctl: new Int32Array(sab, 0, 6),
    start: new Float64Array(sab, 24, 1),
    rng: new Int32Array(sab, HEADER_BYTES, 4 * slots),
    ringInts: new Int32Array(sab, HEADER_BYTES + 16 * slots, 2 * slots),
    ringThink: new Float64Array(sab, HEADER_BYTES + 24 * slots, slots),
    ringSize: slots,
  };
}

/** Now on the clock both threads share (ms; `performance.now()` alone counts from each thread's own start). */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * How long the runner busy-waits for a reply before sleeping (ms), when its bot plays one game at a
 * time: a fast bot answers within a few tens of microseconds, and waking a sleeping thread costs
 * about 10 µs here. With several games in flight the runner never spins: it has other games to
 * move, and their requests go out together in the next batch.
 */
export const RUNNER_SPIN_MS = 0.05;

/**
 * A new game for the bot in a slot: its variant, seat and generator, from the seed (a game's first
 * move) or from where the generator had got to (`rng`: a game moved from a thread that died).
 */
export interface OpenGame {
  readonly variant: string;
  readonly seat: Seat;
  readonly seed: number;
  readonly rng?: readonly number[];
}

/**
 * Runner → worker, one message per request (each its own structured copy, so no two games' bots
 * can ever share an object: a bot that vandalises its inputs reaches only its own): run the bot's
 * `prepare` for a variant, or ask for a move in a game slot. Ids go up by one; the runner posts a
 * request before its id goes into `REQUEST`.
 */
export type Request =
  | { readonly t: 'prepare'; readonly id: number; readonly variant: string; readonly limitMs: number }
  | {
      readonly t: 'move';
      readonly id: number;
      readonly slot: number;
      readonly state: unknown;
      readonly moves: readonly unknown[];
      /** The move's limit: the bot's deadline is this long after the worker begins the request. */
      readonly limitMs: number;
      /** The game, on its first request in this slot. */
      readonly open?: OpenGame;
      /** The bot's bank under a time control (`ctx.clock`). */
      readonly clock?: BotClock;
    };

/** Worker → runner at start-up, on the worker's port: loaded (and whether the bot has a `prepare`), or could not load. */
export type StartMessage = { readonly t: 'ready'; readonly prepares: boolean } | { readonly t: 'fatal'; readonly reason: string };

/**
 * Worker → runner on the channel, one per request as soon as it is answered (so the answers already
 * given survive the thread being cut off later): prepared, a move, a thrown error
 * (from `choose` or `prepare`), or an unsendable reply.
 */
export type Reply =
  | { readonly t: 'prepared'; readonly id: number; readonly think: number }
  | {
      readonly t: 'move';
      readonly id: number;
      readonly move: unknown;
      /** The bot's think time (ms), timed on its own thread around `choose`. */
      readonly think: number;
      /** The bot's clock, not its own budget, ended its search (`ctx.clockStopped`). */
      readonly clock?: true;
    }
  | { readonly t: 'error'; readonly id: number; readonly reason: string; readonly think: number }
  | { readonly t: 'garbage'; readonly id: number; readonly reason: string; readonly think: number };

/** Busy-waits up to `ms` for `ctl[slot]` to leave `seen`; true when it did. */
export function spinWhile(ctl: Int32Array, slot: number, seen: number, ms: number): boolean {
  if (Atomics.load(ctl, slot) !== seen) return true;
  const until = performance.now() + ms;
  do {
    if (Atomics.load(ctl, slot) !== seen) return true;
  } while (performance.now() < until);
  return false;
}
