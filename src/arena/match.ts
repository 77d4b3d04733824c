import { otherSeat, type AnyGame, type Outcome, type Seat } from '../core/game.ts';
import { createRng } from '../core/rng.ts';
import { judgeReply } from '../core/referee.ts';
import { BotStartError, DEFAULT_GRACE_MS, type BotHost, type BotSession, type FaultKind, type MoveReply, type SessionEnd } from '../hosting/index.ts';
import type { GameJob } from './schedule.ts';
import type { SeatClock, TimeControl } from './time-control.ts';

/**
 * How a game ended: a closed set (fastchess `MatchTermination`). `adjudicated`: stopped by
 * `--adjudicate` once the solver knew the exact result (the winner is the proven one).
 */
export type Termination = 'normal' | FaultKind | 'adjudicated' | 'interrupted';

/**
 * A finished game: exactly one line of `games.jsonl`. Holds the whole job (so the line alone
 * replays the game), every move with its time, and how it ended. Moves and their times are two
 * parallel arrays rather than an object per move: a game costs two arrays however long it is, and
 * the log writes them as one string and one integer array (see `results.ts`).
 */
export interface GameRecord extends Pick<GameJob, 'index' | 'key' | 'variant' | 'deal' | 'dealSeed' | 'seating' | 'botSeeds'> {
  /** Bot label in each seat. */
  readonly seats: { readonly first: string; readonly second: string };
  /** The dealt start position, as the game's `toJSON`. */
  readonly start: unknown;
  /** Every move in GAMES.md notation, in order. */
  readonly moves: readonly string[];
  /**
   * The time each move took its bot, in whole microseconds (parallel to `moves`). Under a time
   * control it is the think time charged to the bot's bank, measured where the bot runs (its
   * thread, or reported by its process: see docs/TOURNAMENTS.md "Time controls"); otherwise the
   * time the host measured around the bot (the round trip through a process; through a worker, the
   * think time timed on its thread plus an equal share of the transport around the replies taken
   * together, which for one game per thread is the round trip).
   */
  readonly us: readonly number[];
  /**
   * Under a time control only: the arena's overhead on each move in whole microseconds (parallel to
   * `moves`): the round trip its host measured (messages, copies, scheduling) minus the think time in
   * `us`; 0 for in-process bots, which have no transport. Never charged to a bank.
   */
  readonly ovh?: readonly number[];
  /**
   * Under the CPU clock only (`clock: "cpu"`, where `us` is the CPU time charged): the wall time of
   * each move in whole microseconds (parallel to `moves`), from the arena's request to the answer it
   * took, transport and waiting included (in-process, around the bot's `choose`, as its host timed
   * it). On a busy machine it exceeds `us`; nothing is judged by it.
   */
  readonly wus?: readonly number[];
  /** The game's time control (each seat's bank: base and increment, ms), absent without one. */
  readonly timeControl?: TimeControl;
  /** Time odds: each seat's own clock (bank and per-move limit), as the job gave them; `timeControl` is then absent. */
  readonly seatClocks?: { readonly first: SeatClock; readonly second: SeatClock };
  /** The winner's seat (null for a draw) and, for scored games that ended normally, the scores. */
  readonly outcome: { readonly winner: Seat | null; readonly scores?: readonly [number, number] };
  /** The winner's label, or null for a draw. */
  readonly winner: string | null;
  readonly termination: Termination;
  /** The seat that forfeited (null when the game ended normally). */
  readonly faulty: Seat | null;
  /** Why the game ended abnormally (null when normal). */
  readonly reason: string | null;
  /** For `adjudicated` games: the solver's exact value for the seat to move, and the ply it was taken at (moves played). */
  readonly adjudicated?: { readonly value: number; readonly ply: number };
  /**
   * Times the game's pair was started elsewhere before the run that produced this record (a queued
   * tournament's worker died or stalled): absent when it was played at the first attempt.
   */
  readonly retries?: number;
  /** The `arena worker` that played the game (queued tournaments only). */
  readonly worker?: string;
  /**
   * Present when a bot's clock (its safety net) cut some of its answers short: how many moves per
   * seat. Such a game may not replay move for move; without it (and without `restarts`), the same
   * spec and seed replay it exactly.
   */
  readonly clockStops?: { readonly first: number; readonly second: number };
  /**
   * Present when a bot's process was replaced during the game (another game's fault ended the
   * process they shared): the bot went on from where its generator stood but without what it had
   * kept for this game, so from move `ply` (0-based) on the game may not replay move for move.
   * One entry per restart, with why the old process ended.
   */
  readonly restarts?: readonly GameRestart[];
}

/** A bot's process replaced during a game (see `GameRecord.restarts`). */
export interface GameRestart {
  readonly seat: Seat;
  /** The move the bot answered first on its new process (0-based: moves played before it). */
  readonly ply: number;
  readonly reason: string;
}

/**
 * Where a match keeps its latest position for watchers that poll it (the dashboard), written in
 * place after every move: references and numbers only, so a watched game costs no allocation, no
 * serialisation and no call per move. States are immutable (`play` never mutates), so holding a
 * reference is as good as a copy.
 */
export interface LiveSlot {
  /** The current position (the dealt one until the first move). */
  state: unknown;
  /** The position before the last move (undefined until the first move). */
  prev: unknown;
  /** Moves played so far. */
  ply: number;
  /** Who played the last move (null until the first move), the move in GAMES.md notation, and the bot's time (ms). */
  seat: Seat | null;
  move: string;
  ms: number;
  /** Set when the game has ended, however it ended (before its record is durable). */
  over: boolean;
}

/**
 * Hears a game as the match plays it: the dealt position, then each move's mover and the position
 * it reached (the match's own copies, never a bot's). Called synchronously, so it sees every
 * position before the next move is asked for.
 */
export interface MoveObserver {
  dealt(start: unknown): void;
  moved(seat: Seat, state: unknown): void;
}

/** Options of one match. */
export interface MatchOptions {
  /** Kept up to date as the game goes (only pass it when someone watches). */
  readonly live?: LiveSlot;
  /** Aborting ends the game as `interrupted` before the next move. */
  readonly signal?: AbortSignal;
  /**
   * Adjudication (`--adjudicate`): the exact value of a position for the seat to move (> 0 won,
   * < 0 lost, 0 drawn; for scored games the best achievable margin), or null when it is not known.
   * Asked after every move once both seats have moved; a known value ends the game with it.
   */
  readonly judge?: (state: unknown) => number | null;
  /**
   * How far past its limit a bot may answer (ms; the tournament's `timeMarginMs`, default
   * `DEFAULT_GRACE_MS`). The hosts cut a silent bot off there; under a time control the match also
   * forfeits a move whose think time overran the bank by more than this.
   */
  readonly marginMs?: number;
  /** Record each move's wall time too (`GameRecord.wus`): the hosts charge CPU time. */
  readonly wallTimes?: boolean;
  /** Called once the game is dealt (into `live`), before its first move is asked for. */
  readonly dealt?: () => void;
}

/** The sessions of a game's two seats (null until opened). */
type Sessions = Record<Seat, BotSession | null>;

/** A promise that settles (with null) when a signal aborts, and how to stop listening. */
interface AbortWait {
  readonly promise: Promise<null>;
  readonly unlisten: () => void;
}

function abortWait(signal: AbortSignal): AbortWait {
  let on: () => void = () => {};
  const promise = new Promise<null>((resolve) => {
    on = () => resolve(null);
    signal.addEventListener('abort', on, { once: true });
  });
  return { promise, unlisten: () => signal.removeEventListener('abort', on) };
}

/** A game in play: what its record and its sessions need when it ends. */
interface GameInPlay {
  readonly job: GameJob;
  /** The dealt position, as the game's `toJSON`. */
  readonly start: unknown;
  /** Moves so far in notation, and each bot's time in integer µs. */
  readonly moves: string[];
  readonly us: number[];
  /** Each move's arena overhead in integer µs (only under a time control). */
  readonly ovh: number[] | null;
  /** Each move's wall time in integer µs (only under the CPU clock). */
  readonly wus: number[] | null;
  /** Moves each seat's bot said were cut short by its clock rather than its own budget. */
  readonly clock: { first: number; second: number };
  /** Restarts of a bot's process in this game, null while there are none. */
  restarts: GameRestart[] | null;
  readonly sessions: Sessions;
  /** Made on the first asynchronous reply when the match has a signal (see `playMatch`). */
  abort: AbortWait | null;
  readonly live: LiveSlot | undefined;
}

/** How a game ended: by the rules (its outcome), or by a fault or interruption (who, and why). */
interface Ending {
  readonly outcome: Outcome | null;
  readonly termination: Termination;
  /** The seat that forfeited, null otherwise. */
  readonly faulty: Seat | null;
  readonly reason: string | null;
  readonly adjudicated?: { readonly value: number; readonly ply: number };
}

const INTERRUPTED: Ending = { outcome: null, termination: 'interrupted', faulty: null, reason: 'tournament interrupted' };

/** Integer µs as ms with one decimal, for reasons. */
function msText(us: number): string {
  return (us / 1000).toFixed(1);
}

/** A forfeit of `seat`: its fault kind and the reason. */
function forfeit(seat: Seat, termination: FaultKind, reason: string): Ending {
  return { outcome: null, termination, faulty: seat, reason };
}

/** Ends a game: tells both sessions how it ended and builds its record. */
function finishGame(played: GameInPlay, { outcome, termination, faulty, reason, adjudicated }: Ending): GameRecord {
  const { job, sessions, live } = played;
  played.abort?.unlisten();
  if (live) live.over = true;
  const winner: Seat | null = faulty ? otherSeat(faulty) : (outcome?.winner ?? null);
  const out: GameRecord['outcome'] =
    termination === 'normal' && outcome?.scores ? { winner, scores: [outcome.scores[0], outcome.scores[1]] } : { winner };
  // Each session hears how the game ended (external bots get it as `game-over`), with the keys of
  // `out` in its order, spelled out rather than spread (docs/PERFORMANCE.md "Runner and results log").
  const end: SessionEnd = out.scores ? { winner, scores: out.scores, termination, reason } : { winner, termination, reason };
  sessions.first?.close(end);
  sessions.second?.close(end);
  // One literal without spreads, the rare fields added after it (docs/PERFORMANCE.md).
  const rec: { -readonly [K in keyof GameRecord]: GameRecord[K] } = {
    index: job.index,
    key: job.key,
    variant: job.variant,
    deal: job.deal,
    dealSeed: job.dealSeed,
    seating: job.seating,
    seats: { first: job.seats.first.label, second: job.seats.second.label },
    botSeeds: job.botSeeds,
    start: played.start,
    moves: played.moves,
    us: played.us,
    outcome: out,
    winner: winner === null ? null : job.seats[winner].label,
    termination,
    faulty,
    reason,
  };
  if (job.seatClocks) rec.seatClocks = job.seatClocks;
  if (played.ovh) {
    rec.ovh = played.ovh;
    if (job.timeControl) rec.timeControl = job.timeControl;
  }
  if (played.wus) rec.wus = played.wus;
  if (adjudicated) rec.adjudicated = adjudicated;
  if (played.clock.first + played.clock.second > 0) rec.clockStops = { first: played.clock.first, second: played.clock.second };
  if (played.restarts) rec.restarts = played.restarts;
  return rec;
}

/**
 * Plays one scheduled game. The match owns the authoritative state: it asks the seat to move for a
 * move (with the legal list and a deadline), checks the reply against the list, applies the
 * runner's own copy of the move, and stops at the end or at the first fault. It never throws for
 * anything a bot does. `observer` hears every position (see `MoveObserver`). A game whose sessions
 * open and answer synchronously (in-process bots) is played to its end within the call and its
 * record returned as it is: no promise and no microtask per game; the first asynchronous answer
 * makes the rest of the game a promise.
 */
export function playMatch(
  job: GameJob,
  game: AnyGame,
  hosts: { readonly first: BotHost; readonly second: BotHost },
  options: MatchOptions = {},
  observer?: MoveObserver,
): GameRecord | Promise<GameRecord> {
  const state = game.deal(createRng(job.dealSeed));
  const { live } = options;
  if (live) live.state = state;
  observer?.dealt(state);
  options.dealt?.();
  // Each seat's clock: its own under time odds, else the game's. Banks are for both seats or neither (prepare.ts).
  const clocks = job.seatClocks ?? { first: job, second: job };
  const tc = clocks.first.timeControl && { first: clocks.first.timeControl, second: clocks.second.timeControl! };
  const played: GameInPlay = {
    job,
    start: game.toJSON(state),
    moves: [],
    us: [],
    ovh: tc ? [] : null,
    wus: options.wallTimes ? [] : null,
    clock: { first: 0, second: 0 },
    restarts: null,
    sessions: { first: null, second: null },
    abort: null,
    live,
  };
  const bank = tc ? new Bank(tc, (options.marginMs ?? DEFAULT_GRACE_MS) * 1000) : null;
  // Without a time control this is the whole limit, and nothing below touches a clock.
  const perMove = { first: clocks.first.timePerMoveMs ?? Infinity, second: clocks.second.timePerMoveMs ?? Infinity };
  const opened = openSessions(played, hosts);
  const begin = (failed: Ending | null): GameRecord | Promise<GameRecord> =>
    failed ? finishGame(played, failed) : new Match(played, game, state, perMove, bank, options, observer).play(null);
  return opened instanceof Promise ? opened.then(begin) : begin(opened);
}

/** The legal list before the first move is asked for. */
const NO_MOVES: readonly unknown[] = [];

/** A move asked for whose answer is a promise: what the match needs to judge it once it comes. */
interface PendingMove {
  readonly seat: Seat;
  readonly legal: readonly unknown[];
  /** The limit was the bank, not the per-move limit. */
  readonly bankLimited: boolean;
  /** The match times the move itself (for `wus`), from `asked0`. */
  readonly timeIt: boolean;
  readonly asked0: number;
  readonly movedFirst: boolean;
  readonly movedSecond: boolean;
}

/**
 * The moves of one game whose sessions are open: `play` asks and judges moves synchronously while
 * the bots answer synchronously (everything in locals), and goes on in a promise from the first
 * answer that is one (what it needs then kept in `#pending`).
 */
class Match {
  readonly #played: GameInPlay;
  readonly #game: AnyGame;
  #state: unknown;
  readonly #perMoveFirst: number;
  readonly #perMoveSecond: number;
  readonly #bank: Bank | null;
  readonly #options: MatchOptions;
  readonly #observer: MoveObserver | undefined;
  #pending: PendingMove | null = null;

  constructor(played: GameInPlay, game: AnyGame, state: unknown, perMove: { readonly first: number; readonly second: number }, bank: Bank | null, options: MatchOptions, observer: MoveObserver | undefined) {
    this.#played = played;
    this.#game = game;
    this.#state = state;
    this.#perMoveFirst = perMove.first;
    this.#perMoveSecond = perMove.second;
    this.#bank = bank;
    this.#options = options;
    this.#observer = observer;
  }

  /** Plays on from `answered` (the answer to `#pending`, or null to ask the first move) to the end. */
  play(answered: MoveReply | null): GameRecord | Promise<GameRecord> {
    const game = this.#game;
    const played = this.#played;
    const { moves, us, wus, sessions } = played;
    const { signal, judge, live } = this.#options;
    const observer = this.#observer;
    const bank = this.#bank;
    // Per seat as plain locals, not objects indexed by the seat's name (a keyed access per move).
    const firstSession = sessions.first!;
    const secondSession = sessions.second!;
    let state = this.#state;
    let reply = answered;
    const pending = this.#pending;
    let seat: Seat = pending?.seat ?? 'first';
    let legal = pending?.legal ?? NO_MOVES;
    let bankLimited = pending?.bankLimited ?? false;
    let timeIt = pending?.timeIt ?? false;
    let asked0 = pending?.asked0 ?? 0;
    let movedFirst = pending?.movedFirst ?? false;
    let movedSecond = pending?.movedSecond ?? false;
    for (;;) {
      if (reply === null) {
        const outcome = game.outcome(state);
        if (outcome) return finishGame(played, { outcome, termination: 'normal', faulty: null, reason: null });
        if (signal?.aborted) return finishGame(played, INTERRUPTED);
        legal = game.moves(state);
        if (legal.length === 0) throw new Error(`${game.id}: no legal moves but no outcome in ${game.describe(state)}`);
        seat = game.toMove(state);
        const perMove = seat === 'first' ? this.#perMoveFirst : this.#perMoveSecond;
        const limit = bank ? bank.limit(seat, perMove) : perMove;
        bankLimited = limit < perMove;
        const session = seat === 'first' ? firstSession : secondSession;
        // The move's wall time for `wus`: read here unless the session times its bot itself.
        timeIt = wus !== null && session.wallTimed !== true;
        asked0 = timeIt ? performance.now() : 0;
        const asked = session.move(state, legal, limit, bank?.view);
        if (asked instanceof Promise) {
          this.#state = state;
          this.#pending = { seat, legal, bankLimited, timeIt, asked0, movedFirst, movedSecond };
          return this.#wait(asked);
        }
        reply = asked;
      }
      const wallMs = timeIt ? performance.now() - asked0 : 0;
      const overdrawn = bank?.charge(seat, reply, bankLimited);
      if (overdrawn) return finishGame(played, overdrawn);
      const i = judgeReply(game, legal, reply);
      if (typeof i !== 'number') return finishGame(played, forfeit(seat, i.kind, i.reason));
      const move = legal[i];
      if (reply.ok && reply.restarted !== undefined) (played.restarts ??= []).push({ seat, ply: moves.length, reason: reply.restarted });
      const before = state;
      state = game.play(state, move);
      observer?.moved(seat, state);
      const text = game.formatMove(move);
      moves.push(text);
      if (bank) {
        us.push(bank.settle(seat));
        played.ovh!.push(bank.overhead);
      } else us.push(Math.round(reply.ms * 1000));
      if (wus) wus.push(Math.round((reply.ok && !timeIt ? (reply.wall ?? 0) : wallMs) * 1000));
      if (seat === 'first') movedFirst = true;
      else movedSecond = true;
      if (reply.ok && reply.clock) played.clock[seat]++;
      if (live) showMove(live, before, state, moves.length, seat, text, reply.ms);
      if (judge && movedFirst && movedSecond && !game.outcome(state)) {
        const value = judge(state);
        if (value !== null) return finishGame(played, adjudicated(game.toMove(state), value, moves.length));
      }
      reply = null;
    }
  }

  /**
   * Waits for an asynchronous answer, then plays on. `abort` settles when the signal aborts, so a
   * game waiting on a slow bot stops at once: made on the first asynchronous reply only, and its
   * listener removed at the end (no per-game leak).
   */
  async #wait(asked: Promise<MoveReply>): Promise<GameRecord> {
    const played = this.#played;
    const { signal } = this.#options;
    const reply = signal ? await Promise.race([asked, (played.abort ??= abortWait(signal)).promise]) : await asked;
    if (reply === null) return finishGame(played, INTERRUPTED);
    return this.play(reply);
  }
}

const SEATS = ['first', 'second'] as const;

/**
 * Opens the seats' sessions from `SEATS[from]` on; a bot that cannot start forfeits (its Ending),
 * else null. In-process hosts open synchronously: then so does this, with no promise per game.
 */
function openSessions(played: GameInPlay, hosts: { readonly first: BotHost; readonly second: BotHost }, from = 0): Ending | null | Promise<Ending | null> {
  const { job, sessions } = played;
  for (let k = from; k < SEATS.length; k++) {
    const seat = SEATS[k]!;
    let opened: BotSession | Promise<BotSession>;
    try {
      opened = hosts[seat].open({ key: job.key, variant: job.variant, seat, rngSeed: job.botSeeds[seat] });
    } catch (err) {
      return openFailed(seat, err);
    }
    if (opened instanceof Promise) return openRest(played, hosts, k, opened);
    sessions[seat] = opened;
  }
  return null;
}

/** `openSessions` on from a seat whose host opens asynchronously. */
async function openRest(played: GameInPlay, hosts: { readonly first: BotHost; readonly second: BotHost }, k: number, opening: Promise<BotSession>): Promise<Ending | null> {
  const seat = SEATS[k]!;
  try {
    played.sessions[seat] = await opening;
  } catch (err) {
    return openFailed(seat, err);
  }
  return openSessions(played, hosts, k + 1);
}

/** A bot that could not start forfeits; anything else is the arena's own failure. */
function openFailed(seat: Seat, err: unknown): Ending {
  if (!(err instanceof BotStartError)) throw err;
  return forfeit(seat, 'crash', `failed to start: ${err.message}`);
}

/** The watchers' view after a move (written in place: see `LiveSlot`). */
function showMove(live: LiveSlot, before: unknown, state: unknown, ply: number, seat: Seat, text: string, ms: number): void {
  live.prev = before;
  live.state = state;
  live.ply = ply;
  live.seat = seat;
  live.move = text;
  live.ms = ms;
}

/** The ending of a game the solver knows: `value` for `mover`, the seat to move at `ply`. */
function adjudicated(mover: Seat, value: number, ply: number): Ending {
  const winner: Seat | null = value > 0 ? mover : value < 0 ? otherSeat(mover) : null;
  const reason = `solver: ${value > 0 ? 'won' : value < 0 ? 'lost' : 'drawn'} for ${mover} to move (value ${value}) at ply ${ply}`;
  return { outcome: { winner }, termination: 'adjudicated', faulty: null, reason, adjudicated: { value, ply } };
}

/**
 * Both seats' time banks under a time control, in integer µs (the record's `us` sum to them
 * exactly), and the one clock object the sessions are shown, updated in place before each move.
 */
class Bank {
  readonly view: { remainingMs: number; incrementMs: number; opponentRemainingMs: number };
  readonly #left: { first: number; second: number };
  readonly #incMs: { readonly first: number; readonly second: number };
  readonly #marginUs: number;
  /** The last move's charged think time and arena overhead (µs), set by `charge`. */
  #spent = 0;
  overhead = 0;

  /** Each seat's bank: the same control for both, or each its own (time odds). */
  constructor({ first, second }: { readonly first: TimeControl; readonly second: TimeControl }, marginUs: number) {
    this.#left = { first: first.baseMs * 1000, second: second.baseMs * 1000 };
    this.#incMs = { first: first.incMs, second: second.incMs };
    this.#marginUs = marginUs;
    this.view = { remainingMs: 0, incrementMs: first.incMs, opponentRemainingMs: 0 };
  }

  /** The limit of `seat`'s next move: the bank when it is the smaller (whole ms: hosts' messages show the limit). */
  limit(seat: Seat, perMove: number): number {
    const left = this.#left[seat];
    this.view.remainingMs = left / 1000;
    this.view.incrementMs = this.#incMs[seat];
    this.view.opponentRemainingMs = this.#left[otherSeat(seat)] / 1000;
    return left / 1000 < perMove ? Math.floor(left / 1000) : perMove;
  }

  /**
   * Charges a reply to `seat`'s bank: the bot's own think time where it was measured apart from the
   * round trip (a thread, a process), else what the host measured around it (in-process: the same
   * thing). The forfeit when the bank is overdrawn by more than the margin, else null.
   */
  charge(seat: Seat, reply: MoveReply, bankLimited: boolean): Ending | null {
    const left = this.#left[seat];
    const exhausted = (what: string): Ending => forfeit(seat, 'timeout', `time bank exhausted (${msText(left)} ms left + ${this.#marginUs / 1000} ms margin): ${what}`);
    this.#spent = 0;
    this.overhead = 0;
    if (!reply.ok) return reply.kind === 'timeout' && bankLimited ? exhausted(reply.reason) : null;
    const roundTrip = Math.round(reply.ms * 1000);
    this.#spent = reply.think === undefined ? roundTrip : Math.min(roundTrip, Math.round(reply.think * 1000));
    this.overhead = roundTrip - this.#spent;
    return this.#spent > left + this.#marginUs ? exhausted(`thought ${msText(this.#spent)} ms`) : null;
  }

  /** Takes the charged time from the bank of `seat`, adds the increment; returns the time charged. */
  settle(seat: Seat): number {
    this.#left[seat] = Math.max(0, this.#left[seat] - this.#spent) + this.#incMs[seat] * 1000;
    return this.#spent;
  }
}
