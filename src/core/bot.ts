import type { AnyGame, Game, Seat } from './game.ts';
import type { ParamSpec } from './param-spec.ts';
import type { Rng } from './rng.ts';

/** What a bot is given each time it must move. */
export interface BotContext<S = unknown, M = unknown, O = Record<string, unknown>> {
  /** The variant being played, with its rules and optional capabilities (solver, heuristic, size). */
  readonly game: Game<S, M>;
  /** A copy of the position; the runner keeps the authoritative one. */
  readonly state: S;
  /** The legal moves; the answer must be one of them. */
  readonly moves: readonly M[];
  /** The seat this bot plays in this game. */
  readonly seat: Seat;
  /**
   * The bot's own seeded generator; use it instead of Math.random so games replay exactly. Its seed
   * comes from the tournament's seed, the variant, the deal, the seat and the bot's own label, never
   * from its opponent: the same stream in that deal and seat whoever the bot plays.
   */
  readonly rng: Rng;
  /**
   * Epoch milliseconds (`Date.now()` clock) by which the move must be returned: the move's start
   * plus its limit, the per-move limit or, with a time control, the bank left (`clock.remainingMs`)
   * when that is smaller. A bot with a clock should plan to spend only part of it (see `clock`).
   */
  readonly deadline: number;
  /**
   * The clock this move is charged on, in milliseconds on the scale of `deadline`: under the CPU
   * clock (`--clock cpu`, the default) the move's start plus the CPU time the bot has used since,
   * so a busy machine does not shorten its move; under the wall clock, `Date.now()`. A bot that
   * stops searching at `deadline` should compare it with this (absent: `Date.now()`).
   */
  readonly now?: () => number;
  /**
   * The game's time control (`--tc`), absent without one: this bot's bank as the move began. A
   * bot that budgets its time from it is clock-dependent: it calls `clockStopped` when the clock,
   * not its own node or iteration budget, ended a search.
   */
  readonly clock?: BotClock | undefined;
  /** The bot's options, validated against its `options` table with defaults filled in. */
  readonly options: O;
  /**
   * The bot's persistent store, kept across games and runs in the bot's own data folder (the only
   * place a bot may write): small JSON values and binary blobs by key. Reads see the store as it was
   * when the run began (so a learning bot replays the same games for the same starting store);
   * writes are atomic and read by the next run. Without a data folder (`bots check`) it lives in memory.
   */
  readonly store: BotStore;
  /**
   * Call when this answer was cut short by the clock (the deadline came before the bot's own node
   * or iteration budget): such a move may differ from run to run, and the game's record counts it
   * (`clockStops`). A bot that never depends on the clock never calls it.
   */
  readonly clockStopped?: () => void;
}

/**
 * A bot's time bank under a time control (`--tc base+inc`): the bank starts at the base, each move's
 * think time is taken from it and then the increment is added. A move that takes longer than the
 * bank plus the tournament's margin (`--time-margin`) loses the game on time.
 */
export interface BotClock {
  /** This bot's bank (ms) as this move began: more than this (plus the margin) loses on time. */
  readonly remainingMs: number;
  /** Added to the bank after each of its moves (ms). */
  readonly incrementMs: number;
  /** The opponent's bank (ms). */
  readonly opponentRemainingMs: number;
}

/**
 * A bot's persistent store (`ctx.store`). Keys are 1 to 64 letters, digits, `-` or `_`. A write that
 * would take the folder over its cap, a bad key or a value over 64 KiB throws a `StoreError` (the
 * bot may catch it); a folder found corrupt or over its cap at the start of a run is emptied with a
 * warning, never a crash.
 */
export interface BotStore {
  /** A small JSON value, as it was when the run began; undefined when absent. */
  get(key: string): unknown;
  /** Stores a small JSON value (at most 64 KiB serialised), atomically. */
  set(key: string, value: unknown): void;
  /** A blob, as it was when the run began (a copy); undefined when absent. */
  getBlob(key: string): Uint8Array | undefined;
  /** Stores a blob, atomically. */
  setBlob(key: string, bytes: Uint8Array): void;
  /**
   * Read–modify–write of a blob on the live folder under a lock: `update` gets the blob as it is on
   * disk now (written by this run's other games, too) and returns the new one. Use it to merge.
   */
  updateBlob(key: string, update: (current: Uint8Array | undefined) => Uint8Array): void;
  /** Removes a key (value and blob). */
  delete(key: string): void;
  /** The keys present when the run began. */
  keys(): string[];
  /** The folder's cap in bytes. */
  readonly capBytes: number;
  /** Bytes the folder takes now. */
  usedBytes(): number;
}

/**
 * A bot: the default export of a module in `bots/`. It lives for a whole tournament (in its own
 * worker thread when isolated), so module-level caches survive from game to game.
 */
export interface Bot<O extends object = Record<string, unknown>> {
  /** Unique name, used on the command line and in standings. Letters, digits, `-` and `_`. */
  readonly name: string;
  /** One line about how it plays. */
  readonly description: string;
  /** Options, set as `name:key=value,key=value` on the command line or in specs. */
  readonly options?: { readonly [K in keyof O]-?: ParamSpec<O[K]> };
  /** Whether the bot can play a variant; checked before a tournament starts. Default: all. */
  supports?(game: AnyGame): boolean;
  /**
   * Optional warm-up, like UCI's `isready`: called once per variant (per worker thread when
   * isolated) before the bot's first move in it, to build tables or caches that would not fit in
   * one move's time. It has its own generous budget (the tournament's `prepareTimeoutMs`, default
   * 30 s) instead of the move's; a throw or a timeout forfeits the game as `crash` or `timeout`
   * (and every later game of that variant, without asking again).
   */
  prepare?(game: AnyGame, options: O): void | Promise<void>;
  /** Chooses one of `ctx.moves`. */
  choose(ctx: BotContext<unknown, unknown, O>): unknown;
}

/** A bot with its option types erased. */
export type AnyBot = Bot<Record<string, unknown>>;

const BOT_NAME = /^[A-Za-z][\w-]*$/;

/**
 * Declares a bot. Checks the shape at once, so a broken bot file is reported when it loads
 * rather than halfway through a tournament.
 */
export function defineBot<O extends object = Record<string, unknown>>(bot: Bot<O>): Bot<O> {
  const problem = botProblem(bot);
  if (problem) throw new TypeError(problem);
  return Object.freeze({ ...bot, [BOT_BRAND]: true }) as Bot<O>;
}

const BOT_BRAND = Symbol.for('take-arena.bot');

/** Why a value is not a valid bot, or null when it is one. */
export function botProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return `expected a bot object (from defineBot), got ${typeof value}`;
  const bot = value as Partial<Bot>;
  if (typeof bot.name !== 'string' || !BOT_NAME.test(bot.name)) {
    return `expected \`name\` to be letters, digits, - or _, starting with a letter, got ${JSON.stringify(bot.name)}`;
  }
  if (typeof bot.description !== 'string') return `bot ${bot.name}: expected \`description\` to be a string`;
  if (typeof bot.choose !== 'function') return `bot ${bot.name}: expected \`choose\` to be a function`;
  if (bot.supports !== undefined && typeof bot.supports !== 'function') {
    return `bot ${bot.name}: expected \`supports\` to be a function`;
  }
  if (bot.prepare !== undefined && typeof bot.prepare !== 'function') {
    return `bot ${bot.name}: expected \`prepare\` to be a function`;
  }
  if (bot.options !== undefined) {
    if (bot.options === null || typeof bot.options !== 'object') return `bot ${bot.name}: expected \`options\` to be an object`;
    for (const [key, spec] of Object.entries(bot.options as Record<string, unknown>)) {
      const s = spec as Partial<ParamSpec<unknown>> | null;
      if (!s || typeof s !== 'object' || !s.schema || typeof s.schema.safeParse !== 'function') {
        return `bot ${bot.name}: option \`${key}\` needs a zod \`schema\``;
      }
    }
  }
  return null;
}
