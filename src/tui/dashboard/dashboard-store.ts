import type { ArenaEvent, FinishedEvent, GameStartedEvent, LiveSnapshot, StandingsEvent, WorkerStatus } from '../../arena/events.ts';
import type { GameRecord } from '../../arena/match.ts';
import type { Standings } from '../../arena/fold/standings.ts';
import type { FormatStandings } from '../../arena/staged/format.ts';
import { TimeTally, type SprtResult, type TimeTotals } from '../../arena/summary.ts';
import { fmtInt } from '../text/layout.ts';
import { visible } from '../../core/text.ts';
import { gameLine, repairedLine, storeResetLine } from './plain.ts';

/** A game in flight as the dashboard draws it: who plays what, and its position as of one render. */
export interface LiveBoard extends LiveSnapshot {
  readonly index: number;
  readonly key: string;
  readonly variant: string;
  readonly seats: { readonly first: string; readonly second: string };
  /** The `arena worker` playing it (queued tournaments). */
  readonly worker?: string;
}

/** Everything the dashboard shows, as of one render. */
export interface DashboardModel {
  readonly name: string;
  readonly dir: string;
  readonly seed: number | null;
  readonly bots: readonly string[];
  readonly variants: readonly string[];
  readonly total: number;
  readonly done: number;
  /** Games already in the log when this run started (resume); not counted in the rate. */
  readonly resumed: number;
  /** `Date.now()` when the tournament started, and of this snapshot. */
  readonly startedAt: number;
  readonly now: number;
  /** Whether the tournament is paused (no new game starts), and the time spent paused so far (ms). */
  readonly paused: boolean;
  readonly pausedMs: number;
  /** Games in flight, oldest first. */
  readonly live: readonly LiveBoard[];
  /** Games the local pool keeps in flight (its `concurrency`, or what it learned), as of the last game started; null unknown. */
  readonly inFlight: number | null;
  /** Finished games, newest last (at most `RECENT_KEPT`). */
  readonly recent: readonly GameRecord[];
  /**
   * Lines printed once above the dashboard by `<Static>`, oldest first: one per finished game
   * while games finish slowly; when many finish between two renders, one line for the batch plus
   * one per forfeit (a line per game at thousands of games a second would cost more than the games).
   */
  readonly log: readonly LogEntry[];
  /** The standings after exactly `done` games (read from the run when drawn, where it offers them). */
  readonly standings: Standings | null;
  /** A Swiss's score table or a knockout's bracket as it stands (null in other formats). */
  readonly format: FormatStandings | null;
  /** Each pairing's sequential test as it stands (a gauntlet or match with `sprt`), in pairing order. */
  readonly sprt: readonly SprtResult[];
  readonly failedBots: readonly { readonly bot: string; readonly reason: string }[];
  readonly finished: FinishedEvent | null;
  /** A queued tournament's link to Redis and its workers (null when games are played locally). */
  readonly queue: QueueView | null;
  /** Under a time control: think time and arena overhead of the games finished so far (null otherwise). */
  readonly time: TimeTotals | null;
}

/** What the header shows of a queued tournament. */
export interface QueueView {
  readonly link: 'connecting' | 'connected' | 'reconnecting';
  readonly detail: string;
  readonly workers: readonly WorkerStatus[];
  /** Pairs in the queue, not yet folded. */
  readonly queued: number;
}

/** The workers of a queued tournament: how many, games each, seconds since each one's heartbeat. */
export function workersText(q: QueueView): string {
  if (q.workers.length === 0) return `no worker yet (start one: arena worker --queue …) · ${fmtInt(q.queued)} pairs queued`;
  const each = q.workers.map((w) => `${w.id} ${fmtInt(w.games)} games (${w.lastBeatS} s${w.state === 'working' || w.state === 'idle' ? '' : `, ${w.state}`})`);
  return `${q.workers.length} worker${q.workers.length === 1 ? '' : 's'}: ${each.join(' · ')} · ${fmtInt(q.queued)} pairs queued`;
}

/** Finished games kept for the results view. */
export const RECENT_KEPT = 200;
/**
 * One line of the dashboard's scrolling log: a finished game, a batch of games, the count of
 * forfeits a batch did not list, a results log repaired on resume, a bot's store reset, or news of
 * a queued tournament's Redis and workers; `warn`
 * when the view shows it as a warning (a forfeit, a repair, a reset).
 */
export interface LogEntry {
  readonly kind: 'game' | 'batch' | 'more' | 'repaired' | 'store-reset' | 'queue';
  readonly warn: boolean;
  readonly text: string;
}

function gameEntry(rec: GameRecord, done: number, total: number): LogEntry {
  return { kind: 'game', warn: rec.faulty !== null, text: gameLine(rec, done, total) };
}

/** Most finished games logged one line each per render; beyond it a batch gets one line. */
export const LOG_EACH_UPTO = 12;

/** Games per second of this run (resumed games excluded), or null before there is a measure. */
export function gamesPerSecond(m: DashboardModel): number | null {
  // Time spent paused is not playing time: it would drag the rate down and push the ETA out.
  const secs = (m.now - m.startedAt - m.pausedMs) / 1000;
  const played = m.done - m.resumed;
  return secs > 0.2 && played > 0 ? played / secs : null;
}

/** Estimated milliseconds left at the current rate, or null. */
export function etaMs(m: DashboardModel): number | null {
  const rate = gamesPerSecond(m);
  return rate ? ((m.total - m.done) / rate) * 1000 : null;
}

/** A finished game as a log line needs it. */
interface Finished {
  readonly rec: GameRecord;
  readonly done: number;
  readonly total: number;
}

/** The finished games since the last render (see `#addToBatch`). */
interface Batch {
  count: number;
  firstDone: number;
  lastDone: number;
  total: number;
  /** The first `LOG_EACH_UPTO` games: logged one line each when the batch is that small. */
  readonly head: Finished[];
  /** The first `LOG_EACH_UPTO` forfeits, and how many there were. */
  readonly forfeits: Finished[];
  forfeitCount: number;
}

const emptyBatch = (): Batch => ({ count: 0, firstDone: 0, lastDone: 0, total: 0, head: [], forfeits: [], forfeitCount: 0 });

/** A game in flight: its start event (with the runner's live view) and its board as last drawn. */
interface InFlight {
  readonly started: GameStartedEvent;
  board: LiveBoard | null;
}

/** Longest wait between two renders when renders are expensive (ms). */
export const MAX_RENDER_INTERVAL_MS = 2000;

/**
 * Folds the event stream and hands the React tree a snapshot at most once per `intervalMs`.
 * Events only update mutable fields in O(1) (a fast tournament sends thousands a second); the
 * immutable model is built once per render, and that is also when the positions of the games in
 * flight are read from the runner's live views (moves are never events: polling costs per render,
 * not per move). With a `budget`, the store also measures what each render costs (React and Ink
 * run in the microtasks after the notification) and spaces renders so that they take at most that
 * share of the time: the dashboard's cost to a tournament stays bounded however fast the games are
 * or however slow the terminal is.
 */
export class DashboardStore {
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #intervalMs: number;
  readonly #clock: () => number;
  readonly #budget: number;
  /** Smoothed cost of one render (ms). */
  #renderMs = 0;
  // The folded state.
  #name = '';
  #dir = '';
  #seed: number | null = null;
  #bots: readonly string[] = [];
  #variants: readonly string[] = [];
  #total = 0;
  #done = 0;
  #resumed = 0;
  #startedAt: number;
  #pausedMs = 0;
  #pausedSince: number | null = null;
  /** By schedule index, in start order. */
  #live = new Map<number, InFlight>();
  #inFlight: number | null = null;
  /** The run's standings as they stand, read at each render (`tournament-started`'s `standingsNow`). */
  #standingsNow: (() => Omit<StandingsEvent, 'type'>) | null = null;
  #recent: GameRecord[] = [];
  #batch: Batch = emptyBatch();
  readonly #log: LogEntry[] = [];
  #standings: Standings | null = null;
  #format: FormatStandings | null = null;
  /** By pairing (`a \t b`), in the order first heard. */
  readonly #sprt = new Map<string, SprtResult>();
  #failedBots: { bot: string; reason: string }[] = [];
  #finished: FinishedEvent | null = null;
  #queue: QueueView | null = null;
  /** Think time and overhead of this run's finished games (the summary's totals, with a resumed log's, at the end). */
  readonly #time = new TimeTally();
  #timeTotals: TimeTotals | null = null;
  #snapshot: DashboardModel;

  constructor(intervalMs = 100, clock: () => number = Date.now, budget = 0) {
    this.#intervalMs = intervalMs;
    this.#clock = clock;
    this.#budget = budget;
    this.#startedAt = clock();
    this.#snapshot = this.#build();
  }

  /** Folds an event; schedules one render for the next frame (the last event renders at once). */
  push(e: ArenaEvent): void {
    switch (e.type) {
      case 'tournament-started':
        this.#name = e.name;
        this.#seed = e.seed;
        this.#dir = e.dir;
        this.#bots = e.bots;
        this.#variants = e.variants;
        this.#total = e.total;
        this.#done = e.done;
        this.#resumed = e.done;
        this.#startedAt = this.#clock();
        this.#standingsNow = e.standingsNow ?? null;
        if (e.repaired) this.#note({ kind: 'repaired', warn: true, text: repairedLine(e.repaired) });
        break;
      case 'bot-failed':
        this.#failedBots.push({ bot: e.bot, reason: visible(e.reason) });
        break;
      case 'bot-store-reset':
        this.#note({ kind: 'store-reset', warn: true, text: storeResetLine(e) });
        break;
      case 'game-started':
        if (e.inFlight !== undefined) this.#inFlight = e.inFlight;
        // In-process bots often play a whole game before the sink hears of it: nothing to show,
        // and the store keeps no reference to it until its `game-ended`, after the group commit
        // (docs/PERFORMANCE.md: records that die young).
        if (!e.live.over) this.#live.set(e.index, { started: e, board: null });
        break;
      case 'game-ended':
        this.#done = e.done;
        this.#total = e.total;
        this.#live.delete(e.record.index);
        this.#recent.push(e.record);
        this.#time.add(e.record);
        if (this.#recent.length >= 2 * RECENT_KEPT) this.#recent.splice(0, this.#recent.length - RECENT_KEPT);
        this.#addToBatch(e.record, e.done, e.total);
        break;
      case 'game-aborted':
        this.#live.delete(e.index);
        break;
      case 'sprt':
        this.#sprt.set(`${e.result.a}\t${e.result.b}`, e.result);
        break;
      case 'standings':
        this.#standings = e.standings;
        this.#format = e.format ?? null;
        this.#done = e.done;
        this.#total = e.total;
        break;
      case 'queue-link':
        this.#queue = { link: e.state, detail: e.detail, workers: this.#queue?.workers ?? [], queued: this.#queue?.queued ?? 0 };
        if (e.state === 'reconnecting') this.#note({ kind: 'queue', warn: true, text: `Redis ${e.url}: reconnecting${e.detail ? ` (${e.detail})` : ''}; nothing already logged is lost` });
        else if (e.detail) this.#note({ kind: 'queue', warn: false, text: `Redis ${e.url}: connected again, ${e.detail}` });
        break;
      case 'queue-status':
        this.#queue = { link: e.link, detail: e.detail, workers: e.workers, queued: e.queued };
        break;
      case 'queue-problem':
        this.#note({ kind: 'queue', warn: true, text: `! ${e.worker !== undefined ? `worker ${e.worker}: ` : ''}${e.reason}` });
        break;
      case 'finished':
        this.#finished = e;
        this.#timeTotals = e.summary.time ?? null;
        this.#live.clear();
        this.#standings = e.summary.standings;
        this.#format = e.summary.format ?? null;
        this.flush();
        return;
    }
    this.#schedule();
  }

  /** Marks the tournament paused or running again (the dashboard's `p`); renders at once. */
  setPaused(paused: boolean): void {
    const now = this.#clock();
    if (paused && this.#pausedSince === null) this.#pausedSince = now;
    else if (!paused && this.#pausedSince !== null) {
      this.#pausedMs += now - this.#pausedSince;
      this.#pausedSince = null;
    }
    this.flush();
  }

  /** Adds a line to the log, its control characters made visible (it may quote a bot: core/text.ts). */
  #note(entry: LogEntry): void {
    const text = visible(entry.text);
    this.#log.push(text === entry.text ? entry : { ...entry, text });
  }

  /** Builds the snapshot and tells the listeners now. */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    // Reading the standings is part of what a render costs: it counts against the budget.
    const t0 = performance.now();
    this.#drainPending();
    this.#snapshot = this.#build();
    for (const l of this.#listeners) l();
    if (this.#budget > 0 && this.#listeners.size > 0) {
      // React schedules the render in a microtask and Ink writes in its commit: a microtask queued
      // now runs right after them.
      queueMicrotask(() => {
        const ms = performance.now() - t0;
        this.#renderMs = this.#renderMs === 0 ? ms : 0.8 * this.#renderMs + 0.2 * ms;
      });
    }
  }

  /** Time to wait before the next render: the base interval, stretched to keep renders within the budget. */
  get renderIntervalMs(): number {
    if (this.#budget <= 0) return this.#intervalMs;
    return Math.min(MAX_RENDER_INTERVAL_MS, Math.max(this.#intervalMs, this.#renderMs / this.#budget));
  }

  /**
   * Notes a finished game for the next render's log lines. Only what a line may print is kept (the
   * first few games, the first few forfeits, counts): the store holds a bounded number of records
   * however many games finish between two renders (docs/PERFORMANCE.md: records that die young).
   */
  #addToBatch(rec: GameRecord, done: number, total: number): void {
    const b = this.#batch;
    if (b.count === 0) b.firstDone = done;
    b.count++;
    b.lastDone = done;
    b.total = total;
    if (b.head.length < LOG_EACH_UPTO) b.head.push({ rec, done, total });
    if (rec.faulty !== null) {
      b.forfeitCount++;
      if (b.forfeits.length < LOG_EACH_UPTO) b.forfeits.push({ rec, done, total });
    }
  }

  /** Moves finished games into the log: one line each, or one per batch plus each forfeit. */
  #drainPending(): void {
    const b = this.#batch;
    if (b.count === 0) return;
    this.#batch = emptyBatch();
    if (b.count <= LOG_EACH_UPTO) {
      for (const p of b.head) this.#note(gameEntry(p.rec, p.done, p.total));
      return;
    }
    const width = String(b.total).length;
    this.#note({
      kind: 'batch',
      warn: b.forfeitCount > 0,
      text: `[${String(b.firstDone).padStart(width)}–${b.lastDone}/${b.total}] ${b.count} games finished${b.forfeitCount ? `, ${b.forfeitCount} by forfeit:` : ''}`,
    });
    for (const p of b.forfeits) this.#note(gameEntry(p.rec, p.done, p.total));
    if (b.forfeitCount > LOG_EACH_UPTO) {
      this.#note({ kind: 'more', warn: true, text: `  … and ${b.forfeitCount - LOG_EACH_UPTO} more forfeits (see the results view and games.jsonl)` });
    }
  }

  #build(): DashboardModel {
    const now = this.#clock();
    if (this.#standingsNow && !this.#finished) {
      // The standings of exactly the games counted in the header and listed in the results.
      const s = this.#standingsNow();
      this.#standings = s.standings;
      this.#format = s.format ?? null;
    }
    return {
      name: this.#name,
      dir: this.#dir,
      seed: this.#seed,
      bots: this.#bots,
      variants: this.#variants,
      total: this.#total,
      done: this.#done,
      resumed: this.#resumed,
      startedAt: this.#startedAt,
      now,
      paused: this.#pausedSince !== null,
      pausedMs: this.#pausedMs + (this.#pausedSince === null ? 0 : now - this.#pausedSince),
      live: this.#liveBoards(),
      inFlight: this.#inFlight,
      recent: this.#recent.slice(-RECENT_KEPT),
      // A fresh array whenever it grew: Ink's <Static> memoises on the array's identity.
      log: this.#log.slice(),
      standings: this.#standings,
      format: this.#format,
      sprt: [...this.#sprt.values()],
      failedBots: this.#failedBots.slice(),
      finished: this.#finished,
      queue: this.#queue,
      time: this.#finished ? this.#timeTotals : this.#time.totals(),
    };
  }

  /**
   * The boards of the games in flight, read from the runner's live views. A game is serialised
   * again only when it has moved since the last render (its `ply` changed); one that is over on
   * the board leaves the view (and the store) at once, though its `game-ended` comes later
   * (group commit).
   */
  #liveBoards(): LiveBoard[] {
    const boards: LiveBoard[] = [];
    for (const [i, g] of this.#live) {
      const { index, key, variant, seats, live, worker } = g.started;
      if (live.over) {
        this.#live.delete(i); // deleting the current entry while iterating a Map is safe
        continue;
      }
      if (g.board === null || g.board.ply !== live.ply) {
        const s = live.snapshot();
        g.board = { index, key, variant, seats, ply: s.ply, position: s.position, prevState: s.prevState, last: s.last, ...(worker !== undefined ? { worker } : {}) };
      }
      if (g.board.position.toMove !== null) boards.push(g.board);
    }
    return boards;
  }

  #schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), this.renderIntervalMs);
  }

  /** For `useSyncExternalStore`. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The model as of the last render (stable between renders, as React requires). */
  readonly getSnapshot = (): DashboardModel => this.#snapshot;

  /** Cancels the pending render (on unmount). */
  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }
}
