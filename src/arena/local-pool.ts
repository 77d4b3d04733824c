/**
 * The local executor: a pool of `concurrency` lanes on this machine, each playing one game at a
 * time against the bots' hosts (one host per bot for the whole tournament). Lanes take the games of
 * each pair in schedule order, so two lanes may play the two seatings of a pair at once.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AnyGame } from '../core/game.ts';
import { moduleFiles, workerScript, type BotEntry, type BotHost, type BotSpec } from '../hosting/index.ts';
import type { BotDataSettings } from '../platform/bot-store.ts';
import type { ExecutionContext, Executor, PairSettings } from './executor.ts';
import type { MoveJudge } from './fold/accuracy.ts';
import { isolationOf, PairPlayer, startHost } from './pair-player.ts';
import type { LiveTracker } from './live.ts';
import type { GameJob } from './schedule.ts';

/** What a local pool needs: the bots, the variants and the settings of the run. */
export interface LocalPoolOptions {
  readonly entrants: readonly { readonly spec: BotSpec; readonly entry: BotEntry }[];
  readonly variants: readonly AnyGame[];
  readonly concurrency: number;
  readonly settings: PairSettings;
  /** The results folder (external bots' stderr logs go under it). */
  readonly resultsDir: string;
  /** The bots' persistent stores (`ctx.store`): one folder per bot under a root. */
  readonly botData?: BotDataSettings;
}

/**
 * How long a lane of in-process games runs before it lets the event loop turn: trusted in-process
 * bots never yield on their own, and timers (the group commit, SIGINT) and the log's write and
 * fsync callbacks must run. Short slices let each batch of records become durable, be reported
 * and die young (docs/PERFORMANCE.md "Runner and results log").
 */
const YIELD_EVERY_MS = 0.5;

/** Plays pairs on this machine with `concurrency` matches at once. */
export class LocalPool implements Executor {
  readonly concurrency: number;
  readonly #options: LocalPoolOptions;
  readonly #hosts = new Map<string, BotHost>();

  constructor(options: LocalPoolOptions) {
    this.#options = options;
    this.concurrency = options.concurrency;
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
      const place = { concurrency: o.concurrency, resultsDir: o.resultsDir, ...(botData ? { botData } : {}), ...(script ? { script } : {}) };
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
    const lane = async (): Promise<void> => {
      const { signal, pause } = ctx;
      // One accuracy judge per variant and lane, heard again by each of its games.
      const judges = new Map<string, MoveJudge>();
      let lastYield = performance.now();
      for (;;) {
        const gate = pause?.whenOpen(signal);
        if (gate) {
          await gate;
          lastYield = performance.now();
        }
        if (signal?.aborted) return;
        const job = next();
        if (!job) {
          // A staged format: the next stage comes once the games before it are folded.
          const more = ctx.pairs.whenMore?.();
          if (!more) return;
          await more;
          continue;
        }
        let judge = judges.get(job.variant);
        if (!judge) judges.set(job.variant, (judge = ctx.follow(job.variant)));
        const watch = ctx.wantLive ? (live: LiveTracker) => ctx.emit({ type: 'game-started', index: job.index, key: job.key, variant: job.variant, deal: job.deal, seats: seatLabels(job), live }) : undefined;
        const rec = await player.play(job, games.get(job.variant)!, this.#seatHosts(job), judge, watch);
        if (rec.termination === 'interrupted') {
          ctx.emit({ type: 'game-aborted', index: job.index, key: job.key });
          return;
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
    };
    await Promise.all(Array.from({ length: this.concurrency }, lane));
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
