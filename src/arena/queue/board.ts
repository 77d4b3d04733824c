/**
 * The workers as the coordinator's dashboard shows them: their heartbeats, and each one's games and
 * health for this tournament, read from the run's fold (every game folded, those a resumed run read
 * from its log included, so a worker's counts and its check against the others cover the whole
 * tournament), and copied to Redis for `arena queue status`.
 */
import type { Redis } from 'ioredis';
import type { WorkerStatus } from '../events.ts';
import type { WorkerCounts, WorkerHealthView } from '../summary.ts';
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
  /** Each worker's games, faults and check for this tournament: the run's fold. */
  readonly #health: WorkerHealthView;
  /** The games counted when the health was last copied to Redis (-1: never). */
  #saved = -1;
  /** When each worker's heartbeat last changed, on this clock. */
  readonly #seen = new Map<string, { beat: number; at: number }>();

  constructor(redis: Redis, id: string, health: WorkerHealthView) {
    this.#redis = redis;
    this.#id = id;
    this.#health = health;
  }

  /** Each worker's games and faults for this tournament so far. */
  counts(): ReadonlyMap<string, WorkerCounts> {
    return this.#health.counts();
  }

  /**
   * Reads the heartbeats (and saves the counts when they changed): the workers as the dashboard
   * lists them, those in `paused` in the state `paused`.
   */
  async workers(paused: ReadonlyMap<string, string> = new Map()): Promise<WorkerStatus[]> {
    const beats = await this.#redis.hgetall(WORKERS_KEY);
    const counts = this.#health.counts();
    let games = 0;
    for (const c of counts.values()) games += c.games;
    if (games !== this.#saved && counts.size) {
      this.#saved = games;
      // Replaced whole, at once: what a killed predecessor saved is not left beside the fold's figures.
      const save = this.#redis.multi().del(gamesKey(this.#id), checksKey(this.#id));
      save.hset(gamesKey(this.#id), Object.fromEntries([...counts].map(([w, c]) => [w, JSON.stringify(c)])));
      const checks = this.#health.checks();
      if (checks.size) save.hset(checksKey(this.#id), Object.fromEntries([...checks].map(([w, c]) => [w, JSON.stringify(c)])));
      await save.exec();
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
      const played = counts.get(wid)?.games ?? 0;
      if (since > GONE_AFTER_S && played === 0) continue;
      workers.push({ id: wid, host: beat.host, state: paused.has(wid) ? 'paused' : beat.state, games: played, lastBeatS: since });
    }
    return workers.sort((a, b) => a.id.localeCompare(b.id));
  }
}
