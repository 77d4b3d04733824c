/**
 * Where a person plays bots: one host per opponent, at the isolation a tournament would use
 * (`worker` by default, so a bot's code never runs on the arena's thread), reused from game to
 * game, and every bot closed when the table closes.
 */
import { DEFAULT_STORE_CAP_BYTES, defaultBotDataRoot, type BotDataSettings } from '../platform/bot-store.ts';
import { createHost, type BotHost, type Isolation } from '../hosting/index.ts';
import type { Opponent } from './opponents.ts';
import { PlaySession, type GameSetup, type HostedBot } from './session.ts';

/** How a table runs its bots. */
export interface PlaySettings {
  /** The bot's time per move (ms). */
  readonly timePerMoveMs: number;
  /**
   * How far a discovered module bot is kept from this process (docs/SECURITY.md), as in a
   * tournament: `worker` (default), `sandbox` or `none`. External programs always run as
   * processes (in bubblewrap under `sandbox`); a bot object given directly runs in this process.
   */
  readonly isolation?: Isolation;
  /** Heap limit of a bot's worker (and address-space cap of a sandboxed bot), MB; default 512 as in a tournament. */
  readonly memoryMb?: number;
  /**
   * The bots' stores (`ctx.store`): default the user's cache, where they are kept between
   * tournaments too (a learning bot learns from your games); null keeps them in memory.
   */
  readonly botData?: BotDataSettings | null;
}

/** A bot's heap (MB) when the settings give none: a tournament's default. */
const DEFAULT_MEMORY_MB = 512;

/** The play table: open a game with `open`, close every bot with `close` when the person is done. */
export class PlayTable {
  readonly isolation: Isolation;
  readonly #settings: PlaySettings;
  readonly #hosts = new Map<Opponent, HostedBot>();
  readonly #open = new Set<PlaySession>();
  #closed = false;

  constructor(settings: PlaySettings) {
    this.#settings = settings;
    this.isolation = settings.isolation ?? 'worker';
  }

  /** Starts a game; the bot's host is started at the opponent's first game and kept for the next ones. */
  open(setup: GameSetup): PlaySession {
    if (this.#closed) throw new Error('PlayTable.open after close');
    const session = new PlaySession(setup, this.#hostFor(setup.opponent), this.#settings.timePerMoveMs, () => this.#open.delete(session));
    this.#open.add(session);
    return session;
  }

  /** Closes every open game and every bot's host (and so its processes); resolves once they are gone. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const s of [...this.#open]) s.close();
    const hosts = [...this.#hosts.values()];
    this.#hosts.clear();
    await Promise.all(hosts.map((h) => h.host.close()));
  }

  #hostFor(opponent: Opponent): HostedBot {
    let hosted = this.#hosts.get(opponent);
    if (!hosted) {
      const host = this.#createHost(opponent);
      const started = host.start().then(
        () => null,
        (err: unknown) => host.failure ?? (err instanceof Error ? err.message : String(err)),
      );
      hosted = { host, started };
      this.#hosts.set(opponent, hosted);
    }
    return hosted;
  }

  #createHost(opponent: Opponent): BotHost {
    const spec = { label: opponent.label, name: opponent.name, options: opponent.options };
    const s = this.#settings;
    const memoryMb = s.memoryMb ?? DEFAULT_MEMORY_MB;
    if (!opponent.entry) return createHost({ transport: 'inline', bot: opponent.bot }, spec, { isolation: 'none', memoryMb });
    const botData = s.botData === undefined ? { root: defaultBotDataRoot(), capBytes: DEFAULT_STORE_CAP_BYTES } : s.botData;
    return createHost(opponent.entry, spec, { isolation: this.isolation, memoryMb, ...(botData ? { botData } : {}) });
  }
}
