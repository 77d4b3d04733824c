/**
 * How many games the local pool keeps in flight when the spec does not say (`concurrency` unset):
 * it learns it from the games as they finish. Bots that answer in microseconds under `worker`
 * isolation spend their games' time in the transport (a round trip per move), and more games in
 * flight let each process answer many of them in one batch; bots that think against the clock
 * keep their processes busy, and more games than cores would only queue behind each other.
 *
 * The pool starts at `base` games (one per core). While the bots' hosts say their processes'
 * time goes to the transport (`BotHost.thinking` low for every game of a window), it doubles the
 * games in flight as long as a step up pays: the games finished per second rose, or the runner's
 * CPU time per game fell, by `PAYS` at least (by `LEAP`, the next step quadruples them: a long
 * ramp would cost a short run much of its time). A step that does not pay is undone, and tried
 * again after `RETRY_MS` (the load, or the bots playing, may have changed). As soon as a game's
 * bots think for most of their processes' time, it goes back to `base`.
 *
 * None of this changes a game: every game's moves follow from its schedule entry alone (DESIGN.md
 * "Determinism"), and a bot's host charges each move from when its own process took it up.
 */
import { performance } from 'node:perf_hooks';

/** The least gain (in games/s, or in the runner's CPU per game) for which more games in flight pay. */
const PAYS = 1.1;
/** A gain from which the next step is a leap: four times as many games in flight rather than twice. */
const LEAP = 1.5;
/** A host whose processes spend more of their time thinking than this plays against the clock. */
const THINKING = 0.5;
/** How long a level that did not pay is kept before more games in flight are tried again (ms). */
const RETRY_MS = 5000;
/** The fewest games, per game in flight and in all, and the least time (ms), a level is measured over. */
const WINDOW_PER_LANE = 2;
const WINDOW_GAMES = 32;
const WINDOW_MS = 120;

/** A level's measure: games per second, and the runner's CPU µs per game. */
interface Rate {
  readonly perSec: number;
  readonly cpuUs: number;
}

/** What a local pool asks of whatever decides its games in flight. */
export interface FlightControl {
  /** The most games the pool has been told to keep in flight. */
  readonly peak: number;
  /**
   * A game finished; `thinking` is the larger share of their processes' time its two bots spent
   * thinking lately (`BotHost.thinking`). Returns the games to keep in flight from now.
   */
  finished(thinking: number): number;
}

/** The clocks a `InFlight` reads: wall time (ms) and the runner's CPU time (µs). */
export interface FlightClocks {
  now(): number;
  cpuUs(): number;
}

/** This process's clocks. */
const PROCESS_CLOCKS: FlightClocks = {
  now: () => performance.now(),
  cpuUs: () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  },
};

/** The games in flight, as learned from the finished games (see the module's comment). */
export class InFlight implements FlightControl {
  /** The most the pool has been told to keep in flight. */
  peak: number;
  /** How many games the pool should keep in flight now. */
  #target: number;
  readonly #base: number;
  readonly #max: number;
  readonly #clocks: FlightClocks;
  /** Games finished since the level began; the first `target` started at the level before and are not measured. */
  #games = 0;
  #from = { ms: 0, cpuUs: 0 };
  /** The level below and its measure, when this one is a step up being tried. */
  #below: { readonly target: number; readonly rate: Rate } | null = null;
  /** Until when a level that did not pay is kept (wall ms), or 0. */
  #holdUntil = 0;
  /** Whether a first window has been measured (the start-up's, never compared). */
  #warm = false;

  /** `base` games at first and after thinking bots, at most `max`; `clocks` are this process's by default. */
  constructor(base: number, max: number, clocks: FlightClocks = PROCESS_CLOCKS) {
    this.#base = Math.max(1, base);
    this.#max = Math.max(this.#base, max);
    this.#target = this.peak = this.#base;
    this.#clocks = clocks;
  }

  finished(thinking: number): number {
    if (thinking > THINKING) {
      if (this.#target !== this.#base || this.#below) this.#level(this.#base, null);
      this.#holdUntil = 0;
      return this.#target;
    }
    const n = ++this.#games - this.#target;
    if (n === 0) this.#from = { ms: this.#clocks.now(), cpuUs: this.#clocks.cpuUs() };
    if (n < Math.max(WINDOW_GAMES, WINDOW_PER_LANE * this.#target)) return this.#target;
    const now = this.#clocks.now();
    const ms = now - this.#from.ms;
    if (ms < WINDOW_MS) return this.#target;
    const rate: Rate = { perSec: (n * 1000) / ms, cpuUs: (this.#clocks.cpuUs() - this.#from.cpuUs) / n };
    const below = this.#below;
    // What the step to this level gained: the better of games/s and the runner's CPU a game.
    const gain = below ? Math.max(rate.perSec / below.rate.perSec, below.rate.cpuUs / rate.cpuUs) : 0;
    if (!this.#warm) {
      // The first window pays for start-up (processes, preparing, compiling): measured again.
      this.#warm = true;
      this.#level(this.#target, null);
    } else if (below && !(gain >= PAYS)) {
      // The step did not pay: back to the level below, kept for a while.
      this.#holdUntil = now + RETRY_MS;
      this.#level(below.target, null);
    } else if (now < this.#holdUntil || this.#target >= this.#max) this.#level(this.#target, null);
    else this.#level(Math.min(this.#max, this.#target * (gain >= LEAP ? 4 : 2)), { target: this.#target, rate });
    return this.#target;
  }

  /** Starts measuring a level of `target` games in flight; `below`, the level it steps up from and its measure. */
  #level(target: number, below: { readonly target: number; readonly rate: Rate } | null): void {
    this.#target = target;
    this.peak = Math.max(this.peak, target);
    this.#below = below;
    this.#games = 0;
  }
}
