/**
 * Isolation `sandbox`, for bots written by other people: every bot, module or external program,
 * runs as its own OS process inside bubblewrap with resource caps (platform/sandbox.ts). A module
 * bot is bundled with the sandbox runner (sandbox-runner.ts) into one file, the only file it can
 * read, and runs under Node's permission model as well (no file reads outside its bundle, no
 * writes, no child processes, no workers, no addons). Both speak the JSON-lines protocol, so the
 * host is the process host: timeouts, crashes, garbage and stderr are judged as for external bots.
 */
import type { ClockKind } from '../platform/cpu-clock.ts';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '../platform/bundle.ts';
import { siblingModule } from '../platform/paths.ts';
import { nodeRuntimeDir, SANDBOX_PATH, sandboxPlan, which, type SandboxBind, type SandboxLimits, type SandboxPlan } from '../platform/sandbox.ts';
import type { ExternalBot } from './manifest.ts';
import { DEFAULT_PREPARE_TIMEOUT_MS, permissionFlags } from './host.ts';
import { ProcessHost, type ProcessHostOptions } from './process-host.ts';
import { warnOnStderr, type StoreLocation } from '../platform/bot-store.ts';
import { SandboxStore, STORE_IN_SANDBOX } from '../platform/sandbox-store.ts';
import { gameRegistrations, PACKAGE_ENTRY } from './worker-bundle.ts';

/** Caps and settings of a sandboxed bot. */
export interface SandboxSettings {
  /** The bot's memory (MB): a module bot's heap limit; the address-space cap adds `RUNTIME_ROOM_MB`. */
  readonly memoryMb: number;
  /** CPU seconds each process of the bot may use over its life. */
  readonly cpuSeconds: number;
  readonly revealOpponents: boolean;
  readonly stderrLog: string;
  readonly graceMs?: number;
  /** What a move is charged (see `ProcessHostOptions.clock`). */
  readonly clock?: ClockKind;
  /** Budget of a module bot's `prepare` per variant (ms; see `ProcessHostOptions.prepareTimeoutMs`). */
  readonly prepareTimeoutMs?: number;
}

/**
 * Address space beyond the bot's memory that a runtime reserves without using it (its code range
 * and pointer cages): Node does not start with less (docs/PERFORMANCE.md, "Bot hosting").
 */
export const RUNTIME_ROOM_MB = 2048;


/** The caps of one process; `node` says whether it runs Node (which needs `RUNTIME_ROOM_MB` of address space). */
function limitsOf(settings: SandboxSettings, processes: number, node: boolean): SandboxLimits {
  const addressSpaceMb = settings.memoryMb + (node ? RUNTIME_ROOM_MB : 0);
  return { addressSpaceMb, cpuSeconds: settings.cpuSeconds, fileSizeMb: 16, processes, openFiles: 256 };
}

const RUNNER = siblingModule(import.meta.url, 'sandbox-runner');

/** Bundles one bot module with the runner (its own file: a sandboxed bot sees no other bot's code) and the users' games loaded. */
function runnerBundle(file: string): Promise<string> {
  const entry = [...gameRegistrations(), `import { runSandboxedBot } from ${JSON.stringify(RUNNER)};`, `await runSandboxedBot(() => import(${JSON.stringify(file)}));`].join('\n');
  return bundleScript(entry, process.cwd(), 'sandbox', { 'take-arena': PACKAGE_ENTRY }).then((url) => fileURLToPath(url));
}

/** Where a module bot's bundle is seen inside the sandbox. */
const BUNDLE_IN_SANDBOX = '/bot/bot.mjs';

/**
 * Node's flags allowing file access (`read` or `write`) under `paths`: one flag per path (Node 20
 * takes a comma-separated list in one flag as one path, which grants none of them).
 */
export function allowFs(kind: 'read' | 'write', paths: readonly string[]): string[] {
  return paths.map((p) => `--allow-fs-${kind}=${p}`);
}

/** Where the run-start snapshot of a sandboxed bot's store is seen (read-only, beside its bundle). */
const SNAPSHOT_IN_SANDBOX = '/bot/store.snapshot';

/**
 * A sandboxed module bot. With `store`, its store is a real folder it may write (bound at
 * `/store`, the one path Node lets it write), capped by RLIMIT_FSIZE, the store's checks and the
 * staging folder's watch (platform/sandbox-store.ts); its files reach the bot's real folder when
 * the host closes.
 */
export function sandboxModuleHost(
  label: string,
  bot: { readonly file: string; readonly name: string; readonly options: Readonly<Record<string, unknown>> },
  settings: SandboxSettings & { readonly store?: StoreLocation; readonly warn?: (message: string) => void },
): ProcessHost {
  const store = settings.store ? SandboxStore.for(settings.store, settings.warn ?? warnOnStderr) : null;
  let plan: Promise<SandboxPlan> | undefined;
  const launch = (): Promise<SandboxPlan> =>
    (plan ??= runnerBundle(bot.file).then((bundle) =>
      sandboxPlan(
        [
          process.execPath,
          ...permissionFlags(),
          ...allowFs('read', store ? ['/bot/', `${STORE_IN_SANDBOX}/`] : ['/bot/']),
          ...(store ? allowFs('write', [`${STORE_IN_SANDBOX}/`]) : []),
          `--max-old-space-size=${settings.memoryMb}`,
          BUNDLE_IN_SANDBOX,
          JSON.stringify({ name: bot.name, options: bot.options, ...(store ? { store: { dir: STORE_IN_SANDBOX, snapshot: SNAPSHOT_IN_SANDBOX, capBytes: store.capBytes } } : {}) }),
        ],
        [
          { src: bundle, dest: BUNDLE_IN_SANDBOX },
          ...(store ? [{ src: store.snapshotFile, dest: SNAPSHOT_IN_SANDBOX }, { src: store.staging, dest: STORE_IN_SANDBOX, writable: true }] : []),
        ],
        '/bot',
        // Node runs about a dozen threads; the cap counts threads too. With a store, no file may
        // outgrow the store's cap.
        { ...limitsOf(settings, 32, true), ...(store ? { fileSizeMb: Math.max(store.capBytes, 1 << 16) / (1 << 20) } : {}) },
      ),
    ));
  return new SandboxedHost(
    label,
    {
      name: bot.name,
      command: [process.execPath, bot.file],
      cwd: dirname(bot.file),
      stderrLog: settings.stderrLog,
      launch,
      native: true,
      prepareTimeoutMs: settings.prepareTimeoutMs ?? DEFAULT_PREPARE_TIMEOUT_MS,
      revealOpponents: settings.revealOpponents,
      // A cold start inside a fresh namespace on a busy machine takes far longer than a warm one.
      startTimeoutMs: 20_000,
      ...(settings.graceMs !== undefined ? { graceMs: settings.graceMs } : {}),
      ...(settings.clock ? { clock: settings.clock } : {}),
    },
    store,
  );
}

/** The process host of a sandboxed bot, with its store's breach and close handled. */
class SandboxedHost extends ProcessHost {
  readonly #store: SandboxStore | null;
  readonly #off: (() => void) | null;

  constructor(label: string, options: ProcessHostOptions, store: SandboxStore | null) {
    super(label, options);
    this.#store = store;
    // A bot that breaks its store's limits with `fs` loses the games it is playing.
    this.#off = store ? store.onBreach((reason) => this.killAll(reason)) : null;
  }

  override async close(): Promise<void> {
    await super.close();
    this.#off?.();
    this.#store?.release();
  }
}

/** Folders a program outside `/usr` needs bound to run (its own file, or the Node runtime's folder). */
function programBinds(program: string, cwd: string): SandboxBind[] {
  // A bare name is looked up on the sandbox's PATH (under /usr: nothing to bind), else on the host's.
  if (!program.includes('/') && which(program, SANDBOX_PATH)?.startsWith('/usr/')) return [];
  const path = program.includes('/') ? (isAbsolute(program) ? program : join(cwd, program)) : which(program);
  if (path === null || !existsSync(path)) return [];
  const real = realpathSync(path);
  if (real.startsWith('/usr/') || real.startsWith(`${cwd}/`)) return [];
  if (real === realpathSync(process.execPath)) return []; // bound with the runtime's folder
  return [{ src: real, dest: real }];
}

/** The real path of a file, or the text itself when it is not one. */
function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * A sandboxed external program: it sees `/usr`, the Node runtime and its own folder (read-only).
 * With `store`, its store folder is staged as a module bot's is (platform/sandbox-store.ts),
 * bound read-write at `/store` (its `TAKE_ARENA_STORE` there), with every file capped at the
 * store's cap; its files reach the real folder when the host closes.
 */
export function sandboxProgramHost(label: string, entry: ExternalBot, settings: SandboxSettings & { readonly store?: StoreLocation; readonly warn?: (message: string) => void }): ProcessHost {
  const command = [...entry.command];
  // A bare `node` is the arena's own runtime, which the sandbox shows (bound read-only).
  if (command[0] === 'node') command[0] = process.execPath;
  const store = settings.store ? SandboxStore.for(settings.store, settings.warn ?? warnOnStderr, 'program') : null;
  const runtime = nodeRuntimeDir();
  const binds: SandboxBind[] = [
    { src: entry.cwd, dest: entry.cwd },
    ...programBinds(command[0]!, entry.cwd).filter((b) => !b.src.startsWith(`${runtime}/`)),
    ...(store ? [{ src: store.staging, dest: STORE_IN_SANDBOX, writable: true }] : []),
  ];
  const node = realpathOr(command[0]!) === realpathSync(process.execPath);
  const limits = limitsOf(settings, 64, node);
  const plan = store
    ? sandboxPlan(command, binds, entry.cwd, { ...limits, fileSizeMb: Math.max(store.capBytes, 1 << 16) / (1 << 20) }, { TAKE_ARENA_STORE: STORE_IN_SANDBOX, TAKE_ARENA_STORE_CAP: String(store.capBytes) })
    : sandboxPlan(command, binds, entry.cwd, limits);
  return new SandboxedHost(
    label,
    {
      name: entry.name,
      command: entry.command,
      cwd: entry.cwd,
      stderrLog: settings.stderrLog,
      launch: () => Promise.resolve(plan),
      revealOpponents: settings.revealOpponents,
      ...(settings.graceMs !== undefined ? { graceMs: settings.graceMs } : {}),
      ...(settings.clock ? { clock: settings.clock } : {}),
    },
    store,
  );
}
