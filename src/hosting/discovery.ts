/**
 * Discovery of module bots without running their code in the arena's process. Each bot file is
 * bundled with the discovery runner (discovery-runner.ts) and the bundle runs in a child process:
 * Node's permission model lets it read only its bundle (no writes, child processes, workers or
 * addons), its environment is empty, it has a time limit, and with `sandbox` it runs inside
 * bubblewrap with the sandbox's caps as well. Its limit is CPU time (an rlimit, so a busy machine
 * does not make a bot fail to load), with a wall-clock backstop far above it for a file that waits
 * rather than computes. The child answers with the bot's metadata as plain
 * data; the arena rebuilds the option schemas from their shapes, so `botOptions`, `botLabel` and
 * listings work on a descriptor that has no code of the bot in it.
 *
 * Start-up stays fast through a cache (`<cache>/discovery`, one JSON file per bot file, written
 * only by the arena): an entry holds the metadata and the size, mtime and SHA-256 of every file
 * that went into the bundle (the bot, what it imports, the runner). When they all still match, no
 * bundle is built and no child starts. Variants a run asks about that the entry has no answer for
 * are asked of the cached bundle, and the entry keeps every answer it has had (a run with other
 * variants does not start cold); a `supports` question asked later runs the cached bundle once
 * more, synchronously (`supports` is synchronous).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, availableParallelism, constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { defineBot, type AnyBot } from '../core/bot.ts';
import { show, UsageError } from '../core/errors.ts';
import { schemaFromShape, type ParamSpec, type SchemaShape } from '../core/params.ts';
import { visible } from '../core/text.ts';
import { allFamilies, makeGame, userFamilies } from '../games/index.ts';
import { bundleWithInputs, temporaryBundlePath } from '../platform/bundle.ts';
import { PACKAGE_ROOT, siblingModule } from '../platform/paths.ts';
import { pidNamespacePlan, sandboxPlan, which, type SandboxPlan } from '../platform/sandbox.ts';
import { oneLine } from './bot-module.ts';
import { DISCOVERY_PREFIX, type BotMeta, type DiscoveryAnswer } from './discovery-runner.ts';
import { permissionFlags } from './host.ts';
import { gameRegistrations, PACKAGE_ENTRY } from './worker-bundle.ts';
import { makeDirs } from '../platform/files.ts';

/** How discovery runs its children. */
export interface DiscoverySettings {
  /** Variant ids to ask each bot's `supports` about now, beyond every family's default variant. */
  readonly variants?: readonly string[];
  /** Run the children inside bubblewrap too (for bots that are to be sandboxed; `arena bots --sandbox`). */
  readonly sandbox?: boolean;
  /** CPU time one child may use (whole seconds); a file that needs more is reported and skipped. */
  readonly cpuSeconds?: number;
  /** Wall-clock backstop of one child (ms), for a file that waits rather than computes. */
  readonly timeoutMs?: number;
  /** The cache folder; null: no cache (every file is run afresh). */
  readonly cacheDir?: string | null;
}

/**
 * Default CPU time of one discovery child (s): loading a built-in bot and asking its `supports`
 * about a run's variants takes well under a second of CPU, whatever else the machine is doing.
 */
export const DISCOVERY_CPU_SECONDS = 5;

/**
 * Default wall-clock backstop of one discovery child (ms): far above what the CPU limit allows on a
 * busy machine, it stops only a file that waits (a top-level await that never settles).
 */
export const DISCOVERY_TIMEOUT_MS = 120_000;

/** The built-in bots' folder: a file there that fails to load points at the machine, not the bot. */
export const BUILTIN_BOTS_DIR: string = join(PACKAGE_ROOT, 'bots');

/** Heap of a discovery child (MB): loading a bot needs little. */
const CHILD_HEAP_MB = 256;

/** Largest answer a child may print (bytes): a bot that floods stdout is cut off there. */
const MAX_OUTPUT = 1 << 20;

/** The default discovery cache: `$TAKE_ARENA_CACHE/discovery`, else `$XDG_CACHE_HOME/take-arena/discovery`, else `~/.cache/take-arena/discovery`. */
export function defaultDiscoveryCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['TAKE_ARENA_CACHE']) return join(env['TAKE_ARENA_CACHE'], 'discovery');
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'take-arena', 'discovery');
}

/** Every family's default variant (users' games loaded included): what `arena bots` lists a bot's families from. */
export function defaultVariantIds(): string[] {
  return allFamilies().flatMap((f) => {
    try {
      return [makeGame(f.id, {}).id];
    } catch {
      return []; // a user's game with a required parameter has no default variant
    }
  });
}

const shapeSchema: z.ZodType<SchemaShape> = z.union([
  z.strictObject({ kind: z.enum(['int', 'range']), min: z.number(), max: z.number() }),
  z.strictObject({
    kind: z.literal('number'),
    min: z.number(),
    max: z.number(),
    exclusiveMin: z.boolean().optional(),
    levels: z.record(z.string().max(64), z.number()).optional(),
  }),
  z.strictObject({ kind: z.literal('int-set'), maxSize: z.number().int(), maxValue: z.number() }),
  z.strictObject({ kind: z.literal('int-list'), minLength: z.number().int(), maxLength: z.number().int(), min: z.number(), max: z.number() }),
  z.strictObject({ kind: z.literal('enum'), choices: z.tuple([z.string().max(200)], z.string().max(200)) }),
  z.strictObject({ kind: z.enum(['boolean', 'string']) }),
]) as z.ZodType<SchemaShape>;

/** The answer a child may give: anything else is a file that is not a bot. */
const answerSchema: z.ZodType<DiscoveryAnswer> = z.union([
  z.strictObject({
    meta: z.strictObject({
      name: z.string().regex(/^[A-Za-z][\w-]*$/).max(64),
      description: z.string().max(2000),
      options: z.record(
        z.string().regex(/^[A-Za-z][\w-]*$/).max(64),
        z.strictObject({
          shape: shapeSchema,
          description: z.string().max(2000),
          expected: z.string().max(2000),
          default: z.unknown().optional(),
          optional: z.boolean().optional(),
          choices: z.array(z.string().max(200)).max(1000).optional(),
        }),
      ),
      supports: z.record(z.string(), z.boolean()).nullable(),
    }),
  }),
  z.strictObject({ reason: z.string().max(4000) }),
]) as z.ZodType<DiscoveryAnswer>;

/** One file that went into a bundle, as the cache saw it. */
export interface InputStamp {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly sha256: string;
}

/** A cache entry: one bot file's metadata and what it was derived from. */
interface CacheEntry {
  readonly version: 2;
  readonly file: string;
  readonly inputs: readonly InputStamp[];
  /** The bundle (a file in the cache folder) that answers later `supports` questions. */
  readonly bundle: string;
  /** What the child answered: the metadata, or why the file is not a bot (it threw at import, …). */
  readonly answer: DiscoveryAnswer;
  /** Whether a module of the bot imports `take-arena` by name. */
  readonly takeArena: boolean;
}

/** 2: entries say whether the bot imports `take-arena` by name (`takeArena`). */
const CACHE_VERSION = 2;

/** The discovery runner as this copy has it (sources or `dist/`). */
const RUNNER = siblingModule(import.meta.url, 'discovery-runner');

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Hashes of files already read by this process, by path, size and mtime (a file is hashed once per version). */
const stamps = new Map<string, InputStamp>();

/** A file's size, mtime and SHA-256 now (hashed once per version of the file in this process), or null when it is gone. */
export function stamp(path: string): InputStamp | null {
  let st;
  try {
    st = statSync(path);
  } catch {
    return null; // gone: the entry that names it is stale
  }
  const key = `${path}\0${st.size}\0${st.mtimeMs}`;
  let s = stamps.get(key);
  if (!s) {
    try {
      s = { path, size: st.size, mtimeMs: st.mtimeMs, sha256: sha256(readFileSync(path)) };
    } catch {
      return null;
    }
    stamps.set(key, s);
  }
  return s;
}

/**
 * Files as they are now, by path, within one discovery: the bot files of a folder share most of
 * their inputs (the arena's own modules), so each is looked at once per discovery, not once per bot.
 */
type StatMemo = Map<string, { readonly size: number; readonly mtimeMs: number } | null>;

function statNow(path: string, memo: StatMemo | undefined): { readonly size: number; readonly mtimeMs: number } | null {
  let now = memo?.get(path);
  if (now === undefined) {
    try {
      const st = statSync(path);
      now = { size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      now = null; // gone: the entry that names it is stale
    }
    memo?.set(path, now);
  }
  return now;
}

/** Whether an input is the same (size and mtime), touched (another mtime, the same content) or changed. */
export function inputState(input: InputStamp, memo: StatMemo | undefined): 'same' | 'touched' | 'changed' {
  const now = statNow(input.path, memo);
  if (now === null || now.size !== input.size) return 'changed';
  if (now.mtimeMs === input.mtimeMs) return 'same';
  return stamp(input.path)?.sha256 === input.sha256 ? 'touched' : 'changed';
}

/** A file's entry; the runner's path is part of the key, so the sources and `dist/` keep their own. */
function entryPath(cacheDir: string, file: string): string {
  // The users' games loaded are part of the key too: they are in the bundle, and `supports` sees them.
  const games = userFamilies().map((e) => `\0${e.file}`).join('');
  return join(cacheDir, `${sha256(`${RUNNER}\0${file}${games}`).slice(0, 32)}.json`);
}

/** A valid, current cache entry for `file`, or null. */
function readEntry(cacheDir: string, file: string, memo?: StatMemo): CacheEntry | null {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(entryPath(cacheDir, file), 'utf8')) as CacheEntry;
  } catch {
    return null;
  }
  if (entry?.version !== CACHE_VERSION || entry.file !== file || !Array.isArray(entry.inputs) || typeof entry.takeArena !== 'boolean') return null;
  // Checked as a child's answer is, without zod compiling fast paths (code generation) for a
  // handful of parses at start-up: that costs more than the parses.
  if (!answerSchema.safeParse(entry.answer, { jitless: true }).success) return null;
  // Its text made visible as a fresh answer's is: the cache may have been written by an arena that did not.
  entry = { ...entry, answer: visibleAnswer(entry.answer) };
  let touched = false;
  for (const input of entry.inputs) {
    const state = inputState(input, memo);
    if (state === 'changed') return null;
    touched ||= state === 'touched';
  }
  if (touched) {
    // Rewritten with the same contents (a rebuild of dist/, a checkout): without the new times every
    // later start would hash those files again. Only stamps of the very contents the answer came
    // from are taken (a file edited meanwhile keeps its old stamp, so the next start sees the edit).
    const inputs = entry.inputs.map((input) => {
      if (statNow(input.path, memo)?.mtimeMs === input.mtimeMs) return input;
      const now = stamp(input.path);
      return now !== null && now.sha256 === input.sha256 ? now : input;
    });
    entry = { ...entry, inputs };
    writeEntry(cacheDir, entry);
  }
  return entry;
}

/** Writes a file atomically (a reader sees the old or the new one, never half). */
export function writeAtomically(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data, { mode: 0o644 });
  renameSync(tmp, path);
}

function writeEntry(cacheDir: string, entry: CacheEntry): void {
  try {
    writeAtomically(entryPath(cacheDir, entry.file), JSON.stringify(entry));
  } catch {
    // a read-only cache folder only makes the next start slower
  }
}

/** Bundles one bot file with the discovery runner; the reason when esbuild cannot. */
async function bundleFor(file: string): Promise<{ code: Uint8Array; inputs: string[]; aliased: Set<string> } | { reason: string }> {
  const entry = [...gameRegistrations(), `import { runDiscovery } from ${JSON.stringify(RUNNER)};`, `await runDiscovery(() => import(${JSON.stringify(file)}));`].join('\n');
  try {
    return await bundleWithInputs(entry, process.cwd(), 'discovery', { 'take-arena': PACKAGE_ENTRY });
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors;
    const first = errors?.[0];
    if (first) {
      const at = first.location ? `${first.location.file}:${first.location.line}:${first.location.column}: ` : '';
      return { reason: visible(`failed to load: ${at}${first.text}`) };
    }
    return { reason: `failed to load: ${oneLine(err)}` };
  }
}

/** Where a bundle runs inside the sandbox. */
const BUNDLE_IN_SANDBOX = '/bot/bot.mjs';

/** A discovery child's limits: CPU seconds (an rlimit) and the wall-clock backstop. */
interface ChildLimits {
  readonly cpuSeconds: number;
  readonly timeoutMs: number;
}

function limitsOf(settings: DiscoverySettings): ChildLimits {
  return { cpuSeconds: settings.cpuSeconds ?? discoveryCpuSeconds(), timeoutMs: settings.timeoutMs ?? DISCOVERY_TIMEOUT_MS };
}

/**
 * The CPU limit of a discovery child when the caller names none: `$TAKE_ARENA_DISCOVERY_CPU_SECONDS`
 * (for a bot that does real work at import, such as loading a large table), else
 * DISCOVERY_CPU_SECONDS.
 */
export function discoveryCpuSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const text = env['TAKE_ARENA_DISCOVERY_CPU_SECONDS'];
  if (text === undefined || text === '') return DISCOVERY_CPU_SECONDS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 3600) throw new UsageError(`Expected TAKE_ARENA_DISCOVERY_CPU_SECONDS to be a whole number of seconds from 1 to 3600, got ${show(text)}`);
  return n;
}

/**
 * The command that runs a discovery bundle, under the permission model (and in bubblewrap with
 * `sandbox`), its CPU time capped by `prlimit` as the sandbox caps a bot's: SIGXCPU at the limit,
 * SIGKILL a second later. Without `prlimit` (util-linux) only the wall-clock backstop applies.
 * The child's argument is the variant ids to ask a bot about, or (a game's child) its request as text.
 */
export function childPlan(bundle: string, variants: readonly string[] | string, sandbox: boolean, cpuSeconds: number): SandboxPlan {
  const node = [...permissionFlags(), `--max-old-space-size=${CHILD_HEAP_MB}`];
  // Outside bubblewrap's full sandbox still in a PID namespace of its own where one can be made:
  // Node's permission model does not stop `process.kill`, which could otherwise end the arena.
  if (!sandbox) {
    const prlimit = which('prlimit');
    const capped = prlimit !== null ? [prlimit, `--cpu=${cpuSeconds}:${cpuSeconds + 1}`, '--'] : [];
    return pidNamespacePlan([...capped, process.execPath, ...node, `--allow-fs-read=${bundle}`, bundle, typeof variants === 'string' ? variants : JSON.stringify(variants)], process.cwd(), {});
  }
  // The sandbox's user (nobody, as root) may not reach the cache folder: it gets a copy in the
  // arena's world-readable bundle folder.
  const copy = temporaryBundlePath('discovery');
  copyFileSync(bundle, copy);
  return sandboxPlan(
    [process.execPath, ...node, '--allow-fs-read=/bot/', BUNDLE_IN_SANDBOX, typeof variants === 'string' ? variants : JSON.stringify(variants)],
    [{ src: copy, dest: BUNDLE_IN_SANDBOX }],
    '/bot',
    { addressSpaceMb: CHILD_HEAP_MB + 2048, cpuSeconds, fileSizeMb: 1, processes: 32, openFiles: 64 },
  );
}

/**
 * An answer with the control characters of its text made visible (core/text.ts): the bot's
 * description and option texts, or why the file is not a bot (its error, its stderr). Option
 * choices and levels stay as they are (they are values a user types); listings show them through
 * `visible` too.
 */
function visibleAnswer(answer: DiscoveryAnswer): DiscoveryAnswer {
  if ('reason' in answer) return { reason: visible(answer.reason) };
  const { meta } = answer;
  const options = Object.fromEntries(Object.entries(meta.options).map(([key, o]) => [key, { ...o, description: visible(o.description), expected: visible(o.expected) }]));
  return { meta: { ...meta, description: visible(meta.description), options } };
}

/**
 * The signal that ended a child: bubblewrap, between the arena and the child, exits with 128 + the
 * signal's number when its child is killed by one.
 */
export function endingSignal(plan: SandboxPlan, status: number | null, signal: string | null): string | null {
  if (signal !== null || status === null || status <= 128 || plan.file !== which('bwrap')) return signal;
  return Object.entries(osConstants.signals).find(([, n]) => n === status - 128)?.[0] ?? null;
}

/**
 * Why a child past a limit did not answer. A built-in bot loads in a fraction of either limit, so
 * past one the machine is at fault (short of memory, swapping, a damaged install), not the bot.
 */
function limitReason(file: string, limit: 'cpu' | 'wall', limits: ChildLimits): string {
  const builtin = dirname(file) === BUILTIN_BOTS_DIR;
  if (limit === 'cpu') {
    const past = `did not finish loading within ${limits.cpuSeconds} s of CPU time (discovery's limit`;
    return builtin
      ? `${past}); a built-in bot needs a fraction of that, so check this machine (memory, swap, a damaged install)`
      : `${past}; a loop at the top level?)`;
  }
  const past = `did not finish loading within ${limits.timeoutMs / 1000} s of wall-clock time (discovery's backstop`;
  return builtin
    ? `${past}); a built-in bot needs far less, so this machine is too busy to start it now: try again when it is quieter`
    : `${past}, for a file that waits rather than computes; a top-level await that never settles?)`;
}

/** The answer in a child's output, or why there is none (`signal`: see `endingSignal`; its text made visible: `visibleAnswer`). */
function judge(file: string, stdout: string, stderr: string, status: number | null, signal: string | null, timedOut: boolean, limits: ChildLimits): DiscoveryAnswer {
  return visibleAnswer(childAnswer(file, stdout, stderr, status, signal, timedOut, limits));
}

function childAnswer(file: string, stdout: string, stderr: string, status: number | null, signal: string | null, timedOut: boolean, limits: ChildLimits): DiscoveryAnswer {
  const at = stdout.lastIndexOf(`\n${DISCOVERY_PREFIX}`);
  if (at >= 0) {
    const line = stdout.slice(at + 1 + DISCOVERY_PREFIX.length).split('\n')[0]!;
    try {
      const parsed = answerSchema.safeParse(JSON.parse(line));
      if (parsed.success) return parsed.data;
      return { reason: `failed to load: its metadata is malformed (${parsed.error.issues[0]?.message ?? 'invalid'})` };
    } catch {
      // a cut-off line: judged below
    }
  }
  if (signal === 'SIGXCPU') return { reason: limitReason(file, 'cpu', limits) };
  if (timedOut) return { reason: limitReason(file, 'wall', limits) };
  const last = stderr.trim().split('\n').filter((l) => l.trim() !== '').pop();
  const how = signal ? `was killed by ${signal}` : `exited with code ${status}`;
  return { reason: `failed to load: the module ${how} while loading${last ? ` (${last.trim().slice(0, 300)})` : ''}` };
}

/**
 * Runs one discovery child and resolves to its answer (never rejects); `answered` says the runner
 * gave it, rather than the arena judging a child that hung, died or printed too much.
 */
function runChild(file: string, bundle: string, variants: readonly string[], sandbox: boolean, limits: ChildLimits): Promise<{ answer: DiscoveryAnswer; answered: boolean }> {
  return new Promise((resolvePromise) => {
    let plan: SandboxPlan;
    try {
      plan = childPlan(bundle, variants, sandbox, limits.cpuSeconds);
    } catch (err) {
      resolvePromise({ answer: { reason: `failed to load: cannot start its discovery process (${oneLine(err)})` }, answered: false });
      return;
    }
    const child = spawn(plan.file, plan.args, {
      env: plan.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.gid! } : {}),
    });
    let stdout = '';
    let stderr = '';
    let done = false;
    const finish = (answer: DiscoveryAnswer, answered = false): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolvePromise({ answer, answered });
    };
    // Judged at once rather than on 'close': a process the child left (bubblewrap's inner one, say)
    // may hold its pipes open after the kill, and 'close' waits for them.
    const timer = setTimeout(() => {
      finish(judge(file, stdout, stderr, null, null, true, limits));
    }, limits.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
      // The answer is complete at its newline: no need to wait for a module that keeps the process alive.
      const at = stdout.lastIndexOf(`\n${DISCOVERY_PREFIX}`);
      if (at >= 0 && stdout.indexOf('\n', at + 1) >= 0) finish(judge(file, stdout, stderr, null, null, false, limits), true);
      else if (stdout.length >= MAX_OUTPUT) finish({ reason: `failed to load: printed more than ${MAX_OUTPUT} bytes while loading` });
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    child.on('error', (err) => finish({ reason: `failed to load: cannot start its discovery process (${oneLine(err)})` }));
    child.on('close', (status, signal) => finish(judge(file, stdout, stderr, status, endingSignal(plan, status, signal), false, limits)));
  });
}

/** A module bot known by its metadata: `bot` is a descriptor (options, `supports`) that cannot play. */
export interface DescribedModule {
  readonly meta: BotMeta;
  readonly bot: AnyBot;
  /** Whether a module of the bot imports `take-arena` by name (see `ModuleBotEntry.takeArena`). */
  readonly takeArena: boolean;
}

/** Entries beyond this many make a cold discovery prune the cache. */
const PRUNE_ABOVE = 256;

/**
 * Removes the entries that can never answer again: of bot files that no longer exist, or bundled
 * from an input that no longer exists (a user's game or a bot's helper in a folder since deleted:
 * its key names that folder, so no later run asks for it). Then the bundles no entry names (an
 * hour old at least, so a bundle another arena is about to name stays). Runs only after a cold
 * discovery, and reads the entries only when there are more than `PRUNE_ABOVE`.
 */
function prune(cacheDir: string): void {
  let names: string[];
  try {
    names = readdirSync(cacheDir);
  } catch {
    return;
  }
  const entries = names.filter((n) => n.endsWith('.json'));
  if (entries.length <= PRUNE_ABOVE) return;
  const named = new Set<string>();
  // Entries share most of their inputs (the package's modules): each path is looked up once.
  const exists = new Map<string, boolean>();
  const present = (path: unknown): boolean => {
    if (typeof path !== 'string') return false;
    let known = exists.get(path);
    if (known === undefined) exists.set(path, (known = existsSync(path)));
    return known;
  };
  for (const name of entries) {
    const path = join(cacheDir, name);
    try {
      const entry = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheEntry>;
      if (present(entry.file) && Array.isArray(entry.inputs) && entry.inputs.every((i) => present(i?.path))) {
        if (typeof entry.bundle === 'string') named.add(entry.bundle);
        continue;
      }
      rmSync(path, { force: true });
    } catch {
      rmSync(path, { force: true });
    }
  }
  for (const name of names) {
    if (!name.endsWith('.mjs') || named.has(name)) continue;
    try {
      if (Date.now() - statSync(join(cacheDir, name)).mtimeMs > 3_600_000) rmSync(join(cacheDir, name), { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Adds `supports` answers learned later to a file's cache entry (when the entry is still current
 * and of the same bot): the entry keeps the union of every answer it has had. Returns the metadata
 * as the entry now has it.
 */
function remember(cacheDir: string, file: string, name: string, answers: Readonly<Record<string, boolean>>): BotMeta | null {
  const entry = readEntry(cacheDir, file);
  if (!entry || !('meta' in entry.answer) || entry.answer.meta.name !== name || entry.answer.meta.supports === null) return null;
  const meta = { ...entry.answer.meta, supports: { ...entry.answer.meta.supports, ...answers } };
  writeEntry(cacheDir, { ...entry, answer: { meta } });
  return meta;
}

/**
 * The descriptor of a module bot: its name, description and rebuilt option table, and a
 * `supports` answered from the metadata (or by running the bundle again for a variant not asked
 * about yet). `choose` throws: the bot itself runs only in its host.
 */
function descriptor(file: string, meta: BotMeta, bundle: string | null, settings: DiscoverySettings, cacheDir: string | null): AnyBot {
  const options: Record<string, ParamSpec<unknown>> = {};
  for (const [key, o] of Object.entries(meta.options)) {
    options[key] = {
      schema: schemaFromShape(o.shape),
      description: o.description,
      expected: o.expected,
      ...(o.default !== undefined ? { default: o.default } : {}),
      ...(o.optional ? { optional: true } : {}),
      ...(o.choices ? { choices: o.choices } : {}),
    };
  }
  const known = new Map(Object.entries(meta.supports ?? {}));
  const limits = limitsOf(settings);
  const supports = (game: { readonly id: string }): boolean => {
    const answer = known.get(game.id);
    if (answer !== undefined) return answer;
    let yes = false;
    if (bundle !== null) {
      const plan = childPlan(bundle, [game.id], settings.sandbox === true, limits.cpuSeconds);
      const run = spawnSync(plan.file, plan.args, {
        env: plan.env,
        encoding: 'utf8',
        timeout: limits.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT,
        ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.gid! } : {}),
      });
      const a = judge(file, run.stdout ?? '', run.stderr ?? '', run.status, endingSignal(plan, run.status, run.signal), run.error !== undefined, limits);
      yes = 'meta' in a && a.meta.name === meta.name && a.meta.supports?.[game.id] === true;
    }
    known.set(game.id, yes);
    if (cacheDir !== null) remember(cacheDir, file, meta.name, { [game.id]: yes });
    return yes;
  };
  return defineBot({
    name: meta.name,
    description: meta.description,
    options,
    ...(meta.supports !== null ? { supports } : {}),
    choose() {
      throw new Error(`bot ${meta.name} (${file}) was discovered in a child process; it plays through its host, not from discovery`);
    },
  });
}

/**
 * Reads the metadata of module bot files, each in its own child process (in parallel), from the
 * cache when it is current. Resolves to one result per file, in order: the described bot, or the
 * reason the file is not one. Never runs a file's code in this process.
 */
export async function describeModules(files: readonly string[], settings: DiscoverySettings = {}): Promise<(DescribedModule | { reason: string })[]> {
  const cacheDir = settings.cacheDir === undefined ? defaultDiscoveryCacheDir() : settings.cacheDir;
  const variants = [...new Set([...defaultVariantIds(), ...(settings.variants ?? [])])];
  const limits = limitsOf(settings);
  if (cacheDir !== null) {
    try {
      makeDirs(cacheDir, 0o755);
    } catch {
      // unwritable: no cache this time
    }
  }
  let cold = false;
  const memo: StatMemo = new Map();
  const describe = async (file: string): Promise<DescribedModule | { reason: string }> => {
    const cached = cacheDir !== null ? readEntry(cacheDir, file, memo) : null;
    if (cached && 'reason' in cached.answer) return cached.answer;
    if (cached && 'meta' in cached.answer) {
      const meta = cached.answer.meta;
      const bundle = join(cacheDir!, cached.bundle);
      const missing = meta.supports === null ? [] : variants.filter((v) => !(v in meta.supports!));
      const { takeArena } = cached;
      if (missing.length === 0) return { meta, bot: descriptor(file, meta, bundle, settings, cacheDir), takeArena };
      // The entry is current but has not been asked about some of this run's variants: its bundle
      // answers those alone, and the entry keeps them with the others.
      if (existsSync(bundle)) {
        const { answer } = await runChild(file, bundle, missing, settings.sandbox === true, limits);
        if ('reason' in answer) return answer;
        if (answer.meta.name === meta.name && answer.meta.supports !== null) {
          const union = remember(cacheDir!, file, meta.name, answer.meta.supports) ?? { ...meta, supports: { ...meta.supports, ...answer.meta.supports } };
          return { meta: union, bot: descriptor(file, union, bundle, settings, cacheDir), takeArena };
        }
      }
    }
    cold = true;
    const built = await bundleFor(file);
    if ('reason' in built) return built;
    const name = `${sha256(built.code).slice(0, 32)}.mjs`;
    let bundle: string;
    if (cacheDir !== null) {
      bundle = join(cacheDir, name);
      try {
        writeAtomically(bundle, built.code);
      } catch {
        bundle = temporaryBundlePath('discovery');
        writeFileSync(bundle, built.code, { mode: 0o644 });
      }
    } else {
      bundle = temporaryBundlePath('discovery');
      writeFileSync(bundle, built.code, { mode: 0o644 });
    }
    const { answer, answered } = await runChild(file, bundle, variants, settings.sandbox === true, limits);
    const takeArena = built.aliased.has('take-arena');
    // Only what the runner itself answered depends on the files alone (a time limit does not).
    if (answered && cacheDir !== null && bundle.startsWith(cacheDir)) {
      const inputs = built.inputs.map((p) => stamp(p)).filter((s): s is InputStamp => s !== null);
      if (inputs.length === built.inputs.length) writeEntry(cacheDir, { version: CACHE_VERSION, file, inputs, bundle: name, answer, takeArena });
    }
    if ('reason' in answer) return answer;
    return { meta: answer.meta, bot: descriptor(file, answer.meta, bundle, settings, cacheDir), takeArena };
  };
  // A child per file, a few at once (in order): a folder of bots must not start them all together.
  const results = (await Readable.from(files).map(describe, { concurrency: Math.max(2, availableParallelism()) }).toArray()) as (DescribedModule | { reason: string })[];
  if (cacheDir !== null && cold) prune(cacheDir);
  return results;
}
