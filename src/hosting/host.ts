/**
 * The bot-host contract: what the tournament (or the play screen, or the conformance check) asks of
 * a bot whatever runs it, and the faults a host reports instead of throwing.
 */
import type { BotClock } from '../core/bot.ts';
import type { Seat } from '../core/game.ts';
import { visible } from '../core/text.ts';
import type { FaultKind, FaultReply, MoveReply } from '../core/referee.ts';

/** A bot as a job names it: everything needed to load it anywhere (no process-local state). */
export interface BotSpec {
  /** Canonical label used in standings, e.g. `minimax:depth=6`. */
  readonly label: string;
  /** The bot's `name` (found by discovery in `bots/` and the spec's `botDirs`). */
  readonly name: string;
  /** Validated options, defaults filled. */
  readonly options: Readonly<Record<string, unknown>>;
}

export type { FaultKind, FaultReply, MoveReply } from '../core/referee.ts';

/** What a host needs to know about one game of one bot. */
export interface SessionInfo {
  /** The game's key in the schedule. */
  readonly key: string;
  /** The variant id; the host builds its own Game from it. */
  readonly variant: string;
  /** The seat the bot plays. */
  readonly seat: Seat;
  /** Seed of the bot's generator for this game. */
  readonly rngSeed: number;
}

/** One bot playing one game: asked for moves until the game ends, then closed. */
export interface BotSession {
  /**
   * Asks for a move. The host never throws for anything the bot does: throws, hangs, exits and
   * unclonable replies come back as faults. Synchronous when it can be (in-process bots), so a
   * match of trusted bots runs without a promise per move. `timeMs` is the move's limit; `clock`,
   * given only under a time control, is the bot's bank as the move begins (the bot sees it as
   * `ctx.clock`): the match reuses one object per game and changes it between moves, so a host
   * copies what it keeps, and answers with the bot's own think time (`think`) when it is measured
   * apart from the round trip. A synchronous reply may be one object the session refills at every
   * move (in-process bots: nothing allocated per move for it): read it before asking for the next.
   */
  move(state: unknown, moves: readonly unknown[], timeMs: number, clock?: BotClock): MoveReply | Promise<MoveReply>;
  /**
   * Set when every answer the session gives carries `wall`, the wall time it measured around the
   * bot (in-process: it reads the clock around `choose` anyway), so the match need not read the
   * clock around the move itself for `GameRecord.wus`.
   */
  readonly wallTimed?: boolean;
  /**
   * Ends the session; the host may reuse its resources for another game. `end` says how the game
   * ended (external bots hear it as `game-over`); it is absent when a game is abandoned early.
   */
  close(end?: SessionEnd): void;
}

/** How a game ended, as told to each session when it closes. */
export interface SessionEnd {
  /** The winner's seat, null for a draw (or an interrupted game). */
  readonly winner: Seat | null;
  readonly termination: 'normal' | FaultKind | 'adjudicated' | 'interrupted';
  /** Why the game ended abnormally, null when normal. */
  readonly reason: string | null;
  /** Final scores `[first, second]` of scored games that ended normally. */
  readonly scores?: readonly [number, number];
}

/**
 * Runs one bot for a whole tournament, behind one interface whatever the transport: in-process
 * (isolation `none`), worker threads (`worker`) or an external program's processes (manifests).
 */
export interface BotHost {
  /** The bot's label in standings. */
  readonly label: string;
  /** Why the bot could not be started (it then forfeits every game), or null. */
  readonly failure: string | null;
  /** Loads the bot; rejects with BotStartError (and sets `failure`) when it cannot start. */
  start(): Promise<void>;
  /** Opens a game; rejects with BotStartError when the bot cannot be (re)started. */
  open(info: SessionInfo): BotSession | Promise<BotSession>;
  /** Releases everything (terminates workers). */
  close(): Promise<void>;
  /**
   * For a host that plays many games on each of its processes (isolation `worker`): the share of
   * its processes' time its bot spent thinking over its last answers, 0 to 1 (the busiest
   * process's). Low, the games wait on the transport, which more games in flight batch; high, on
   * the bot. Absent where every game in flight costs a process of its own or runs on the arena's
   * thread, so that more games in flight than cores never pay.
   */
  readonly thinking?: number;
}

/**
 * A bot that cannot be loaded or restarted; its games are forfeited as `crash`. The message may
 * quote the bot (its output, its error): its control characters are made visible.
 */
export class BotStartError extends Error {
  override name = 'BotStartError';

  constructor(message: string) {
    super(visible(message));
  }
}

/** Extra time after the deadline before a silent bot is declared out of time (message latency, timers). */
export const DEFAULT_GRACE_MS = 50;

/**
 * Under the CPU clock, the wall time a request may take before its bot is stopped anyway (ms): a
 * bot that sleeps, blocks or hands its work to a thread of its own uses no CPU here, so a move
 * limited to `limitMs` of CPU gets ten times that in wall time, and 2 s more, before it loses on
 * time. Far above what a busy machine stretches an honest move to (at a load of 18 on 2 cores, a
 * CPU-bound move's wall time is about nine times its CPU time).
 */
export function wallCapMs(limitMs: number): number {
  return 10 * limitMs + 2000;
}

/** The reason of a move that overran its limit (`cpu`: its CPU time, under the CPU clock). */
export function overranReason(limitMs: number, cpu: boolean): string {
  return `no move within ${limitMs} ms${cpu ? ' of CPU time' : ''}`;
}

/** The reason of a move stopped by the CPU clock's wall-clock cap (`wallCapMs`). */
export function wallCapReason(limitMs: number): string {
  return `no move within ${limitMs} ms: stopped at the CPU clock's wall-clock cap of ${wallCapMs(limitMs)} ms`;
}

/** Budget of a bot's `prepare` (per variant) when the spec sets none (ms). */
export const DEFAULT_PREPARE_TIMEOUT_MS = 30_000;

/** Default CPU seconds per sandboxed process. */
export const DEFAULT_SANDBOX_CPU_SECONDS = 600;

/** Node's permission flag: stable as `--permission` from Node 22, experimental before. */
export function permissionFlags(versions: NodeJS.ProcessVersions = process.versions): string[] {
  const major = Number(versions.node.split('.')[0]);
  return major >= 22 ? ['--permission'] : ['--experimental-permission', '--no-warnings'];
}

/** The fault of a `prepare` that threw. */
export function prepareCrash(err: unknown, ms: number): FaultReply {
  return { ok: false, kind: 'crash', reason: `prepare failed: ${errorText(err)}`, ms };
}

/** The fault of a `prepare` that overran its budget. */
export function prepareTimeout(limitMs: number, ms: number): FaultReply {
  return { ok: false, kind: 'timeout', reason: `prepare took longer than its ${limitMs} ms budget`, ms };
}

/** One-line text of anything thrown (by a bot, often), its control characters made visible. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return visible(`${err.name}: ${err.message}`.split('\n')[0]!);
  try {
    return visible(`threw ${JSON.stringify(err) ?? String(err)}`);
  } catch {
    return visible(`threw ${String(err)}`);
  }
}

/** Whether a bot's return value is a promise (or any thenable). */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as { then?: unknown }).then === 'function';
}
