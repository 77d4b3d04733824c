import { availableParallelism } from 'node:os';
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
import { runSnapshot, warnOnStderr, type StoreLocation } from '../platform/bot-store.ts';
import { openStoreBridge, type StoreBackend } from '../platform/store-bridge.ts';
import { workerScript } from './worker-bundle.ts';
import {
  channelBuffer,
  channelMemory,
  CURRENT,
  REPLY,
  REQUEST,
  RING_READ,
  RING_WRITE,
  RUNNER_SPIN_MS,
  SLEEPING,
  sharedNow,
  spinWhile,
  type ChannelMemory,
  type OpenGame,
  type Reply,
  type Request,
  type StartMessage,
  type WorkerData,
  type WorkerInit,
} from './worker-protocol.ts';

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
  /** How many games the bot may play at once (default 1): its threads (at most one per game and per CPU core) share them. */
  readonly concurrency?: number;
}

/** A game of the bot, on whichever thread plays it now. */
interface GameSlot {
  readonly variant: string;
  readonly seat: Seat;
  readonly seed: number;
  /** Where the bot's generator had got to when the game left a thread that died (null: from the seed). */
  rng: readonly number[] | null;
  /** The thread playing it and its slot there. */
  thread: BotThread | null;
  slot: number;
  /** Whether the thread has the game open (it answered a request of the game in this slot). */
  told: boolean;
  /** A request of the game not yet answered. */
  asking: Ask | null;
  closed: boolean;
}

/** One request to a thread: a move of a game, or a variant's `prepare`; answered with `reply` or through `resolve`. */
interface Ask {
  id: number;
  readonly game: GameSlot | null;
  /** The variant of a `prepare` (null for a move). */
  readonly prepare: string | null;
  readonly state: unknown;
  readonly moves: readonly unknown[];
  readonly clock: BotClock | undefined;
  readonly limitMs: number;
  reply: MoveReply | null;
  resolve: ((reply: MoveReply) => void) | null;
  /** Answered (by the bot, or with a fault). */
  done: boolean;
}

/** A worker's reply as the match sees it, with its time (ms). */
function replyOf(r: Reply, ms: number): MoveReply {
  if (r.t === 'move') return r.clock ? { ok: true, move: r.move, ms, clock: true, think: r.think } : { ok: true, move: r.move, ms, think: r.think };
  if (r.t === 'prepared') return { ok: true, move: undefined, ms };
  if (r.t === 'error') return { ok: false, kind: 'crash', reason: r.reason, ms };
  return { ok: false, kind: 'illegal-move', reason: r.reason, ms };
}

/** How long a thread may be busy without an answer, a game waiting, before the bot gets another thread (ms). */
const LAG_MS = 2;

/** The answer to a request whose thread died of another request's fault: asked again elsewhere, never charged. */
const ORPHANED: MoveReply = Object.freeze({ ok: false, kind: 'crash', reason: 'orphaned', ms: 0 });

/** The request whose promise is being made: `awaitReply` is one function for all requests, not a closure per move. */
let replyFor: Ask | null = null;
function awaitReply(resolve: (reply: MoveReply) => void): void {
  replyFor!.resolve = resolve;
}

function ask(game: GameSlot | null, prepare: string | null, state: unknown, moves: readonly unknown[], clock: BotClock | undefined, limitMs: number): Ask {
  return { id: 0, game, prepare, state, moves, clock, limitMs, reply: null, resolve: null, done: false };
}

/**
 * One worker thread running the bot. It plays many games at once, each in its own slot. Requests
 * go out as they come (those made in one turn of the runner's event loop together), and the worker
 * runs them in order: while it is busy, new requests join its queue without waking it, and it wakes
 * the runner only when it runs out of work, so a fast bot's many games share each wake-up. When
 * the request it is running overruns its limit, the thread is cut off; the requests of the other
 * games are handed back (`onDeath`) to be asked again elsewhere.
 */
class BotThread {
  readonly worker: Worker;
  /** Why the thread is gone (it is then never reused), or null while it is healthy. */
  dead: string | null = null;
  /** Whether the bot has a `prepare` (told by the worker when it is ready). */
  prepares = false;
  /** Variants this thread's bot has prepared, and those being prepared. */
  readonly prepared = new Set<string>();
  readonly preparing = new Map<string, Promise<FaultReply | null | typeof ORPHANED>>();
  /** Games in play on the thread. */
  games = 0;
  readonly ready: Promise<void>;
  readonly #mem: ChannelMemory;
  readonly #port: MessagePort;
  readonly #graceMs: number;
  readonly #spin: boolean;
  readonly #onDeath: (thread: BotThread, orphans: readonly Ask[]) => void;
  readonly #closeBridge: () => void;
  /** Free slots, and the next never used. */
  readonly #free: number[] = [];
  #slots = 0;
  /** Requests made this turn, not yet sent. */
  #queue: Ask[] = [];
  #flushing = false;
  /** Requests sent and not answered, in the order the worker runs them (from `#head`). */
  #sent: Ask[] = [];
  #head = 0;
  /** The worker's `REPLY` the runner last saw, and whether it is waiting for it to change. */
  #seen = 0;
  #waiting = false;
  /** When the worker last made progress the runner saw (a request sent to an idle worker, a reply taken). */
  #progress = 0;
  #nextId = 1;
  #started = false;
  /** Set when a request overran its limit and the thread is being terminated. */
  #timingOut = false;
  /**
   * One watchdog timer per thread rather than one per request: moves take microseconds, so arming
   * and clearing a timer for each would be a large share of a move's cost. When it fires it cuts
   * the thread off if the request it is running is past its cutoff, else re-arms.
   */
  #watchdog: NodeJS.Timeout | null = null;
  /** A reusable list of the replies taken in one go. */
  readonly #taken: Reply[] = [];

  constructor(script: URL, init: WorkerInit, o: { memoryMb: number; graceMs: number; slots: number; spin: boolean }, onDeath: (thread: BotThread, orphans: readonly Ask[]) => void, storeBackend?: StoreBackend) {
    this.#graceMs = o.graceMs;
    this.#spin = o.spin;
    this.#onDeath = onDeath;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    const sab = channelBuffer(o.slots);
    this.#mem = channelMemory(sab);
    // Each thread has its own bridge to a live copy held elsewhere (its synchronous store calls).
    const bridge = storeBackend ? openStoreBridge(storeBackend) : null;
    this.#closeBridge = bridge ? () => bridge.close() : () => {};
    const data: WorkerData = { ...init, channel: { sab, port: port2 }, ...(bridge ? { storeBridge: bridge.end } : {}) };
    const memoryMb = o.memoryMb;
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

  /** Gives a game a slot on this thread. */
  attach(g: GameSlot): void {
    g.thread = this;
    g.slot = this.#free.pop() ?? this.#slots++;
    g.told = false;
    this.games++;
  }

  /** Takes a game off the thread; its slot is free once no request of it is outstanding. */
  detach(g: GameSlot): void {
    this.games--;
    if (!g.asking) this.#free.push(g.slot);
  }

  /** Whether the worker has requests to run. */
  get busy(): boolean {
    return this.#head < this.#sent.length;
  }

  /** Whether the worker has been busy without an answer for more than `LAG_MS` (its bot is slow: the bot could use another thread). */
  lagging(): boolean {
    return this.#head < this.#sent.length && sharedNow() - this.#progress > LAG_MS;
  }

  /** Where the bot's generator of a slot had got to after its last move. */
  rngOf(slot: number): number[] {
    return Array.from(this.#mem.rng.subarray(slot * 4, slot * 4 + 4));
  }

  /**
   * Asks the thread (the caller made sure it is alive). A bot playing one game per thread gets its
   * request out at once and, if the reply comes while the runner spins briefly, returned at once;
   * otherwise the request goes out with the others made this turn and the reply comes as a promise.
   */
  ask(a: Ask): MoveReply | Promise<MoveReply> {
    if (a.game) a.game.asking = a;
    this.#queue.push(a);
    if (this.#spin && !this.busy) {
      this.#flush();
      const seen = this.#seen;
      if (spinWhile(this.#mem.ctl, REPLY, seen, RUNNER_SPIN_MS)) this.#take();
      if (a.reply) return a.reply;
    } else if (!this.#flushing) {
      this.#flushing = true;
      queueMicrotask(() => {
        this.#flushing = false;
        this.#flush();
      });
    }
    replyFor = a;
    const reply = new Promise<MoveReply>(awaitReply);
    // (After the promise is made: the wait can settle at once.)
    this.#wait();
    return reply;
  }

  /**
   * Sends the requests made this turn, one message each (each is its own copy, see
   * worker-protocol.ts), and wakes the worker if it sleeps. A failure to clone is the runner's own
   * state failing: a bug in the game, not the bot's fault, so it is thrown.
   */
  #flush(): void {
    if (this.dead !== null || this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    if (!this.busy) {
      this.#progress = sharedNow();
      this.#arm(batch[0]!.limitMs + this.#graceMs);
    }
    for (const a of batch) {
      a.id = this.#nextId++;
      this.#port.postMessage(this.#request(a));
      this.#sent.push(a);
    }
    const { ctl } = this.#mem;
    Atomics.store(ctl, REQUEST, this.#nextId - 1);
    if (Atomics.load(ctl, SLEEPING) !== 0) Atomics.notify(ctl, REQUEST);
  }

  /** The message of a request. */
  #request(a: Ask): Request {
    const g = a.game;
    if (a.prepare !== null || g === null) return { t: 'prepare', id: a.id, variant: a.prepare!, limitMs: a.limitMs };
    const { id, state, moves, limitMs, clock } = a;
    const slot = g.slot;
    if (g.told) return clock ? { t: 'move', id, slot, state, moves, limitMs, clock } : { t: 'move', id, slot, state, moves, limitMs };
    const open: OpenGame = g.rng ? { variant: g.variant, seat: g.seat, seed: g.seed, rng: g.rng } : { variant: g.variant, seat: g.seat, seed: g.seed };
    return clock ? { t: 'move', id, slot, state, moves, limitMs, open, clock } : { t: 'move', id, slot, state, moves, limitMs, open };
  }

  /** Waits (without blocking the runner) for the worker to run out of work, unless already waiting. */
  #wait(): void {
    if (this.#waiting || this.dead !== null) return;
    this.#waiting = true;
    const wait = Atomics.waitAsync(this.#mem.ctl, REPLY, this.#seen);
    if (wait.async) void wait.value.then(this.#woken);
    else this.#woken();
  }

  /** The worker ran out of work (one function per thread, not one per wait). */
  readonly #woken = (): void => {
    this.#waiting = false;
    if (this.dead !== null) return;
    this.#take();
    if (this.busy) this.#wait();
  };

  /**
   * Takes every reply on the channel and answers its request. Each reply's time is the bot's think
   * time plus an equal share of the transport around the replies taken together (for one request
   * at a time: exactly its round trip).
   */
  #take(): void {
    const mem = this.#mem;
    this.#seen = Atomics.load(mem.ctl, REPLY);
    // The ring's end first: a reply the worker posted before a ring entry is then on the port too.
    const end = Atomics.load(mem.ctl, RING_WRITE);
    const taken = this.#taken;
    let think = 0;
    for (let m; (m = receiveMessageOnPort(this.#port)); ) {
      const r = m.message as Reply;
      taken.push(r);
      think += r.think;
    }
    let read = Atomics.load(mem.ctl, RING_READ);
    const fromRing = end - read;
    for (let i = read; i < end; i++) think += mem.ringThink[i % mem.ringSize]!;
    const n = taken.length + fromRing;
    if (n === 0) return;
    const now = sharedNow();
    const share = Math.max(0, now - this.#progress - think) / n;
    this.#progress = now;
    // Replies come in the order the requests were run, but on two channels: each is matched by its id.
    const sent = this.#sent;
    const base = sent[0]!.id;
    for (const r of taken) this.#answer(sent[r.id - base]!, replyOf(r, r.think + share));
    taken.length = 0;
    for (; read < end; read++) {
      const at = read % mem.ringSize;
      const t = mem.ringThink[at]!;
      this.#answer(sent[mem.ringInts[2 * at]! - base]!, { ok: true, move: mem.ringInts[2 * at + 1]!, ms: t + share, think: t });
    }
    Atomics.store(mem.ctl, RING_READ, end);
    while (this.#head < sent.length && sent[this.#head]!.done) this.#head++;
    if (this.#head === sent.length) {
      this.#sent = [];
      this.#head = 0;
      this.#disarm();
      return;
    }
    // A worker kept busy for long: drop the answered requests from the front now and then.
    if (this.#head > 1024) {
      this.#sent = sent.slice(this.#head);
      this.#head = 0;
    }
    // A watchdog already armed fires no later than the next request's cutoff, and re-arms then
    // (`#check`): no timer is made per take while the worker stays busy.
    if (this.#watchdog === null) this.#arm(this.#sent[this.#head]!.limitMs + this.#graceMs);
  }

  #answer(a: Ask, reply: MoveReply): void {
    a.done = true;
    a.reply = reply;
    const g = a.game;
    if (g) {
      if (reply.ok) g.told = true;
      g.asking = null;
      if (g.closed && g.thread === this) this.#free.push(g.slot); // an abandoned game's slot
    }
    a.resolve?.(reply);
  }

  #arm(inMs: number): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    // Unref'd: the worker itself keeps the process alive while a request is pending.
    this.#watchdog = setTimeout(this.#fire, Math.max(1, Math.ceil(inMs))).unref();
  }

  readonly #fire = (): void => this.#check();

  #disarm(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
  }

  /**
   * The watchdog fired: takes the replies already made (the runner may be the late one, its event
   * loop blocked past the cutoff while the bot had answered), then cuts the thread off if the
   * request it is running is past its cutoff, else re-arms for the earliest cutoff still possible.
   */
  #check(): void {
    this.#watchdog = null;
    if (this.dead !== null || !this.busy) return;
    this.#take();
    if (!this.busy) return;
    const running = this.#sent[this.#head]!;
    const now = sharedNow();
    if (Atomics.load(this.#mem.ctl, CURRENT) !== running.id) {
      this.#arm(running.limitMs + this.#graceMs); // not begun yet: it cannot end sooner than its whole limit from now
      return;
    }
    const cutoff = this.#mem.start[0]! + running.limitMs + this.#graceMs;
    if (now < cutoff) {
      this.#arm(cutoff - now);
      return;
    }
    // Settled by the thread's 'error' (out of memory) or 'exit' event, whichever comes first.
    this.#timingOut = true;
    void this.worker.terminate();
  }

  #die(reason: string, oom = false): void {
    if (this.dead !== null) return;
    this.#take(); // the answers given before the end still count
    this.dead = reason;
    this.#disarm();
    const orphans: Ask[] = [];
    if (this.busy) {
      const running = this.#sent[this.#head]!;
      if (Atomics.load(this.#mem.ctl, CURRENT) === running.id) {
        this.#head++;
        const ms = sharedNow() - this.#mem.start[0]!;
        // Out of time and being terminated: a timeout, unless the thread was already dying of memory
        // (its error can be queued behind the timer when the runner's thread is busy).
        const fault: MoveReply =
          this.#timingOut && !oom
            ? running.prepare !== null
              ? prepareTimeout(running.limitMs, ms)
              : { ok: false, kind: 'timeout', reason: `no move within ${running.limitMs} ms`, ms }
            : { ok: false, kind: 'crash', reason: running.prepare !== null ? `prepare failed: ${reason}` : reason, ms };
        this.#answer(running, fault);
      }
      for (let i = this.#head; i < this.#sent.length; i++) if (!this.#sent[i]!.done) orphans.push(this.#sent[i]!);
    }
    this.#sent = [];
    this.#head = 0;
    orphans.push(...this.#queue);
    this.#queue = [];
    for (const a of orphans) if (a.game) a.game.asking = null;
    // One that never started is a start-up failure instead.
    if (this.#started) this.#onDeath(this, orphans);
  }

  terminate(): Promise<number> {
    this.dead ??= 'closed'; // closing on purpose: no replacement
    this.#disarm();
    return this.worker.terminate();
  }
}

/**
 * Isolation `worker`: the bot runs in worker threads with a heap limit, kept for the whole
 * tournament: one per game it plays at once, up to one per CPU core, and beyond that several games
 * on each thread (their requests go out in batches, see worker-protocol.ts). A thread whose request
 * overruns its limit is terminated, that game is lost on time, and the thread's other games go on
 * on another thread from where they stood (the bot's generator included), so they play exactly as
 * they would have. A thread that crashes, exits or runs out of memory is dropped the same way. A bot
 * that cannot start forfeits all its games.
 */
export class WorkerHost implements BotHost {
  readonly label: string;
  /** Why the bot could not be started, or null. */
  failure: string | null = null;
  readonly #prepareTimeoutMs: number;
  /** Variants whose `prepare` failed: every later game of the variant forfeits with that fault. */
  readonly #prepareFailed = new Map<string, FaultReply>();
  readonly #script: Promise<URL>;
  readonly #spawnThread: () => Promise<BotThread>;
  /** Live threads, at most `#maxThreads`, and one being started. */
  readonly #threads: BotThread[] = [];
  readonly #maxThreads: number;
  #starting: Promise<BotThread> | null = null;
  #closed = false;

  constructor(label: string, options: WorkerHostOptions) {
    this.label = label;
    // The store is read once, here, and every thread of the run gets the same snapshot.
    const location = options.store ?? null;
    const snapshot = location ? runSnapshot(location, options.warn ?? warnOnStderr) : new Map<string, Uint8Array>();
    const init: WorkerInit = { file: options.file, name: options.name, options: options.options, store: { location, snapshot } };
    const concurrency = Math.max(1, options.concurrency ?? 1);
    this.#maxThreads = Math.min(concurrency, availableParallelism());
    // Each thread has room for every game of the bot at once, and for those abandoned mid-request.
    const settings = { memoryMb: options.memoryMb, graceMs: options.graceMs ?? DEFAULT_GRACE_MS, slots: 2 * concurrency, spin: concurrency <= availableParallelism() };
    this.#prepareTimeoutMs = options.prepareTimeoutMs ?? DEFAULT_PREPARE_TIMEOUT_MS;
    this.#script = options.script ?? workerScript([options.file]);
    this.#spawnThread = async () => new BotThread(await this.#script, init, settings, (t, orphans) => this.#lost(t, orphans), options.storeBackend);
  }

  /** Starts one more thread; once one cannot start, `failure` says why and every later game forfeits. */
  #spawn(): Promise<BotThread> {
    if (this.failure !== null) return Promise.reject(new BotStartError(this.failure));
    this.#starting ??= (async () => {
      let thread: BotThread;
      try {
        thread = await this.#spawnThread();
      } catch (err) {
        this.failure = err instanceof Error ? err.message : String(err);
        throw new BotStartError(this.failure);
      }
      try {
        await thread.ready;
      } catch (err) {
        await thread.terminate();
        this.failure = err instanceof Error ? err.message : String(err);
        throw new BotStartError(this.failure);
      }
      if (this.#closed) void thread.terminate();
      else this.#threads.push(thread);
      return thread;
    })().finally(() => (this.#starting = null));
    return this.#starting;
  }

  /** The thread for a new game: the one with fewest games (the first thread, when none is running). */
  #pick(): BotThread | Promise<BotThread> {
    let best: BotThread | null = null;
    for (const t of this.#threads) if (t.dead === null && (!best || t.games < best.games)) best = t;
    return best ?? this.#spawn();
  }

  /** A thread died: it is dropped, and the requests it had of other games are asked again elsewhere. */
  #lost(thread: BotThread, orphans: readonly Ask[]): void {
    const i = this.#threads.indexOf(thread);
    if (i >= 0) this.#threads.splice(i, 1);
    for (const a of orphans) {
      // A prepare is asked again by whoever waits for it; a move of an abandoned game is not asked again.
      if (a.game === null || a.game.closed) a.resolve?.(ORPHANED);
      else void this.#ask(a.game, a.state, a.moves, a.limitMs, a.clock).then((reply) => a.resolve?.(reply));
    }
  }

  /**
   * Puts a game whose thread died on another (its generator where it had got to). A game otherwise
   * stays on its thread for good: a bot's own caches of a game (minimax keeps its table per game)
   * must see all of its moves for the game to replay move for move.
   */
  async #place(g: GameSlot): Promise<BotThread> {
    const old = g.thread!;
    if (old.dead === null) return old;
    const t = await this.#pick();
    this.#move(g, t);
    return t;
  }

  /**
   * A game is waiting behind the others' requests on a busy thread (a slow bot): start another
   * thread, up to one per game and per core, for the games that open from now on.
   */
  #grow(): void {
    if (this.#threads.length < this.#maxThreads && this.#starting === null && this.failure === null && !this.#closed) void this.#spawn().catch(() => {});
  }

  /** Moves a game (between two of its requests) to another thread, its generator where it had got to. */
  #move(g: GameSlot, to: BotThread): void {
    const from = g.thread!;
    if (g.told) g.rng = from.rngOf(g.slot);
    from.detach(g);
    to.attach(g);
  }

  /** Runs the bot's `prepare` for a variant on a thread, once: null when ready, the fault, or ORPHANED to try again. */
  #prepare(t: BotThread, variant: string): Promise<FaultReply | null | typeof ORPHANED> {
    const failed = this.#prepareFailed.get(variant);
    if (failed) return Promise.resolve(failed);
    let p = t.preparing.get(variant);
    if (!p) {
      p = Promise.resolve(t.ask(ask(null, variant, null, [], undefined, this.#prepareTimeoutMs))).then((reply) => {
        if (reply === ORPHANED) {
          t.preparing.delete(variant);
          return ORPHANED;
        }
        if (reply.ok) {
          t.prepared.add(variant);
          return null;
        }
        this.#prepareFailed.set(variant, reply);
        return reply;
      });
      t.preparing.set(variant, p);
    }
    return p;
  }

  /** A move of a game whose thread is not ready for it (gone, or its variant not prepared there). */
  async #ask(g: GameSlot, state: unknown, moves: readonly unknown[], limitMs: number, clock: BotClock | undefined): Promise<MoveReply> {
    for (;;) {
      let t: BotThread;
      try {
        t = await this.#place(g);
      } catch (err) {
        return { ok: false, kind: 'crash', reason: err instanceof Error ? err.message : String(err), ms: 0 };
      }
      if (t.prepares && !t.prepared.has(g.variant)) {
        const fault = await this.#prepare(t, g.variant);
        if (fault === ORPHANED) continue;
        if (fault) return fault;
      }
      if (t.dead !== null) continue;
      return t.ask(ask(g, null, state, moves, clock, limitMs));
    }
  }

  start(): Promise<void> {
    return this.#spawn().then(() => {});
  }

  /** How many threads the bot has running. */
  get threads(): number {
    return this.#threads.length;
  }

  open(info: SessionInfo): BotSession | Promise<BotSession> {
    const g: GameSlot = { variant: info.variant, seat: info.seat, seed: info.rngSeed, rng: null, thread: null, slot: 0, told: false, asking: null, closed: false };
    const picked = this.#pick();
    if (picked instanceof Promise) return picked.then((t) => this.#session(g, t));
    return this.#session(g, picked);
  }

  #session(g: GameSlot, t: BotThread): BotSession {
    t.attach(g);
    return {
      move: (state, moves, timeMs, clock) => {
        const thread = g.thread!;
        if (thread.dead === null && (!thread.prepares || thread.prepared.has(g.variant))) {
          if (thread.lagging()) this.#grow();
          return thread.ask(ask(g, null, state, moves, clock, timeMs));
        }
        // The match changes its clock object once this move is answered: keep a copy across the warm-up.
        return this.#ask(g, state, moves, timeMs, clock && { ...clock });
      },
      close: () => {
        g.closed = true;
        g.thread?.detach(g);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#starting?.catch(() => {});
    const all = this.#threads.splice(0);
    await Promise.all(all.map((t) => t.terminate()));
  }
}
