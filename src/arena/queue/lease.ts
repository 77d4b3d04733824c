/**
 * One coordinator per tournament: a coordinator holds a lease in Redis (`take-arena:t:<id>:coordinator`,
 * a few seconds long, renewed every second) for as long as it runs. A second coordinator of the same
 * tournament (a copied results folder, a `--resume` on another machine) would fold the same results
 * and wait for pairs the other removed, so it is refused in one line; one whose predecessor was
 * killed waits for the lease to lapse. A lease that lapsed while this coordinator could not renew
 * it (its machine asleep, its thread busy) is taken again, unless another coordinator took it
 * meanwhile. The tournament's entry in the registry gone while the link stayed up means it was
 * removed from Redis under the coordinator (`arena queue clean`): the run ends saying so.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { pidAlive } from '../../platform/bundle.ts';
import { leaseKey, QueueError, redisAway, TOURNAMENTS_KEY } from './protocol.ts';

/** How long a lease lasts without renewal (ms): how long a killed coordinator's successor waits at most. */
export const LEASE_MS = 5000;

/** Renews the lease if it is still ours: 1 renewed, 0 gone, -1 someone else's. */
const RENEW = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if v then return -1 end
return 0`;

/** Removes the lease if it is still ours. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/** The lease of one coordinator on one tournament. */
export class CoordinatorLease {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #id: string;
  readonly #value = JSON.stringify({ host: hostname(), pid: process.pid, token: randomUUID() });
  readonly #onLost: (err: QueueError) => void;
  #timer: NodeJS.Timeout | null = null;
  /** A renewal is on its way: the next tick skips (two at once would each find the lease lapsed, and the one that lost the race to take it again would call the other's taking "another coordinator"). */
  #renewing = false;
  /** The link came back since the last renewal: a tournament gone then was lost with Redis's data, not removed. */
  #relinked = false;
  /** The tournament is in the registry (published): from then on, its entry gone means it was removed. */
  #registered = false;

  /** `onLost` hears why the lease was lost while the run went on (removed from Redis, taken by another). */
  constructor(redis: Redis, id: string, onLost: (err: QueueError) => void) {
    this.#redis = redis;
    this.#key = leaseKey(id);
    this.#id = id;
    this.#onLost = onLost;
  }

  /**
   * Takes the lease, waiting up to one lease for a holder that has stopped renewing it (a killed
   * coordinator); a holder that keeps it is refused in one line (`said` hears that it waits).
   */
  async acquire(said: (line: string) => void): Promise<void> {
    const id = this.#id;
    const until = performance.now() + LEASE_MS + 1000;
    for (let first = true; ; first = false) {
      if ((await this.#redis.set(this.#key, this.#value, 'PX', LEASE_MS, 'NX')) === 'OK') break;
      const held = await this.#redis.get(this.#key);
      // Its holder was a process of this machine that is gone (killed): no need to wait for the lapse.
      if (held !== null && deadHere(held)) {
        await this.#redis.eval(RELEASE, 1, this.#key, held);
        continue;
      }
      const holder = holderText(held);
      if (performance.now() > until) {
        throw new QueueError(`tournament ${id} already has a coordinator (${holder}): stop it before starting another, or copy the results folder under another name to run it apart`);
      }
      if (first) said(`tournament ${id} has a coordinator (${holder}): waiting up to ${Math.ceil((LEASE_MS + 1000) / 1000)} s in case it was stopped`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    this.#timer = setInterval(() => void this.#tick(), Math.round(LEASE_MS / 5));
    this.#timer.unref();
  }

  /** The tournament has been registered: its entry gone from now on means it was removed from Redis. */
  registered(): void {
    this.#registered = true;
  }

  /** The link to Redis is back: a tournament found gone at the next renewal was lost with Redis's data (and is republished), not removed. */
  relinked(): void {
    this.#relinked = true;
  }

  async #tick(): Promise<void> {
    if (this.#renewing) return;
    this.#renewing = true;
    try {
      await this.#renew();
    } catch {
      redisAway();
    } finally {
      this.#renewing = false;
    }
  }

  async #renew(): Promise<void> {
    if (this.#redis.status !== 'ready') return;
    const got = Number(await this.#redis.eval(RENEW, 1, this.#key, this.#value, String(LEASE_MS)));
    if (got === 1) {
      this.#relinked = false;
      return;
    }
    if (got === 0) {
      const removed = this.#registered && !this.#relinked && (await this.#redis.hexists(TOURNAMENTS_KEY, this.#id)) === 0;
      if (removed) {
        this.stop();
        this.#onLost(new QueueError('the tournament was removed from Redis while it ran (`arena queue clean`?)'));
        return;
      }
      // Lapsed (this process could not renew it in time) or lost with a restarted Redis: taken again
      // if free, unless this coordinator stopped meanwhile (a lease it released stays released).
      if (this.#timer === null) return;
      if ((await this.#redis.set(this.#key, this.#value, 'PX', LEASE_MS, 'NX')) === 'OK') {
        this.#relinked = false;
        return;
      }
    }
    if (this.#timer === null) return;
    this.stop();
    this.#onLost(new QueueError(`another coordinator took the tournament over (${holderText(await this.#redis.get(this.#key))}) while this one could not renew its lease`));
  }

  /** Stops renewing (the lease lapses, or the tournament's keys are removed with it). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Stops renewing and gives the lease up if it is still ours: a `--resume` need not wait for it to lapse. */
  async release(): Promise<void> {
    this.stop();
    await this.#redis.eval(RELEASE, 1, this.#key, this.#value);
  }
}

/** Whether a lease's holder was a process of this machine that no longer runs. */
function deadHere(value: string): boolean {
  try {
    const { host, pid } = JSON.parse(value) as { host?: unknown; pid?: unknown };
    return host === hostname() && typeof pid === 'number' && pid !== process.pid && !pidAlive(pid);
  } catch {
    return false; // not a lease of ours: waited out like any other
  }
}

/** A lease's holder as a line names it. */
function holderText(value: string | null): string {
  try {
    const { host, pid } = JSON.parse(value ?? '') as { host?: unknown; pid?: unknown };
    return `on ${String(host)}, pid ${String(pid)}`;
  } catch {
    return 'unknown'; // not a lease of ours (or gone meanwhile): nothing more to name
  }
}
