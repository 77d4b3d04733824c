/**
 * The workers as the coordinator's dashboard shows them: their heartbeats, and the games each has
 * played for this tournament (counted here from the results folded, so a worker spends no round
 * trip on it; carried over from before a `--resume`, and copied to Redis for `arena queue status`).
 */
import type { Redis } from 'ioredis';
import type { WorkerStatus } from '../events.ts';
import type { GameRecord } from '../match.ts';
import { countGame, type WorkerCounts } from '../summary.ts';
import { WorkerResults } from '../worker-check.ts';
import { checksKey, gamesKey, WORKERS_KEY, type WorkerBeat } from './protocol.ts';

/** A worker's saved counts (`take-arena:t:<id>:games`), or null when the text is not such counts. */
export function parseCounts(text: string): WorkerCounts | null {
  try {
    const c = JSON.parse(text) as Partial<WorkerCounts> | null;
    const ok = c !== null && typeof c === 'object' && (['games', 'crashes', 'timeouts', 'illegal', 'moves', 'us'] as const).every((k) => typeof c[k] === 'number');
    return ok ? (c as WorkerCounts) : null;
  } catch {
    return null; // not counts of ours: that worker's line starts again from zero
  }
}

/** A worker silent this long (s) with no games here drops off the list (`queue clean` retires it from Redis). */
const GONE_AFTER_S = 60;

/** The workers of one tournament (see the module's comment). */
export class WorkerBoard {
  readonly #redis: Redis;
  readonly #id: string;
  /** Each worker's games and faults for this tournament (`queue status` shows them as its health). */
  readonly #games: Map<string, WorkerCounts>;
  #changed = false;
  /** The games folded by this coordinator, for each worker's check against the others. */
  readonly #results = new WorkerResults();
  /** When each worker's heartbeat last changed, on this clock. */
  readonly #seen = new Map<string, { beat: number; at: number }>();

  private constructor(redis: Redis, id: string, games: Map<string, WorkerCounts>) {
    this.#redis = redis;
    this.#id = id;
    this.#games = games;
  }

  /** The board of tournament `id`, with the games counted before a resume. */
  static async load(redis: Redis, id: string): Promise<WorkerBoard> {
    const saved = await redis.hgetall(gamesKey(id));
    return new WorkerBoard(redis, id, new Map(Object.entries(saved).flatMap(([w, text]) => (parseCounts(text) ? [[w, parseCounts(text)!]] : []))));
  }

  /** A game played by its worker (`rec.worker`) was folded. */
  played(rec: GameRecord): void {
    if (rec.worker === undefined) return;
    this.#games.set(rec.worker, countGame(this.#games.get(rec.worker), rec));
    this.#results.add(rec);
    this.#changed = true;
  }

  /** Each worker's games and faults for this tournament so far. */
  counts(): ReadonlyMap<string, WorkerCounts> {
    return this.#games;
  }

  /**
   * Reads the heartbeats (and saves the counts when they changed): the workers as the dashboard
   * lists them, those in `paused` in the state `paused`.
   */
  async workers(paused: ReadonlyMap<string, string> = new Map()): Promise<WorkerStatus[]> {
    const beats = await this.#redis.hgetall(WORKERS_KEY);
    if (this.#changed) {
      this.#changed = false;
      await this.#redis.hset(gamesKey(this.#id), Object.fromEntries([...this.#games].map(([w, c]) => [w, JSON.stringify(c)])));
      const checks = this.#results.checks();
      if (checks.size) await this.#redis.hset(checksKey(this.#id), Object.fromEntries([...checks].map(([w, c]) => [w, JSON.stringify(c)])));
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
      const played = this.#games.get(wid)?.games ?? 0;
      if (since > GONE_AFTER_S && played === 0) continue;
      workers.push({ id: wid, host: beat.host, state: paused.has(wid) ? 'paused' : beat.state, games: played, lastBeatS: since });
    }
    return workers.sort((a, b) => a.id.localeCompare(b.id));
  }
}
