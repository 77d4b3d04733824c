import { Worker } from 'node:worker_threads';
import type { Seat } from '../core/game.ts';
import { BotStartError, DEFAULT_GRACE_MS, errorText, type BotHost, type BotSession, type MoveReply, type SessionInfo } from './host.ts';
import { workerScript } from './worker-bundle.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.ts';

/** Settings of a worker host. */
export interface WorkerHostOptions {
  /** The bot module's file (absolute path). */
  readonly file: string;
  /** The bot's `name` in that module. */
  readonly name: string;
  /** Validated options (the worker validates them again). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Heap limit of each worker (`resourceLimits.maxOldGenerationSizeMb`). */
  readonly memoryMb: number;
  /** Extra time after the deadline before the worker is terminated. */
  readonly graceMs?: number;
  /** The worker script (from `workerScript`, shared by all bots of a tournament); default: this bot's own. */
  readonly script?: Promise<URL>;
}


interface Pending {
  readonly id: number;
  readonly t0: number;
  readonly timeMs: number;
  readonly resolve: (reply: MoveReply) => void;
  readonly timer: NodeJS.Timeout;
}

/** One worker thread running the bot; serves one game at a time. */
class BotThread {
  readonly worker: Worker;
  /** Why the thread is gone (it is then never reused), or null while it is healthy. */
  dead: string | null = null;
  #pending: Pending | null = null;
  #nextId = 1;
  #started = false;
  /** Set when the deadline passed and the thread is being terminated. */
  #timingOut = false;
  readonly ready: Promise<void>;

  constructor(
    script: URL,
    init: WorkerInit,
    memoryMb: number,
    private readonly graceMs: number,
    private readonly onDeath: (thread: BotThread) => void,
  ) {
    this.worker = new Worker(script, {
      workerData: init,
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, memoryMb >> 3)) },
      stdout: false,
      stderr: false,
    });
    this.ready = new Promise<void>((resolve, reject) => {
      let started = false;
      this.worker.on('message', (msg: FromWorker) => {
        if (msg.t === 'ready') {
          started = true;
          this.#started = true;
          resolve();
        } else if (msg.t === 'fatal') {
          this.#die(msg.reason);
          reject(new BotStartError(msg.reason));
        } else this.#answer(msg);
      });
      this.worker.on('error', (err: Error & { code?: string }) => {
        const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        this.#die(oom ? `ran out of memory (limit ${memoryMb} MB)` : `worker error: ${errorText(err)}`, oom);
        const reason = this.dead!;
        if (!started) reject(new BotStartError(reason));
      });
      this.worker.on('exit', (code) => {
        const reason = `exited with code ${code}`;
        this.#die(reason);
        if (!started) reject(new BotStartError(reason));
      });
    });
    // Start-up failures are reported through `ready`; never leave the rejection unhandled.
    this.ready.catch(() => {});
  }

  #die(reason: string, oom = false): void {
    if (this.dead === null) {
      this.dead = reason;
      if (this.#started) this.onDeath(this); // one that never started is a start-up failure instead
    }
    const p = this.#pending;
    if (p) {
      this.#pending = null;
      clearTimeout(p.timer);
      const ms = performance.now() - p.t0;
      // Out of time and being terminated: a timeout, unless the thread was already dying of memory
      // (its error can be queued behind the timer when the runner's thread is busy).
      if (this.#timingOut && !oom) p.resolve({ ok: false, kind: 'timeout', reason: `no move within ${p.timeMs} ms`, ms });
      else p.resolve({ ok: false, kind: 'crash', reason, ms });
    }
  }

  #answer(msg: Exclude<FromWorker, { t: 'ready' } | { t: 'fatal' }>): void {
    const p = this.#pending;
    if (!p || p.id !== msg.id || this.#timingOut) return; // too late: settled, or being terminated
    this.#pending = null;
    clearTimeout(p.timer);
    const ms = performance.now() - p.t0;
    if (msg.t === 'move') p.resolve({ ok: true, move: msg.move, ms });
    else if (msg.t === 'error') p.resolve({ ok: false, kind: 'crash', reason: msg.reason, ms });
    else p.resolve({ ok: false, kind: 'illegal-move', reason: msg.reason, ms });
  }

  open(variant: string, seat: Seat, seed: number): void {
    this.#send({ t: 'open', variant, seat, seed });
  }

  #send(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }

  move(state: unknown, moves: readonly unknown[], timeMs: number): Promise<MoveReply> {
    if (this.dead !== null) return Promise.resolve({ ok: false, kind: 'crash', reason: this.dead, ms: 0 });
    return new Promise<MoveReply>((resolve) => {
      const id = this.#nextId++;
      const t0 = performance.now();
      const timer = setTimeout(() => {
        if (this.#pending?.id !== id) return;
        // Settled by the thread's 'error' (out of memory) or 'exit' event, whichever comes first.
        this.#timingOut = true;
        void this.worker.terminate();
      }, timeMs + this.graceMs);
      this.#pending = { id, t0, timeMs, resolve, timer };
      try {
        this.#send({ t: 'move', id, state, moves, deadline: Date.now() + timeMs });
      } catch (err) {
        // The runner's own state failed to clone: a bug in the game, not the bot's fault.
        this.#pending = null;
        clearTimeout(timer);
        throw err;
      }
    });
  }

  terminate(): Promise<number> {
    this.dead ??= 'closed'; // closing on purpose: no replacement
    return this.worker.terminate();
  }
}

/**
 * Isolation `worker`: the bot runs in worker threads with a heap limit, one thread per game being
 * played (a pool that grows to the tournament's concurrency), kept for the whole tournament. A
 * thread that times out is terminated; one that crashes, exits or runs out of memory is dropped;
 * either way the next game gets a fresh one. A bot that cannot start forfeits all its games.
 */
export class WorkerHost implements BotHost {
  readonly label: string;
  failure: string | null = null;
  readonly #init: WorkerInit;
  readonly #memoryMb: number;
  readonly #graceMs: number;
  readonly #script: Promise<URL>;
  readonly #idle: BotThread[] = [];
  readonly #all = new Set<BotThread>();
  /** A replacement being started in the background after a thread died. */
  #warming: Promise<BotThread> | null = null;
  #closed = false;

  constructor(label: string, options: WorkerHostOptions) {
    this.label = label;
    this.#init = { file: options.file, name: options.name, options: options.options };
    this.#memoryMb = options.memoryMb;
    this.#graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.#script = options.script ?? workerScript([options.file]);
  }

  async #spawn(): Promise<BotThread> {
    if (this.failure !== null) throw new BotStartError(this.failure);
    const thread = new BotThread(await this.#script, this.#init, this.#memoryMb, this.#graceMs, (dead) => this.#replace(dead));
    this.#all.add(thread);
    try {
      await thread.ready;
    } catch (err) {
      this.#all.delete(thread);
      void thread.terminate();
      this.failure = err instanceof Error ? err.message : String(err);
      throw err instanceof BotStartError ? err : new BotStartError(this.failure);
    }
    return thread;
  }

  /**
   * A thread died (timeout, crash, exit, out of memory): start its replacement at once, so the
   * next game does not wait for a cold start.
   */
  #replace(dead: BotThread): void {
    this.#all.delete(dead);
    if (this.#closed || this.failure !== null || this.#warming) return;
    const warming = this.#spawn();
    this.#warming = warming;
    warming.then(
      (t) => {
        this.#warming = null;
        if (this.#closed) void t.terminate();
        else this.#idle.push(t);
      },
      () => {
        this.#warming = null; // `failure` is set: the bot forfeits the rest
      },
    );
  }

  async start(): Promise<void> {
    this.#idle.push(await this.#spawn());
  }

  async open(info: SessionInfo): Promise<BotSession> {
    let thread: BotThread | undefined;
    while ((thread = this.#idle.pop()) && thread.dead !== null) this.#all.delete(thread);
    if (!thread && this.#warming) {
      await this.#warming.catch(() => {});
      while ((thread = this.#idle.pop()) && thread.dead !== null) this.#all.delete(thread);
    }
    thread ??= await this.#spawn();
    thread.open(info.variant, info.seat, info.rngSeed);
    const t = thread;
    return {
      move: (state, moves, timeMs) => t.move(state, moves, timeMs),
      close: () => {
        if (t.dead === null) this.#idle.push(t);
        else this.#all.delete(t);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#warming?.catch(() => {});
    const all = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    await Promise.all(all.map((t) => t.terminate()));
  }
}
