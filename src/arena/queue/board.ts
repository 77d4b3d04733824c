/**
 * The workers as the coordinator's dashboard shows them: their heartbeats, and the games each has
 * played for this tournament (counted here from the results folded, so a worker spends no round
 * trip on it; carried over from before a `--resume`, and copied to Redis for `arena queue status`).
 */
import type { Redis } from 'ioredis';
import type { WorkerStatus } from '../events.ts';
import { gamesKey, WORKERS_KEY, type WorkerBeat } from './protocol.ts';

/** A worker silent this long (s) with no games here drops off the list (`queue clean` retires it from Redis). */
const GONE_AFTER_S = 60;

/** The workers of one tournament (see the module's comment). */
export class WorkerBoard {
  readonly #redis: Redis;
  readonly #id: string;
  readonly #games: Map<string, number>;
  #changed = false;
  /** When each worker's heartbeat last changed, on this clock. */
  readonly #seen = new Map<string, { beat: number; at: number }>();

  private constructor(redis: Redis, id: string, games: Map<string, number>) {
    this.#redis = redis;
    this.#id = id;
    this.#games = games;
  }

  /** The board of tournament `id`, with the games counted before a resume. */
  static async load(redis: Redis, id: string): Promise<WorkerBoard> {
    const saved = await redis.hgetall(gamesKey(id));
    return new WorkerBoard(redis, id, new Map(Object.entries(saved).map(([w, n]) => [w, Number(n)])));
  }

  /** A game played by `worker` was folded. */
  played(worker: string): void {
    this.#games.set(worker, (this.#games.get(worker) ?? 0) + 1);
    this.#changed = true;
  }

  /** Reads the heartbeats (and saves the counts when they changed): the workers as the dashboard lists them. */
  async workers(): Promise<WorkerStatus[]> {
    const beats = await this.#redis.hgetall(WORKERS_KEY);
    if (this.#changed) {
      this.#changed = false;
      await this.#redis.hset(gamesKey(this.#id), Object.fromEntries(this.#games));
    }
    const now = performance.now();
    const workers: WorkerStatus[] = [];
    for (const [wid, text] of Object.entries(beats)) {
      let beat: WorkerBeat;
      try {
        beat = JSON.parse(text) as WorkerBeat;
      } catch {
        continue; // not a heartbeat of ours
      }
      const last = this.#seen.get(wid);
      if (!last || last.beat !== beat.beat) this.#seen.set(wid, { beat: beat.beat, at: now });
      const since = Math.round((now - this.#seen.get(wid)!.at) / 1000);
      const played = this.#games.get(wid) ?? 0;
      if (since > GONE_AFTER_S && played === 0) continue;
      workers.push({ id: wid, host: beat.host, state: beat.state, games: played, lastBeatS: since });
    }
    return workers.sort((a, b) => a.id.localeCompare(b.id));
  }
}
