/**
 * The local executor: a pool of lanes on this machine, each playing one game at a time against the
 * bots' hosts (one host per bot for the whole tournament). Lanes take the games of each pair in
 * schedule order, so two lanes may play the two seatings of a pair at once. There are
 * `concurrency` lanes when the spec says so; otherwise as many as pay (in-flight.ts).
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AnyGame } from '../core/game.ts';
import { moduleFiles, workerScript, type BotEntry, type BotHost, type BotSpec } from '../hosting/index.ts';
import type { BotDataSettings } from '../platform/bot-store.ts';
import type { ExecutionContext, Executor, PairSettings } from './executor.ts';
import type { MoveJudge } from './fold/accuracy.ts';
import { InFlight, type FlightControl } from './in-flight.ts';
import { isolationOf, PairPlayer, startHost } from './pair-player.ts';
import type { LiveTracker } from './live.ts';
import type { GameJob } from './schedule.ts';

/** What a local pool needs: the bots, the variants and the settings of the run. */
export interface LocalPoolOptions {
  readonly entrants: readonly { readonly spec: BotSpec; readonly entry: BotEntry }[];
  readonly variants: readonly AnyGame[];
  /** Games played at once; absent, one per CPU core at first, then as many as pay (in-flight.ts). */
  readonly concurrency?: number;
  readonly settings: PairSettings;
  /** The results folder (external bots' stderr logs go under it). */
  readonly resultsDir: string;
  /** The bots' persistent stores (`ctx.store`): one folder per bot under a root. */
  readonly botData?: BotDataSettings;
  /** What decides the games in flight without `concurrency`, given where to start and the most (default: `InFlight`, which learns it). */
  readonly flight?: (base: number, max: number) => FlightControl;
}

/**
 * How long a lane of in-process games runs before it lets the event loop turn: trusted in-process
 * bots never yield on their own, and timers (the group commit, SIGINT) and the log's write and
 * fsync callbacks must run. Short slices let each batch of records become durable, be reported
 * and die young (docs/PERFORMANCE.md "Runner and results log").
 */
const YIELD_EVERY_MS = 0.5;

/** The most games a pool that learns its games in flight keeps (the spec's own bound on `concurrency`). */
const MAX_IN_FLIGHT = 256;

/** Plays pairs on this machine with `concurrency` matches at once, or as many as pay. */
export class LocalPool implements Executor {
  /** The games played at once: the spec's, or what a learning pool starts with. */
  readonly concurrency: number;
  readonly #options: LocalPoolOptions;
  readonly #hosts = new Map<string, BotHost>();
  #flight: FlightControl | null = null;

  constructor(options: LocalPoolOptions) {
    this.#options = options;
    this.concurrency = options.concurrency ?? availableParallelism();
  }

  /** The most games this pool has had in flight. */
  get peak(): number {
    return this.#flight?.peak ?? this.concurrency;
  }

  /** Starts one host per bot; a bot that cannot start is reported and forfeits its games. */
  async #startHosts(ctx: ExecutionContext, player: PairPlayer): Promise<void> {
    const o = this.#options;
    // The transport comes from the entry: modules per `isolation`, external programs in processes.
    const modules = moduleFiles(o.entrants.filter((e) => isolationOf(o.settings, e.spec) === 'worker').map((e) => e.entry));
    const script = modules.length > 0 ? workerScript(modules) : undefined;
    for (const e of o.entrants) {
      // A reset store is an event (the dashboard and the plain lines show it), not stray stderr.
      const botData = o.botData && { ...o.botData, warn: (reason: string) => ctx.emit({ type: 'bot-store-reset', bot: e.spec.label, reason }) };
      const place = { concurrency: this.concurrency, resultsDir: o.resultsDir, ...(botData ? { botData } : {}), ...(script ? { script } : {}) };
      this.#hosts.set(e.spec.label, player.host(e.entry, e.spec, place));
    }
    const hosts = [...this.#hosts.values()];
    const failures = await Promise.all(hosts.map(startHost));
    const failed = hosts.flatMap((h, i) => (failures[i] === null ? [] : [{ bot: h.label, reason: failures[i]! }]));
    failed.sort((a, b) => a.bot.localeCompare(b.bot));
    for (const f of failed) ctx.emit({ type: 'bot-failed', bot: f.bot, reason: f.reason });
  }

  async run(ctx: ExecutionContext): Promise<void> {
    const player = new PairPlayer(this.#options.settings, ctx.signal);
    await this.#startHosts(ctx, player);
    const games: ReadonlyMap<string, AnyGame> = new Map(this.#options.variants.map((g) => [g.id, g]));
    const next = gamesOf(ctx);
    const hosts = [...this.#hosts.values()];
    // Games in flight are learned only where more of them can pay: every bot multiplexes its games.
    const learn = this.#options.concurrency === undefined && hosts.every((h) => h.thinking !== undefined);
    const flight = (this.#flight = learn ? (this.#options.flight ?? ((base, max) => new InFlight(base, max)))(this.concurrency, MAX_IN_FLIGHT) : null);
    // Each match in flight listens for the abort while it waits on a bot.
    const listeners = (flight ? MAX_IN_FLIGHT : this.concurrency) + 16;
    if (ctx.signal && getMaxListeners(ctx.signal) < listeners) setMaxListeners(listeners, ctx.signal);
    let lanes = 0;
    /** Set once the schedule has no game left for a lane. */
    let drained = false;
    const running: Promise<void>[] = [];
    const lane = async (): Promise<void> => {
      const { signal, pause } = ctx;
      // One accuracy judge per variant and lane, heard again by each of its games.
      const judges = new Map<string, MoveJudge>();
      let lastYield = performance.now();
      // A lane the pool no longer wants ends between games.
      for (let target = lanes; !flight || lanes <= target; ) {
        const gate = pause?.whenOpen(signal);
        if (gate) {
          await gate;
          lastYield = performance.now();
        }
        if (signal?.aborted) break;
        const job = next();
        if (!job) {
          // A staged format: the next stage comes once the games before it are folded.
          const more = ctx.pairs.whenMore?.();
          if (!more) {
            drained = true;
            break;
          }
          await more;
          continue;
        }
        let judge = judges.get(job.variant);
        if (!judge) judges.set(job.variant, (judge = ctx.follow(job.variant)));
        const watch = ctx.wantLive ? (live: LiveTracker) => ctx.emit({ type: 'game-started', index: job.index, key: job.key, variant: job.variant, deal: job.deal, seats: seatLabels(job), live, inFlight: lanes }) : undefined;
        const seats = this.#seatHosts(job);
        // In-process games are played within the call: a record, not a promise (no microtask per game).
        const playing = player.play(job, games.get(job.variant)!, seats, judge, watch);
        const rec = playing instanceof Promise ? await playing : playing;
        if (rec.termination === 'interrupted') {
          ctx.emit({ type: 'game-aborted', index: job.index, key: job.key });
          break;
        }
        if (flight) {
          target = flight.finished(Math.max(seats.first.thinking!, seats.second.thinking!));
          for (let more = target - lanes; more > 0 && !drained; more--) open();
        }
        const behind = ctx.finish(rec, judge.judgement());
        if (behind) {
          await behind;
          lastYield = performance.now();
        }
        if (performance.now() - lastYield > YIELD_EVERY_MS) {
          await nextTurn();
          lastYield = performance.now();
        }
      }
      lanes--;
    };
    const open = (): void => {
      lanes++;
      // Each lane starts a tick later: in-process games are played within the call, and the lanes
      // opened together are all counted (a game's `inFlight`) before the first of them plays.
      running.push(Promise.resolve().then(lane));
    };
    // `concurrency` lanes, counted as opened: one may end before its first await (nothing left to play).
    for (let i = 0; i < this.concurrency; i++) open();
    // Lanes opened while the others play are waited for too.
    for (let waited = 0; waited < running.length; ) {
      const n = running.length;
      await Promise.all(running.slice(waited, n));
      waited = n;
    }
  }

  #seatHosts(job: GameJob): { first: BotHost; second: BotHost } {
    return { first: this.#hosts.get(job.seats.first.label)!, second: this.#hosts.get(job.seats.second.label)! };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#hosts.values()].map((h) => h.close()));
  }
}

/** The bots' labels by seat. */
function seatLabels(job: GameJob): { first: string; second: string } {
  return { first: job.seats.first.label, second: job.seats.second.label };
}

/** The games of the pairs from `ctx.pairs`, one at a time in schedule order, those already played passed over. */
function gamesOf(ctx: ExecutionContext): () => GameJob | null {
  // The second game of the pair pulled last.
  let second: GameJob | null = null;
  return () => {
    for (;;) {
      if (second) {
        const job = second;
        second = null;
        if (!ctx.pairs.isDone(job.index)) return job;
      }
      const pair = ctx.pairs.next();
      if (!pair) return null;
      second = pair.games[1];
      if (!ctx.pairs.isDone(pair.games[0].index)) return pair.games[0];
    }
  };
}
