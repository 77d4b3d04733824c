/**
 * The one door to the hosts: chooses a bot's transport from its registry entry and isolation.
 * Under `sandbox` every bot runs as a process in bubblewrap (sandbox-host.ts); otherwise an
 * external program runs in processes (it cannot run in-process), a module in processes of its own
 * (isolation `worker`, worker-host.ts) or, with isolation `none`, on the runner's thread.
 */
import type { AnyBot } from '../core/bot.ts';
import { importModuleBot, type BotEntry, type ModuleBotEntry, type ProcessBotEntry } from './bot-registry.ts';
import type { BotHost, BotSpec } from './host.ts';
import { InProcessHost } from './in-process-host.ts';
import { stderrLogPath, tempStderrLogPath } from './bot-child.ts';
import { ProcessHost } from './process-host.ts';
import { sandboxModuleHost, sandboxProgramHost } from './sandbox-host.ts';
import { DEFAULT_SANDBOX_CPU_SECONDS } from './host.ts';
import { WorkerHost } from './worker-host.ts';
import { storeLocation, type BotDataSettings } from '../platform/bot-store.ts';
import { usableClock, type ClockKind } from '../platform/cpu-clock.ts';
import type { StoreBackend, StoreCall } from '../platform/store-bridge.ts';

/** What every host of a run shares. */
export interface HostSettings {
  readonly isolation: Isolation;
  /** CPU seconds per sandboxed process (isolation `sandbox`). */
  readonly cpuSeconds?: number;
  /** Tell bots the game's key, which names both bots (default: they are not told). */
  readonly revealOpponents?: boolean;
  /** Heap limit of each module bot's process (isolation `worker`; under `sandbox`, the bot's memory). */
  readonly memoryMb: number;
  /** How many games a bot may play at once (default 1): with isolation `worker`, its processes share them. */
  readonly concurrency?: number;
  readonly graceMs?: number;
  /** What bots' moves are charged (default `wall`); `cpu` runs on the wall clock where this machine has no CPU clock (`usableClock`). */
  readonly clock?: ClockKind;
  /** Budget of a module bot's `prepare` per variant (ms; external programs have `new-game` instead). */
  readonly prepareTimeoutMs?: number;
  /** The worker script shared by the run's module bots (see `workerScript(moduleFiles(...))`). */
  readonly script?: Promise<URL>;
  /** The results folder: bots' stderr goes to `<resultsDir>/bots/<name>.stderr.log` (a temp file without one; not for `none`). */
  readonly resultsDir?: string;
  /** The bots' persistent stores (`ctx.store`): one folder per bot under a root; none: stores in memory. */
  readonly botData?: BotDataSettings;
  /** A bot's stderr log, when it goes elsewhere than `resultsDir` says. */
  readonly stderrLog?: string;
  /**
   * The store's live copy, when a queued run holds it in Redis: a module bot's writes (isolation
   * `worker`) go there instead of its folder; reads still see the run's snapshot.
   */
  readonly storeBackend?: StoreBackend;
  /** The same for a module bot with isolation `none`: a synchronous call served off this thread (a helper thread's Redis). */
  readonly storeCall?: StoreCall;
}

/** A bot object given directly rather than found by discovery (a test's bot): it runs in-process only. */
export interface InlineBot {
  readonly transport: 'inline';
  readonly bot: AnyBot;
}

/**
 * A module bot known by its file and name alone, with no descriptor read from it: what a queue
 * worker holds for a bundle it fetched (the coordinator's discovery read the bot; its host checks
 * that the module exports the bot of that name when it loads it, at the job's isolation).
 */
export type ModuleBotFile = Pick<ModuleBotEntry, 'transport' | 'name' | 'file'>;

/** What a host can be made for: a discovered bot, a module known by its file, or an inline bot. */
export type HostedBot = ModuleBotFile | ProcessBotEntry | InlineBot;

/** The module files among the entries (what the worker bundle needs; manifests are not modules). */
export function moduleFiles(entries: readonly BotEntry[]): string[] {
  // (Sandboxed bots are bundled one by one, each with the sandbox runner: leave them out.)
  return entries.filter((e) => e.transport !== 'process').map((e) => e.file);
}

/** The stderr log of an external bot under these settings. */
export function stderrLogFor(name: string, settings: Pick<HostSettings, 'resultsDir'>): string {
  return settings.resultsDir === undefined ? tempStderrLogPath(name) : stderrLogPath(settings.resultsDir, name);
}

/** How far a bot is kept from the arena (docs/SECURITY.md). */
export type Isolation = 'none' | 'worker' | 'sandbox';

/** A host for one bot of a run, by the entry's transport. */
export function createHost(entry: HostedBot, spec: BotSpec, settings: HostSettings): BotHost {
  const grace = settings.graceMs !== undefined ? { graceMs: settings.graceMs } : {};
  const clock = usableClock(settings.clock ?? 'wall');
  const data = settings.botData;
  if (entry.transport === 'inline') {
    return new InProcessHost(spec, entry.bot, settings.graceMs, settings.prepareTimeoutMs, data ? storeLocation(data, spec.name) : null, data?.warn, undefined, clock);
  }
  const store = data ? { store: storeLocation(data, entry.name), ...(data.warn ? { warn: data.warn } : {}) } : {};
  const revealOpponents = settings.revealOpponents === true;
  if (settings.isolation === 'sandbox') {
    const sandbox = {
      memoryMb: settings.memoryMb,
      cpuSeconds: settings.cpuSeconds ?? DEFAULT_SANDBOX_CPU_SECONDS,
      revealOpponents,
      stderrLog: settings.stderrLog ?? stderrLogFor(entry.name, settings),
      clock,
      ...grace,
      ...(settings.prepareTimeoutMs !== undefined ? { prepareTimeoutMs: settings.prepareTimeoutMs } : {}),
    };
    return entry.transport === 'process'
      ? sandboxProgramHost(spec.label, entry, { ...sandbox, ...store })
      : sandboxModuleHost(spec.label, { file: entry.file, name: entry.name, options: spec.options }, { ...sandbox, ...store });
  }
  if (entry.transport === 'process') {
    return new ProcessHost(spec.label, {
      name: entry.name,
      command: entry.command,
      cwd: entry.cwd,
      stderrLog: settings.stderrLog ?? stderrLogFor(entry.name, settings),
      revealOpponents,
      clock,
      ...grace,
      ...store,
    });
  }
  if (settings.isolation === 'none') {
    // Trusted by the user: imported into this process, and only now that it plays.
    return new InProcessHost(spec, () => importModuleBot(entry), settings.graceMs, settings.prepareTimeoutMs, data ? storeLocation(data, entry.name) : null, data?.warn, settings.storeCall, clock);
  }
  return new WorkerHost(spec.label, {
    file: entry.file,
    name: entry.name,
    options: spec.options,
    memoryMb: settings.memoryMb,
    clock,
    stderrLog: settings.stderrLog ?? stderrLogFor(entry.name, settings),
    ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
    ...(settings.prepareTimeoutMs !== undefined ? { prepareTimeoutMs: settings.prepareTimeoutMs } : {}),
    ...(settings.script ? { script: settings.script } : {}),
    ...grace,
    ...store,
    ...(settings.storeBackend ? { storeBackend: settings.storeBackend } : {}),
  });
}
