/**
 * The workers' games in flight as the coordinator's dashboard sees them: each worker publishes its
 * games' positions (`LiveMessage`), and they are mapped onto the events a local pool sends.
 */
import type { Redis } from 'ioredis';
import type { LiveGame, LiveSnapshot } from '../events.ts';
import type { ExecutionContext } from '../executor.ts';
import { liveChannel, redisAway, type LiveMessage } from './protocol.ts';

/** A game in flight on a worker, as its last live message showed it: what the dashboard polls. */
class RemoteLive implements LiveGame {
  readonly worker: string;
  over = false;
  #snapshot: LiveSnapshot;

  constructor(worker: string, snapshot: LiveSnapshot) {
    this.worker = worker;
    this.#snapshot = snapshot;
    this.over = snapshot.position.toMove === null;
  }

  get ply(): number {
    return this.#snapshot.ply;
  }

  update(snapshot: LiveSnapshot): void {
    this.#snapshot = snapshot;
    if (snapshot.position.toMove === null) this.over = true;
  }

  snapshot(): LiveSnapshot {
    return this.#snapshot;
  }
}

/** The boards of the workers' games in flight, by schedule index. */
export class RemoteBoards {
  readonly #boards = new Map<number, RemoteLive>();
  #sub: Redis | null = null;

  /** A game's result is in: its board is not shown again. */
  folded(index: number): void {
    this.#boards.delete(index);
  }

  /**
   * Subscribes to the workers' live games: a `game-started` (with the worker's name) for each game
   * first heard of, a view refreshed by every later message, a `game-aborted` for a game a worker
   * stopped. A game already folded is never shown again (a late message), and anything malformed
   * is ignored: live boards are only a view.
   */
  async watch(redis: Redis, id: string, ctx: ExecutionContext): Promise<void> {
    const sub = redis.duplicate({ connectionName: `take-arena-live-${id}` });
    this.#sub = sub;
    sub.on('error', redisAway); // ioredis subscribes again on reconnecting
    sub.on('message', (_channel: string, text: string) => {
      const message = parseLive(text);
      if (message) this.#heard(message, ctx);
    });
    await sub.subscribe(liveChannel(id)).catch(redisAway);
  }

  #heard(message: LiveMessage, ctx: ExecutionContext): void {
    for (const g of message.games) {
      if (typeof g?.index !== 'number' || ctx.pairs.isDone(g.index) || ctx.pairs.keyAt(g.index) !== g.key) continue;
      const known = this.#boards.get(g.index);
      if (known && known.worker === message.worker) {
        known.update(g.snapshot);
        continue;
      }
      // New, or played again elsewhere (a retried pair): a board of its own.
      const live = new RemoteLive(message.worker, g.snapshot);
      this.#boards.set(g.index, live);
      ctx.emit({ type: 'game-started', index: g.index, key: g.key, variant: g.variant, deal: g.deal, seats: g.seats, live, worker: message.worker });
    }
    for (const index of message.aborted) {
      const known = this.#boards.get(index);
      if (!known || known.worker !== message.worker) continue;
      this.#boards.delete(index);
      known.over = true;
      ctx.emit({ type: 'game-aborted', index, key: ctx.pairs.keyAt(index) ?? '' });
    }
  }

  /** No board after the run: late live messages are not heard. */
  stop(): void {
    this.#sub?.disconnect();
  }
}

/** A live message, or null when it is not one. */
function parseLive(text: string): LiveMessage | null {
  try {
    const message = JSON.parse(text) as LiveMessage;
    return Array.isArray(message.games) && Array.isArray(message.aborted) ? message : null;
  } catch {
    return null; // not JSON: not a message of ours
  }
}
