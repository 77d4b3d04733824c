import { BotStartError } from './host.ts';

/** A running instance of a bot (a worker thread or a process); `dead` says why it ended, or null. */
export interface Pooled {
  readonly dead: string | null;
  /** Settles when the instance can play, or rejects when it cannot start. */
  readonly ready: Promise<void>;
}

/** How a host makes, stops and explains its instances. */
export interface PoolHooks<T extends Pooled> {
  /** Starts one instance; `onDeath` must be called when it dies. Throwing is a start-up failure. */
  create(onDeath: (dead: T) => void): T | Promise<T>;
  /** Ends an instance (terminate the thread, quit the process). */
  stop(instance: T): Promise<void>;
  /** The reason shown when an instance cannot start (`created` is false when `create` threw). */
  failureText(err: unknown, created: boolean): string;
}

/**
 * The running instances of one bot, shared by its worker and process hosts: one per concurrent
 * game, kept for the whole tournament. A dead one is dropped and its replacement started in the
 * background, so the next game does not wait for a cold start. Once an instance fails to start,
 * `failure` says why and the bot forfeits the rest of its games.
 */
export class WarmPool<T extends Pooled> {
  failure: string | null = null;
  readonly #hooks: PoolHooks<T>;
  readonly #idle: T[] = [];
  readonly #all = new Set<T>();
  /** Instances that passed `ready` (a replacement still starting is not among them). */
  readonly #started = new WeakSet<T>();
  /** A replacement being started in the background after an instance died. */
  #warming: Promise<T> | null = null;
  #closed = false;

  constructor(hooks: PoolHooks<T>) {
    this.#hooks = hooks;
  }

  async #spawn(): Promise<T> {
    if (this.failure !== null) throw new BotStartError(this.failure);
    let instance: T;
    try {
      instance = await this.#hooks.create((dead) => this.#replace(dead));
    } catch (err) {
      this.failure = this.#hooks.failureText(err, false);
      throw new BotStartError(this.failure);
    }
    this.#all.add(instance);
    try {
      await instance.ready;
      this.#started.add(instance);
    } catch (err) {
      this.#all.delete(instance);
      await this.#hooks.stop(instance);
      this.failure = this.#hooks.failureText(err, true);
      throw new BotStartError(this.failure);
    }
    return instance;
  }

  #replace(dead: T): void {
    this.#all.delete(dead);
    if (this.#closed || this.failure !== null || this.#warming) return;
    const warming = this.#spawn();
    this.#warming = warming;
    warming.then(
      (instance) => {
        this.#warming = null;
        if (this.#closed) void this.#hooks.stop(instance);
        else this.#idle.push(instance);
      },
      () => {
        this.#warming = null; // `failure` is set: the bot forfeits the rest
      },
    );
  }

  #takeIdle(): T | undefined {
    let instance: T | undefined;
    while ((instance = this.#idle.pop()) && instance.dead !== null) this.#all.delete(instance);
    return instance;
  }

  /** Starts the first instance (a start-up failure rejects with BotStartError). */
  async start(): Promise<void> {
    this.#idle.push(await this.#spawn());
  }

  /** An instance for a new game: an idle one, the replacement being started, or a new one. */
  async take(): Promise<T> {
    let instance = this.#takeIdle();
    if (!instance && this.#warming) {
      // A replacement that fails to start sets `failure`, which the spawn below then reports.
      await this.#warming.catch(() => undefined);
      instance = this.#takeIdle();
    }
    return instance ?? this.#spawn();
  }

  /** Gives an instance back after its game: kept while alive, dropped when dead. */
  release(instance: T): void {
    if (instance.dead !== null) this.#all.delete(instance);
    else if (this.#closed) void this.#hooks.stop(instance);
    else this.#idle.push(instance);
  }

  /** Every started instance, idle or in a game (not a replacement still starting). */
  instances(): T[] {
    return [...this.#all].filter((i) => this.#started.has(i));
  }

  /** Stops every instance. */
  async close(): Promise<void> {
    this.#closed = true;
    // Closing: a replacement that could not start leaves nothing to stop and nobody to tell.
    await this.#warming?.catch(() => undefined);
    const all = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    await Promise.all(all.map((instance) => this.#hooks.stop(instance)));
  }
}
