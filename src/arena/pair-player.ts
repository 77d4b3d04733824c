/**
 * One way to play the games of a pair, shared by the local pool and the queue worker: the bots'
 * hosts made from the run's settings (`PairSettings`, read from the spec once), each variant's
 * match options built once, and a live view for watchers.
 */
import type { AnyGame } from '../core/game.ts';
import { createHost, type BotHost, type HostedBot, type BotSpec, type HostSettings } from '../hosting/index.ts';
import { usableClock } from '../platform/cpu-clock.ts';
import type { PairSettings } from './executor.ts';
import { exactJudge } from './fold/accuracy.ts';
import { LiveTracker } from './live.ts';
import { playMatch, type GameRecord, type MatchOptions, type MoveObserver } from './match.ts';
import type { GameJob } from './schedule.ts';

/** What a host needs beyond the pair settings: where it runs (concurrency, folders, the worker script, its store). */
export type HostPlace = Omit<HostSettings, 'isolation' | 'cpuSeconds' | 'revealOpponents' | 'memoryMb' | 'prepareTimeoutMs' | 'graceMs'>;

/** The two hosts of a game, by seat. */
export interface SeatHosts {
  readonly first: BotHost;
  readonly second: BotHost;
}

/** The isolation a bot runs at under these settings. */
export function isolationOf(settings: PairSettings, bot: BotSpec): HostSettings['isolation'] {
  return settings.botIsolation?.[bot.name] ?? settings.isolation;
}

/** Plays games under one run's settings (see the module's comment). */
export class PairPlayer {
  readonly settings: PairSettings;
  readonly #signal: AbortSignal | undefined;
  /** Each variant's match options: its adjudicating judge (solvers keep their tables), the margin, the signal. */
  readonly #options = new Map<string, MatchOptions>();

  constructor(settings: PairSettings, signal?: AbortSignal) {
    this.settings = settings;
    this.#signal = signal;
  }

  /** A host for one bot of the run (not started). */
  host(entry: HostedBot, bot: BotSpec, place: HostPlace): BotHost {
    const { botIsolation: _b, adjudicate: _a, ...host } = this.settings;
    return createHost(entry, bot, { ...host, ...place, isolation: isolationOf(this.settings, bot) });
  }

  /**
   * Plays one game. `watch` (when someone watches live games) hears the game's live view once the
   * match has dealt into it, before its first move is asked for; `observer` hears every position.
   */
  play(job: GameJob, game: AnyGame, hosts: SeatHosts, observer?: MoveObserver, watch?: (live: LiveTracker) => void): GameRecord | Promise<GameRecord> {
    const options = this.#optionsOf(game);
    // The options of every match when nobody watches live games: made once per variant, not per game.
    if (!watch) return playMatch(job, game, hosts, options, observer);
    // Watchers poll the match's live view when they draw: nothing is built per move. They hear of
    // it once the match has dealt into it, so the view is never empty when watched.
    const live = new LiveTracker(game, { first: job.seats.first.label, second: job.seats.second.label });
    return playMatch(job, game, hosts, { ...options, live, dealt: () => watch(live) }, observer);
  }

  #optionsOf(game: AnyGame): MatchOptions {
    let o = this.#options.get(game.id);
    if (!o) {
      const judge = this.settings.adjudicate ? exactJudge(game) : undefined;
      const marginMs = this.settings.graceMs;
      o = {
        ...(this.#signal ? { signal: this.#signal } : {}),
        ...(judge ? { judge } : {}),
        ...(marginMs !== undefined ? { marginMs } : {}),
        ...(usableClock(this.settings.clock ?? 'wall') === 'cpu' ? { wallTimes: true } : {}),
      };
      this.#options.set(game.id, o);
    }
    return o;
  }
}

/** Starts a host: null once it runs, else why it cannot start (the bot then forfeits its games). */
export async function startHost(host: BotHost): Promise<string | null> {
  try {
    await host.start();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
