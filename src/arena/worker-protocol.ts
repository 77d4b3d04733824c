/** Messages between a bot host and its worker threads (see `worker-host.ts`, `bot-worker.ts`). */
import type { Seat } from '../core/game.ts';

/** `workerData` of a bot worker: the bot module to load and its options. */
export interface WorkerInit {
  readonly file: string;
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
}

/** Runner → worker: start a game (no reply), or ask for a move. */
export type ToWorker =
  | { readonly t: 'open'; readonly variant: string; readonly seat: Seat; readonly seed: number }
  | { readonly t: 'move'; readonly id: number; readonly state: unknown; readonly moves: readonly unknown[]; readonly deadline: number };

/** Worker → runner: loaded, could not load, a move, a thrown error, or an unsendable reply. */
export type FromWorker =
  | { readonly t: 'ready' }
  | { readonly t: 'fatal'; readonly reason: string }
  | { readonly t: 'move'; readonly id: number; readonly move: unknown }
  | { readonly t: 'error'; readonly id: number; readonly reason: string }
  | { readonly t: 'garbage'; readonly id: number; readonly reason: string };
