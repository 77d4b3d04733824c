/**
 * Isolation `none`: the bot runs on the runner's thread, with its own Game objects and read-only states.
 */
// Imported rather than the global, which is slower to read (docs/PERFORMANCE.md, "Bot hosting"); read twice a move here.
import { performance } from 'node:perf_hooks';
import type { AnyBot, BotClock, BotStore } from '../core/bot.ts';
import { createBotStore, runSnapshot, warnOnStderr, type StoreLocation } from '../platform/bot-store.ts';
import type { StoreCall } from '../platform/store-bridge.ts';
import { threadCpuClock, type ClockKind, type ThreadCpuClock } from '../platform/cpu-clock.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, type Rng } from '../core/rng.ts';
import { parseVariant } from '../games/index.ts';
import {
  BotStartError,
  DEFAULT_GRACE_MS,
  DEFAULT_PREPARE_TIMEOUT_MS,
  errorText,
  isThenable,
  prepareCrash,
  prepareTimeout,
  wallCapMs,
  wallCapReason,
  type BotHost,
  type BotSession,
  type BotSpec,
  type FaultReply,
  type MoveReply,
  type SessionInfo,
} from './host.ts';

/** Thrown inside `deepFreeze` when a value cannot be frozen (typed arrays, maps, sets). */
const UNFREEZABLE = Symbol('unfreezable');

function deepFreeze(v: object): void {
  if (ArrayBuffer.isView(v)) throw UNFREEZABLE;
  // A plain object or array (what game states are made of) is no Map, Set or ArrayBuffer: one
  // prototype read instead of three prototype-chain walks a value, on every move.
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype && (v instanceof Map || v instanceof Set || v instanceof ArrayBuffer)) throw UNFREEZABLE;
  Object.freeze(v);
  // Recurse even into already-frozen objects: a shallow-frozen state may hold mutable children.
  // (`for…in` rather than Object.keys: no array allocated per position, this runs on every move.)
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') deepFreeze(x);
    }
  } else {
    for (const key in v) {
      const x = (v as Record<string, unknown>)[key];
      if (x !== null && typeof x === 'object') deepFreeze(x);
    }
  }
}

/**
 * A read-only view of a value for an in-process bot: deep-frozen in place (rules are pure, so the
 * runner never mutates its states either), or a structured copy when it holds typed arrays or maps.
 */
export function readOnly<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  try {
    deepFreeze(v);
    return v;
  } catch (err) {
    if (err === UNFREEZABLE) return structuredClone(v);
    throw err;
  }
}

/**
 * Isolation `none`: the bot runs on the runner's thread. Fast (no copies, no messages), but a bot
 * stuck in a synchronous loop cannot be stopped and `process.exit` ends everything, so this is for
 * trusted bots only. The bot still gets its own Game objects and read-only states.
 */
export class InProcessHost implements BotHost {
  readonly label: string;
  failure: string | null = null;
  /** The bot, or what imports it (at `start`: a discovered module is imported only when it plays). */
  #bot: AnyBot | (() => Promise<AnyBot>);
  readonly #options: Readonly<Record<string, unknown>>;
  readonly #graceMs: number;
  readonly #prepareTimeoutMs: number;
  readonly #games = new Map<string, AnyGame>();
  /** Per variant: prepared (true), being prepared, or the fault every later game forfeits with. */
  readonly #prepared = new Map<string, true | FaultReply | Promise<FaultReply | null>>();
  /** The bot's store: its folder's snapshot, read once when the host is made (see bot-store.ts). */
  readonly #store: BotStore;
  /** This thread's CPU clock under the CPU clock, else null. */
  readonly #cpu: ThreadCpuClock | null;

  /**
   * `bot` is the bot or a function that imports it (called by `start`); `store` is the bot's data
   * folder (none: a store in memory, for checks and tests); `warn` hears a store that had to be reset;
   * `remote` sends the store's writes to a live copy held elsewhere (a queued run's Redis);
   * `clock` is what moves are charged (under `cpu`, a synchronous answer's CPU time on this thread;
   * an asynchronous one's wall time, as other games run on the thread while it waits).
   */
  constructor(
    spec: BotSpec,
    bot: AnyBot | (() => Promise<AnyBot>),
    graceMs = DEFAULT_GRACE_MS,
    prepareTimeoutMs = DEFAULT_PREPARE_TIMEOUT_MS,
    store: StoreLocation | null = null,
    warn: (message: string) => void = warnOnStderr,
    remote?: StoreCall,
    clock: ClockKind = 'wall',
  ) {
    this.label = spec.label;
    this.#bot = bot;
    this.#options = readOnly(structuredClone(spec.options) as Record<string, unknown>);
    this.#graceMs = graceMs;
    this.#prepareTimeoutMs = prepareTimeoutMs;
    this.#store = createBotStore(store ? runSnapshot(store, warn) : new Map(), store, remote);
    this.#cpu = clock === 'cpu' ? threadCpuClock() : null;
  }

  /**
   * Runs the bot's `prepare` for a variant once (concurrent games of the variant share the run):
   * null when it is ready, else the fault. Synchronous when it can be.
   */
  #prepare(variant: string, game: AnyGame): FaultReply | null | Promise<FaultReply | null> {
    const known = this.#prepared.get(variant);
    if (known === true) return null;
    if (known !== undefined) return known;
    const limit = this.#prepareTimeoutMs;
    const t0 = performance.now();
    let done: unknown;
    try {
      done = this.#loaded.prepare!(game, this.#options);
    } catch (err) {
      const fault = prepareCrash(err, performance.now() - t0);
      this.#prepared.set(variant, fault);
      return fault;
    }
    // An async prepare's time counts from its call: what it ran before returning its promise too.
    const result: FaultReply | null | Promise<FaultReply | null> = isThenable(done)
      ? new Promise<FaultReply | null>((resolve) => {
          const timer = setTimeout(() => resolve(prepareTimeout(limit, performance.now() - t0)), Math.max(0, t0 + limit + this.#graceMs - performance.now()));
          done.then(
            () => {
              clearTimeout(timer);
              const ms = performance.now() - t0;
              resolve(ms > limit + this.#graceMs ? prepareTimeout(limit, ms) : null);
            },
            (err: unknown) => {
              clearTimeout(timer);
              resolve(prepareCrash(err, performance.now() - t0));
            },
          );
        })
      : performance.now() - t0 > limit + this.#graceMs // a synchronous warm-up cannot be stopped, only judged
        ? prepareTimeout(limit, performance.now() - t0)
        : null;
    if (result instanceof Promise) void result.then((r) => this.#prepared.set(variant, r ?? true));
    this.#prepared.set(variant, result ?? true);
    return result;
  }

  async start(): Promise<void> {
    if (typeof this.#bot !== 'function') return;
    try {
      this.#bot = await this.#bot();
    } catch (err) {
      this.failure = errorText(err);
      throw err;
    }
  }

  /** The bot; only after `start` when it is imported then, and never when that failed. */
  get #loaded(): AnyBot {
    // A bot that could not be imported forfeits each game it is seated in (the match's start-up crash).
    if (this.failure !== null) throw new BotStartError(this.failure);
    if (typeof this.#bot === 'function') throw new Error(`internal: bot ${this.label} used before its host started`);
    return this.#bot;
  }

  open(info: SessionInfo): BotSession {
    let game = this.#games.get(info.variant);
    if (!game) {
      // The bot's own Game instance, frozen: a bot cannot swap the runner's rules.
      game = Object.freeze(parseVariant(info.variant));
      this.#games.set(info.variant, game);
    }
    const g = game;
    const bot = this.#loaded;
    const prepare = bot.prepare && this.#prepared.get(info.variant) !== true ? () => this.#prepare(info.variant, g) : null;
    return new InProcessSession(bot, game, info.seat, createRng(info.rngSeed), this.#options, this.#store, this.#graceMs, prepare, this.#cpu);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The bot's copy of the legal moves: the list itself when it is already frozen and holds only
 * primitives (games that cache their move lists, such as subtraction, hand out frozen ones), a
 * plain copy when every move is a primitive (cheaper than freezing, and the runner keeps its own
 * list), a read-only view otherwise.
 */
function movesForBot(moves: readonly unknown[]): readonly unknown[] {
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    if (m !== null && typeof m === 'object') return readOnly(moves);
  }
  return Object.isFrozen(moves) ? moves : moves.slice();
}

/**
 * `Date.now()` minus `performance.now()`, shared by every in-process session: a deadline is on the
 * wall clock, but a move reads only the monotonic one. Re-read at most once a second, so no drift
 * builds up over a long tournament, without two more clock reads per game.
 */
const wallClock = { offset: Date.now() - performance.now(), at: performance.now() };

/** The wall-clock deadline of a move that started at `t0` (monotonic ms) with `timeMs` to think. */
function deadlineOf(t0: number, timeMs: number): number {
  if (t0 - wallClock.at > 1000) {
    wallClock.offset = Date.now() - t0;
    wallClock.at = t0;
  }
  return wallClock.offset + t0 + timeMs;
}

/** A bot's own copy of its clock (the match reuses one object per game). */
function copyClock(c: BotClock): BotClock {
  return { remainingMs: c.remainingMs, incrementMs: c.incrementMs, opponentRemainingMs: c.opponentRemainingMs };
}

class InProcessSession implements BotSession {
  readonly #bot: AnyBot;
  readonly #game: AnyGame;
  readonly #seat: Seat;
  readonly #rng: Rng;
  readonly #options: Readonly<Record<string, unknown>>;
  readonly #store: BotStore;
  readonly #graceMs: number;
  #prepare: (() => FaultReply | null | Promise<FaultReply | null>) | null;
  readonly #cpu: ThreadCpuClock | null;
  /** The running move's start on `Date.now()`'s scale and on the CPU clock: `ctx.now` counts from them. */
  #moveEpoch = 0;
  #moveCpu = 0;
  /** `ctx.now`: bound once per session, like `#clockStopped`. */
  readonly #now: () => number;

  constructor(
    bot: AnyBot,
    game: AnyGame,
    seat: Seat,
    rng: Rng,
    options: Readonly<Record<string, unknown>>,
    store: BotStore,
    graceMs: number,
    /** The variant's `prepare`, run before the first move (null: nothing to prepare). */
    prepare: (() => FaultReply | null | Promise<FaultReply | null>) | null,
    cpu: ThreadCpuClock | null,
  ) {
    this.#cpu = cpu;
    this.#now = cpu ? this.#cpuNow.bind(this) : Date.now;
    this.#bot = bot;
    this.#game = game;
    this.#seat = seat;
    this.#rng = rng;
    this.#options = options;
    this.#store = store;
    this.#graceMs = graceMs;
    this.#prepare = prepare;
  }

  /** The last move list the bot received as it was (frozen, deep): the same list again needs no check. */
  #sharedMoves: readonly unknown[] | null = null;
  /** Set through `ctx.clockStopped` during the current move (one session has one move at a time). */
  #clock = false;
  /**
   * `ctx.clockStopped`: one function per session rather than a closure per move (a closure
   * costs more than many a move), bound rather than an arrow so that tsx's name-keeping wrapper (a
   * `defineProperty` per function made) does not run for every game either.
   */
  readonly #clockStopped = this.#markClock.bind(this);

  /** The reply to a synchronous move, refilled at every move of the session (see `BotSession.move`). */
  readonly #reply: { ok: true; move: unknown; ms: number; wall: number; clock: boolean } = { ok: true, move: undefined, ms: 0, wall: 0, clock: false };

  /** Every answer carries its wall time (`wall`): the clock is read around `choose` anyway. */
  readonly wallTimed = true;

  #markClock(): void {
    this.#clock = true;
  }

  #cpuNow(): number {
    return this.#moveEpoch + (this.#cpu!.now() - this.#moveCpu);
  }

  move(state: unknown, moves: readonly unknown[], timeMs: number, bank?: BotClock): MoveReply | Promise<MoveReply> {
    if (this.#prepare) {
      const ready = this.#prepare();
      this.#prepare = null;
      // The move's clock starts only once the bot is prepared: the warm-up has its own budget.
      if (ready instanceof Promise) {
        // The match changes its clock object once this move is answered: keep a copy across the wait.
        const kept = bank && copyClock(bank);
        return ready.then((fault) => fault ?? this.#choose(state, moves, timeMs, kept));
      }
      if (ready) return ready;
    }
    return this.#choose(state, moves, timeMs, bank);
  }

  #choose(state: unknown, moves: readonly unknown[], timeMs: number, bank: BotClock | undefined): MoveReply | Promise<MoveReply> {
    const view = readOnly(state);
    let list = moves;
    if (moves !== this.#sharedMoves) {
      list = movesForBot(moves);
      if (list === moves) this.#sharedMoves = moves;
    }
    // Two clock reads per move, one before and one after: the deadline is on the `Date.now()`
    // clock (see `deadlineOf`) and the CPU clock is read against them (`ThreadCpuClock.at`).
    const t0 = performance.now();
    const cpu = this.#cpu;
    const deadline = deadlineOf(t0, timeMs);
    if (cpu) {
      this.#moveCpu = cpu.at(t0);
      this.#moveEpoch = deadline - timeMs;
    }
    let reply: unknown;
    this.#clock = false;
    try {
      reply = this.#bot.choose({
        clockStopped: this.#clockStopped,
        now: this.#now,
        game: this.#game,
        state: view,
        moves: list,
        seat: this.#seat,
        rng: this.#rng,
        deadline,
        options: this.#options,
        store: this.#store,
        // The bot's own copy (the match reuses its object); made only under a time control.
        clock: bank && copyClock(bank),
      });
    } catch (err) {
      return { ok: false, kind: 'crash', reason: errorText(err), ms: performance.now() - t0 };
    }
    const t1 = performance.now();
    const wall = t1 - t0;
    // Nothing else ran on this thread meanwhile: its CPU time is the bot's (a lazy read is at most a fraction of a ms behind, never past the wall time).
    const ms = cpu ? Math.min(wall, cpu.at(t1) - this.#moveCpu) : wall;
    if (!isThenable(reply)) {
      if (ms > timeMs + this.#graceMs) return { ok: false, kind: 'timeout', reason: `took ${ms.toFixed(0)} ms${cpu ? ' of CPU time' : ''}, limit ${timeMs} ms`, ms };
      if (cpu && wall > wallCapMs(timeMs) + this.#graceMs) return { ok: false, kind: 'timeout', reason: wallCapReason(timeMs), ms };
      const done = this.#reply;
      done.move = reply;
      done.ms = ms;
      done.wall = wall;
      done.clock = this.#clock;
      return done;
    }
    return this.#later(reply, ms, wall, timeMs);
  }

  /**
   * The reply to a move the bot answered with a promise, within its limit counted from when it was
   * asked: an `async choose` runs synchronously up to its first `await`, so the time it took before
   * returning its promise counts too (`before`, on the move's clock: under the CPU clock, its CPU
   * time), and from then on the wall time (other games run on this thread while it waits, so its
   * CPU time is not the bot's alone). The answer is judged by its time when it comes, as well as by
   * the timer. `beforeWall`: the wall time up to the promise, for the answer's `wall`. Apart from
   * `#choose`: the closures here would otherwise make every synchronous move allocate their context.
   */
  #later(reply: PromiseLike<unknown>, before: number, beforeWall: number, timeMs: number): Promise<MoveReply> {
    const limit = timeMs + this.#graceMs;
    const t1 = performance.now();
    const spent = (): number => before + performance.now() - t1;
    return new Promise<MoveReply>((resolve) => {
      const late = (ms: number): MoveReply => ({ ok: false, kind: 'timeout', reason: `no move within ${timeMs} ms (took ${ms.toFixed(0)} ms)`, ms });
      const timer = setTimeout(() => resolve(late(spent())), Math.max(0, limit - before));
      reply.then(
        (move) => {
          clearTimeout(timer);
          const after = performance.now() - t1;
          const ms = before + after;
          const wall = beforeWall + after;
          if (ms > limit) resolve(late(ms));
          else resolve(this.#clock ? { ok: true, move, ms, wall, clock: true } : { ok: true, move, ms, wall });
        },
        (err: unknown) => {
          clearTimeout(timer);
          resolve({ ok: false, kind: 'crash', reason: errorText(err), ms: spent() });
        },
      );
    });
  }

  close(): void {}
}
