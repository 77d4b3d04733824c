import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { BotClock } from '../core/bot.ts';
import type { Seat } from '../core/game.ts';
import {
  BotStartError,
  DEFAULT_GRACE_MS,
  DEFAULT_PREPARE_TIMEOUT_MS,
  errorText,
  prepareTimeout,
  type BotHost,
  type BotSession,
  type FaultReply,
  type MoveReply,
  type SessionInfo,
} from './host.ts';
import { WarmPool } from './pool.ts';
import { runSnapshot, warnOnStderr, type StoreLocation } from '../platform/bot-store.ts';
import { openStoreBridge, type StoreBackend } from '../platform/store-bridge.ts';
import { workerScript } from './worker-bundle.ts';
import { REPLY, REQUEST, RUNNER_SPIN_MS, spinWhile, type OpenGame, type Reply, type StartMessage, type ToWorker, type WorkerData, type WorkerInit } from './worker-protocol.ts';

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
  /** Budget of the bot's `prepare` per variant (ms). */
  readonly prepareTimeoutMs?: number;
  /** The worker script (from `workerScript`, shared by all bots of a tournament); default: this bot's own. */
  readonly script?: Promise<URL>;
  /** The bot's data folder (none: a store in memory per thread). */
  readonly store?: StoreLocation;
  /** Where the warning of a store that had to be reset goes (default: stderr). */
  readonly warn?: (message: string) => void;
  /** The store's live copy, when it is held elsewhere (a queued run's Redis): each thread's writes go there. */
  readonly storeBackend?: StoreBackend;
}


interface Pending {
  readonly id: number;
  readonly t0: number;
  /** The request's time limit (ms), and when (`performance.now()`) the thread is cut off: limit plus grace. */
  readonly limitMs: number;
  readonly cutoff: number;
  /** A `prepare` request (its faults say so) rather than a move. */
  readonly prepare: boolean;
  readonly resolve: (reply: MoveReply) => void;
}

/** One worker thread running the bot; serves one game at a time. */
class BotThread {
  readonly worker: Worker;
  /** Why the thread is gone (it is then never reused), or null while it is healthy. */
  dead: string | null = null;
  /** Whether the bot has a `prepare` (told by the worker when it is ready). */
  prepares = false;
  /** Variants this thread's bot has prepared. */
  readonly prepared = new Set<string>();
  #pending: Pending | null = null;
  /**
   * One watchdog timer per thread rather than one per request: moves take microseconds, so
   * arming and clearing a timer for each was a large share of a move's cost. When it fires it
   * cuts the thread off if the pending request is past its cutoff, else re-arms for that cutoff.
   */
  #watchdog: NodeJS.Timeout | null = null;
  #watchdogAt = Infinity;
  /** `Date.now()` minus `performance.now()`, taken when a game opens (deadlines are on the `Date.now()` clock). */
  #epoch = Date.now() - performance.now();
  /** The game opened but not yet told to the worker. */
  #opening: OpenGame | null = null;
  #nextId = 1;
  #started = false;
  /** Set when the deadline passed and the thread is being terminated. */
  #timingOut = false;
  readonly ready: Promise<void>;
  /** The request/reply channel (see worker-protocol.ts). */
  readonly #ctl = new Int32Array(new SharedArrayBuffer(8));
  readonly #port: MessagePort;

  readonly #graceMs: number;
  readonly #onDeath: (thread: BotThread) => void;
  readonly #closeBridge: () => void;

  constructor(
    script: URL,
    init: WorkerInit,
    memoryMb: number,
    graceMs: number,
    onDeath: (thread: BotThread) => void,
    storeBackend?: StoreBackend,
  ) {
    this.#graceMs = graceMs;
    this.#onDeath = onDeath;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    // Each thread has its own bridge to a live copy held elsewhere (its synchronous store calls).
    const bridge = storeBackend ? openStoreBridge(storeBackend) : null;
    this.#closeBridge = bridge ? () => bridge.close() : () => {};
    const data: WorkerData = { ...init, channel: { sab: this.#ctl.buffer as SharedArrayBuffer, port: port2 }, ...(bridge ? { storeBridge: bridge.end } : {}) };
    this.worker = new Worker(script, {
      workerData: data,
      transferList: bridge ? [port2, bridge.end.port] : [port2],
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, memoryMb >> 3)) },
      stdout: false,
      stderr: false,
    });
    this.ready = new Promise<void>((resolve, reject) => {
      let started = false;
      this.worker.on('message', (msg: StartMessage) => {
        if (msg.t === 'ready') {
          this.prepares = msg.prepares;
          started = true;
          this.#started = true;
          resolve();
        } else {
          this.#die(msg.reason);
          reject(new BotStartError(msg.reason));
        }
      });
      this.worker.on('error', (err: Error & { code?: string }) => {
        const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
        this.#die(oom ? `ran out of memory (limit ${memoryMb} MB)` : `worker error: ${errorText(err)}`, oom);
        const reason = this.dead!;
        if (!started) reject(new BotStartError(reason));
      });
      this.worker.on('exit', (code) => {
        this.#closeBridge();
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
      if (this.#started) this.#onDeath(this); // one that never started is a start-up failure instead
    }
    this.#disarm();
    const p = this.#pending;
    if (p) {
      this.#pending = null;
      const ms = performance.now() - p.t0;
      // Out of time and being terminated: a timeout, unless the thread was already dying of memory
      // (its error can be queued behind the timer when the runner's thread is busy).
      if (this.#timingOut && !oom) p.resolve(p.prepare ? prepareTimeout(p.limitMs, ms) : { ok: false, kind: 'timeout', reason: `no move within ${p.limitMs} ms`, ms });
      else p.resolve({ ok: false, kind: 'crash', reason: p.prepare ? `prepare failed: ${reason}` : reason, ms });
    }
  }

  /** Takes the reply to request `id` off the channel: the bot's answer, or null when it is not there yet. */
  #take(id: number, t0: number): MoveReply | null {
    if (Atomics.load(this.#ctl, REPLY) !== id) return null;
    const msg = receiveMessageOnPort(this.#port)?.message as Reply | undefined;
    if (!msg || msg.id !== id) return null;
    const ms = performance.now() - t0;
    if (msg.t === 'move') {
      if (msg.think !== undefined) return msg.clock ? { ok: true, move: msg.move, ms, clock: true, think: msg.think } : { ok: true, move: msg.move, ms, think: msg.think };
      return msg.clock ? { ok: true, move: msg.move, ms, clock: true } : { ok: true, move: msg.move, ms };
    }
    if (msg.t === 'prepared') return { ok: true, move: undefined, ms };
    if (msg.t === 'error') return { ok: false, kind: 'crash', reason: msg.reason, ms };
    return { ok: false, kind: 'illegal-move', reason: msg.reason, ms };
  }

  /** Waits (without blocking the runner) for the reply to the pending request. */
  #await(p: Pending, before: number): void {
    const settle = (): void => {
      if (this.#pending !== p || this.#timingOut) return; // settled by a fault, or being terminated
      const reply = this.#take(p.id, p.t0);
      if (!reply) {
        this.#await(p, Atomics.load(this.#ctl, REPLY)); // woken early: wait again
        return;
      }
      this.#pending = null;
      p.resolve(reply);
    };
    const wait = Atomics.waitAsync(this.#ctl, REPLY, before);
    if (wait.async) void wait.value.then(settle);
    else settle();
  }

  /** Starts a game: told to the worker with the game's first move request. */
  open(variant: string, seat: Seat, seed: number): void {
    this.#epoch = Date.now() - performance.now();
    this.#opening = { variant, seat, seed };
  }

  /** Posts a request on the channel and wakes the worker. */
  #send(msg: ToWorker): void {
    this.#port.postMessage(msg);
    Atomics.store(this.#ctl, REQUEST, msg.id);
    Atomics.notify(this.#ctl, REQUEST);
  }

  move(state: unknown, moves: readonly unknown[], timeMs: number, clock?: BotClock): MoveReply | Promise<MoveReply> {
    return this.#request(timeMs, false, state, moves, '', clock);
  }

  /** Runs the bot's `prepare` for a variant within `limitMs`: null when ready, else the fault. */
  async prepare(variant: string, limitMs: number): Promise<FaultReply | null> {
    const reply = await this.#request(limitMs, true, null, [], variant);
    if (!reply.ok) return reply;
    this.prepared.add(variant);
    return null;
  }

  /**
   * One request with a time limit: past it (plus the grace) the thread is terminated. A reply that
   * comes while the runner spins briefly is returned at once; otherwise a promise of it.
   */
  #request(limitMs: number, prepare: boolean, state: unknown, moves: readonly unknown[], variant: string, clock?: BotClock): MoveReply | Promise<MoveReply> {
    if (this.dead !== null) return { ok: false, kind: 'crash', reason: prepare ? `prepare failed: ${this.dead}` : this.dead, ms: 0 };
    const id = this.#nextId++;
    const t0 = performance.now();
    const cutoff = t0 + limitMs + this.#graceMs;
    const before = Atomics.load(this.#ctl, REPLY);
    if (cutoff < this.#watchdogAt) this.#arm(cutoff - t0, cutoff);
    // A failure to clone is the runner's own state failing: a bug in the game, not the bot's fault,
    // so it is thrown.
    if (prepare) this.#send({ t: 'prepare', id, variant });
    else {
      // The deadline on the bot's `Date.now()` clock, from the one monotonic reading.
      const deadline = this.#epoch + t0 + limitMs;
      const open = this.#opening;
      // `postMessage` copies the clock at once: the match may change its object afterwards.
      if (clock) this.#send(open ? { t: 'move', id, state, moves, deadline, open, clock } : { t: 'move', id, state, moves, deadline, clock });
      else this.#send(open ? { t: 'move', id, state, moves, deadline, open } : { t: 'move', id, state, moves, deadline });
      this.#opening = null;
    }
    if (spinWhile(this.#ctl, REPLY, before, RUNNER_SPIN_MS)) {
      const reply = this.#take(id, t0);
      if (reply) return reply;
    }
    return new Promise<MoveReply>((resolve) => {
      const p: Pending = { id, t0, limitMs, cutoff, prepare, resolve };
      this.#pending = p;
      this.#await(p, before);
    });
  }

  #arm(inMs: number, at: number): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdogAt = at;
    // Unref'd: the worker itself keeps the process alive while a request is pending, and an idle
    // thread's watchdog (still armed after a quick reply) must not hold the process open.
    this.#watchdog = setTimeout(() => this.#check(), Math.max(1, Math.ceil(inMs))).unref();
  }

  #disarm(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
    this.#watchdogAt = Infinity;
  }

  /**
   * The watchdog fired: cut off a request past its cutoff unless its reply is already waiting,
   * re-arm for one still running.
   */
  #check(): void {
    this.#watchdog = null;
    this.#watchdogAt = Infinity;
    const p = this.#pending;
    if (!p || this.dead !== null) return; // idle: the next request arms it again
    const now = performance.now();
    if (now < p.cutoff) {
      this.#arm(p.cutoff - now, p.cutoff);
      return;
    }
    // The runner may be the late one (its event loop blocked past the cutoff while the bot had
    // answered): a reply already on the channel is taken, never thrown away with the thread.
    const reply = this.#take(p.id, p.t0);
    if (reply) {
      this.#pending = null;
      p.resolve(reply);
      return;
    }
    // Settled by the thread's 'error' (out of memory) or 'exit' event, whichever comes first.
    this.#timingOut = true;
    void this.worker.terminate();
  }

  terminate(): Promise<number> {
    this.dead ??= 'closed'; // closing on purpose: no replacement
    this.#disarm();
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
  readonly #prepareTimeoutMs: number;
  /** Variants whose `prepare` failed: every later game of the variant forfeits with that fault. */
  readonly #prepareFailed = new Map<string, FaultReply>();
  readonly #script: Promise<URL>;
  readonly #pool: WarmPool<BotThread>;

  constructor(label: string, options: WorkerHostOptions) {
    this.label = label;
    // The store is read once, here, and every thread of the run gets the same snapshot.
    const location = options.store ?? null;
    const snapshot = location ? runSnapshot(location, options.warn ?? warnOnStderr) : new Map<string, Uint8Array>();
    const init: WorkerInit = { file: options.file, name: options.name, options: options.options, store: { location, snapshot } };
    const memoryMb = options.memoryMb;
    const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.#prepareTimeoutMs = options.prepareTimeoutMs ?? DEFAULT_PREPARE_TIMEOUT_MS;
    this.#script = options.script ?? workerScript([options.file]);
    this.#pool = new WarmPool<BotThread>({
      create: async (onDeath) => new BotThread(await this.#script, init, memoryMb, graceMs, onDeath, options.storeBackend),
      stop: async (thread) => void (await thread.terminate()),
      failureText: (err) => (err instanceof Error ? err.message : String(err)),
    });
  }

  /** Why the bot could not be started, or null. */
  get failure(): string | null {
    return this.#pool.failure;
  }

  start(): Promise<void> {
    return this.#pool.start();
  }

  async open(info: SessionInfo): Promise<BotSession> {
    const thread = await this.#pool.take();
    thread.open(info.variant, info.seat, info.rngSeed);
    const t = thread;
    const variant = info.variant;
    // The warm-up runs before the bot's first move of the game, on the thread that will play it.
    let ready = !t.prepares || t.prepared.has(variant);
    const warmUp = async (): Promise<FaultReply | null> => {
      const failed = this.#prepareFailed.get(variant);
      if (failed) return failed;
      const fault = await t.prepare(variant, this.#prepareTimeoutMs);
      if (fault) this.#prepareFailed.set(variant, fault);
      return fault;
    };
    return {
      move: (state, moves, timeMs, clock) => {
        if (ready) return t.move(state, moves, timeMs, clock);
        ready = true;
        // The match changes its clock object once this move is answered: keep a copy across the warm-up.
        const kept = clock && { ...clock };
        return warmUp().then((fault) => fault ?? t.move(state, moves, timeMs, kept));
      },
      close: () => this.#pool.release(t),
    };
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
