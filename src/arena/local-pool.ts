/**
 * The local executor: a pool of `concurrency` lanes on this machine, each playing one game at a
 * time against the bots' hosts (one host per bot for the whole tournament). Lanes take the games of
 * each pair in schedule order, so two lanes may play the two seatings of a pair at once.
 */
import type { BotDataSettings } from '../platform/bot-store.ts';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AnyGame } from '../core/game.ts';
import { createHost, moduleFiles, workerScript, type BotEntry, type BotHost, type BotSpec, type Isolation } from '../hosting/index.ts';
import type { ExecutionContext, Executor, PairSettings } from './executor.ts';
import { LiveTracker } from './live.ts';
import { exactJudge, playMatch, type GameRecord, type MatchOptions } from './match.ts';
import type { GameJob } from './schedule.ts';

/** What a local pool needs: the bots, the variants and the host settings of the run. */
export interface LocalPoolOptions extends PairSettings {
  readonly entrants: readonly { readonly spec: BotSpec; readonly entry: BotEntry }[];
  readonly variants: readonly AnyGame[];
  readonly concurrency: number;
  /** The results folder (external bots' stderr logs go under it). */
  readonly resultsDir: string;
  /** The bots' persistent stores (`ctx.store`): one folder per bot under a root. */
  readonly botData?: BotDataSettings;
}

/** How long a lane of in-process games runs before it lets the event loop turn (see `run`). */
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
  async #startHosts(ctx: ExecutionContext): Promise<void> {
    const o = this.#options;
    // The transport comes from the entry: modules per `isolation`, external programs in processes.
    const isolationOf = (e: { readonly spec: BotSpec }): Isolation => o.botIsolation?.[e.spec.name] ?? o.isolation;
    const modules = moduleFiles(o.entrants.filter((e) => isolationOf(e) === 'worker').map((e) => e.entry));
    const script = modules.length > 0 ? workerScript(modules) : undefined;
    for (const e of o.entrants) {
      this.#hosts.set(
        e.spec.label,
        createHost(e.entry, e.spec, {
          isolation: isolationOf(e),
          ...(o.cpuSeconds !== undefined ? { cpuSeconds: o.cpuSeconds } : {}),
          ...(o.revealOpponents ? { revealOpponents: true } : {}),
          memoryMb: o.memoryMb,
          concurrency: o.concurrency,
          prepareTimeoutMs: o.prepareTimeoutMs,
          resultsDir: o.resultsDir,
          // A reset store is an event (the dashboard and the plain lines show it), not stray stderr.
          ...(o.botData ? { botData: { ...o.botData, warn: (reason: string) => ctx.storeReset(e.spec.label, reason) } } : {}),
          ...(script ? { script } : {}),
          ...(o.graceMs !== undefined ? { graceMs: o.graceMs } : {}),
        }),
      );
    }
    const failed: { bot: string; reason: string }[] = [];
    await Promise.all(
      [...this.#hosts.values()].map((h) =>
        h.start().catch((err: unknown) => {
          failed.push({ bot: h.label, reason: err instanceof Error ? err.message : String(err) });
        }),
      ),
    );
    failed.sort((a, b) => a.bot.localeCompare(b.bot));
    for (const f of failed) ctx.botFailed(f.bot, f.reason);
  }

  async run(ctx: ExecutionContext): Promise<void> {
    await this.#startHosts(ctx);
    const hosts = this.#hosts;
    const games: ReadonlyMap<string, AnyGame> = new Map(this.#options.variants.map((g) => [g.id, g]));
    const { signal, pause, wantLive } = ctx;
    // The second game of the pair pulled last: lanes take games one at a time, in schedule order.
    let second: GameJob | null = null;
    const nextGame = (): GameJob | null => {
      for (;;) {
        if (second) {
          const job = second;
          second = null;
          if (!ctx.isDone(job.index)) return job;
        }
        const pair = ctx.nextPair();
        if (!pair) return null;
        second = pair.games[1];
        if (!ctx.isDone(pair.games[0].index)) return pair.games[0];
      }
    };
    // Each variant's match options, built once: its adjudicating judge (solvers keep their tables)
    // and the standings' accuracy judge, fed as the game is played.
    const judges = new Map<string, MatchOptions>();
    const base = (variant: string): MatchOptions => {
      let o = judges.get(variant);
      if (!o) {
        const game = games.get(variant)!;
        const judge = this.#options.adjudicate ? exactJudge(game) : undefined;
        const marginMs = this.#options.graceMs;
        o = {
          ...(signal ? { signal } : {}),
          ...(judge ? { judge } : {}),
          ...(marginMs !== undefined ? { marginMs } : {}),
          judgeInPlay: ctx.judgeInPlay(variant, game),
        };
        judges.set(variant, o);
      }
      return o;
    };
    const lane = async (): Promise<void> => {
      let lastYield = performance.now();
      for (;;) {
        const gate = pause?.whenOpen(signal);
        if (gate) {
          await gate;
          lastYield = performance.now();
        }
        if (signal?.aborted) return;
        const job = nextGame();
        if (!job) return;
        const game = games.get(job.variant)!;
        const seats = { first: job.seats.first.label, second: job.seats.second.label };
        const hostsOf = { first: hosts.get(seats.first)!, second: hosts.get(seats.second)! };
        let rec: GameRecord;
        // The options of every match when nobody watches live games: made once per variant, not per game.
        if (!wantLive) rec = await playMatch(job, game, hostsOf, base(job.variant));
        else {
          // Watchers poll the match's live view when they draw: nothing is built per move.
          const live = new LiveTracker(game, seats);
          // The match deals (into `live`) before its first await, so the view is never empty when
          // the sink sees it.
          const playing = playMatch(job, game, hostsOf, { ...base(job.variant), live });
          ctx.emit({ type: 'game-started', index: job.index, key: job.key, variant: job.variant, deal: job.deal, seats, live });
          rec = await playing;
        }
        if (rec.termination === 'interrupted') {
          ctx.emit({ type: 'game-aborted', index: job.index, key: job.key });
          return;
        }
        const behind = ctx.finish(rec);
        if (behind) {
          await behind;
          lastYield = performance.now();
        }
        // Trusted in-process bots never yield to the event loop on their own: let timers (the group
        // commit, SIGINT) and the log's write and fsync callbacks run every half millisecond. Each
        // batch of records waits for two such turns before it is durable and reported (and so can
        // be collected): at 8 ms slices most records outlived a young-generation collection and
        // were copied into the old generation, and the collector took twice as long (measured
        // 2026-11-25 with --trace-gc); a turn costs a few microseconds.
        if (performance.now() - lastYield > YIELD_EVERY_MS) {
          await nextTurn();
          lastYield = performance.now();
        }
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, lane));
  }

  async close(): Promise<void> {
    await Promise.all([...this.#hosts.values()].map((h) => h.close()));
  }
}
