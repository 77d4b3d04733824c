/**
 * Loading users' game files (`games/`, `--games-dir`, a spec's `gameDirs`) and `arena games check`.
 * A game file's code first runs in a child process, as a bot file's does in discovery: bundled with
 * the game runner (game-discovery-runner.ts), under Node's permission model with an empty
 * environment and a CPU limit, so a file that throws, loops, exits or exports something that is not
 * a game is reported in one line naming it, and the arena goes on. Only a file that passed (its
 * export is a game and a first playout of its default variant ends) is then imported into the
 * arena's process and registered as a family: from there its rules run where the built-in rules
 * run (the referee, the play session, the bots' processes), trusted as installed code is
 * (docs/WRITE-A-GAME.md, "Where a game's rules run"). What a child answered is kept in the
 * discovery cache beside the bots' entries (`game-<hash>.json`, with the size, mtime and SHA-256 of
 * every file that went into its bundle): while they are unchanged, no bundle is built and no child
 * starts, and only the file's own import remains.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { show, UsageError } from '../core/errors.ts';
import { visible } from '../core/text.ts';
import type { CheckItem } from '../games/check.ts';
import { registerBrokenGame, registerGameModule, userFamilies } from '../games/index.ts';
import { exportedGame } from '../games/user.ts';
import { bundleWithInputs, temporaryBundlePath } from '../platform/bundle.ts';
import { PACKAGE_ROOT, siblingModule } from '../platform/paths.ts';
import { importableModule } from '../platform/typescript.ts';
import { oneLine } from './bot-module.ts';
import { childPlan, defaultDiscoveryCacheDir, discoveryCpuSeconds, DISCOVERY_TIMEOUT_MS, endingSignal, inputState, stamp, writeAtomically, type InputStamp } from './discovery.ts';
import { GAME_DISCOVERY_PREFIX, type GameAnswer, type GameRequest } from './game-discovery-runner.ts';
import { PACKAGE_ENTRY } from './worker-bundle.ts';
import { makeDirs } from '../platform/files.ts';

/** The built-in folder of users' games (empty as shipped; `arena new-game` writes there). */
export const BUILTIN_GAMES_DIR: string = join(PACKAGE_ROOT, 'games');

/** CPU seconds `arena games check` may use on one file: its playouts run the game's rules thousands of times. */
export const CHECK_CPU_SECONDS = 120;

const RUNNER = siblingModule(import.meta.url, 'game-discovery-runner');

/** Largest answer a child may print (bytes). */
const MAX_OUTPUT = 1 << 20;

/** File names loaded as games: modules, not type declarations. */
export function isGameFileName(name: string): boolean {
  return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !name.startsWith('.');
}

const itemSchema = z.strictObject({ name: z.string().max(200), ok: z.boolean(), detail: z.string().max(4000) });
const answerSchema: z.ZodType<GameAnswer> = z.union([
  z.strictObject({ meta: z.strictObject({ name: z.string().regex(/^[A-Za-z][\w-]*$/).max(64), title: z.string().max(200) }) }),
  z.strictObject({ checked: z.array(z.strictObject({ variant: z.string().max(1000), items: z.array(itemSchema).max(64) })).max(64) }),
  z.strictObject({ reason: z.string().max(4000) }),
]);

/**
 * Runs a game file's child with a request and resolves to its answer (never rejects); `inputs` are
 * the files that went into its bundle when the runner itself answered (an answer that depends on
 * those files alone, which a cache may keep), else null.
 */
async function askChild(file: string, request: GameRequest, cpuSeconds: number): Promise<{ answer: GameAnswer; inputs: readonly string[] | null }> {
  let bundle: string;
  let inputs: string[];
  try {
    const entry = [`import { runGameDiscovery } from ${JSON.stringify(RUNNER)};`, `await runGameDiscovery(() => import(${JSON.stringify(file)}));`].join('\n');
    const built = await bundleWithInputs(entry, process.cwd(), 'game', { 'take-arena': PACKAGE_ENTRY });
    bundle = temporaryBundlePath('game');
    writeFileSync(bundle, built.code, { mode: 0o644 });
    inputs = built.inputs;
  } catch (err) {
    const first = (err as { errors?: { text: string; location?: { line: number; column: number } | null }[] }).errors?.[0];
    return { answer: { reason: `failed to load: ${first ? `${first.location ? `${first.location.line}:${first.location.column}: ` : ''}${first.text}` : oneLine(err)}` }, inputs: null };
  }
  const plan = childPlan(bundle, JSON.stringify(request), false, cpuSeconds);
  return new Promise((resolveAnswer) => {
    const done = (answer: GameAnswer, answered = false): void => resolveAnswer({ answer, inputs: answered ? inputs : null });
    const child = spawn(plan.file, plan.args, { env: plan.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let finished = false;
    const finish = (answer: GameAnswer, answered = false): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      done(answer, answered);
    };
    const timer = setTimeout(() => finish({ reason: `did not answer within ${DISCOVERY_TIMEOUT_MS / 1000} s of wall-clock time (a top-level await that never settles?)` }), DISCOVERY_TIMEOUT_MS);
    const parsed = (): GameAnswer | null => {
      const at = stdout.lastIndexOf(`\n${GAME_DISCOVERY_PREFIX}`);
      const end = at < 0 ? -1 : stdout.indexOf('\n', at + 1);
      if (end < 0) return null;
      try {
        const a = answerSchema.safeParse(JSON.parse(stdout.slice(at + 1 + GAME_DISCOVERY_PREFIX.length, end)));
        return a.success ? a.data : { reason: `failed to load: its answer is malformed (${a.error.issues[0]?.message ?? 'invalid'})` };
      } catch {
        return { reason: 'failed to load: its answer is not JSON' };
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
      const a = parsed();
      if (a) finish(a, true);
      else if (stdout.length >= MAX_OUTPUT) finish({ reason: `printed more than ${MAX_OUTPUT} bytes` });
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    child.on('error', (err) => finish({ reason: `cannot start its process (${oneLine(err)})` }));
    child.on('close', (status, signal) => {
      const ended = endingSignal(plan, status, signal);
      if (ended === 'SIGXCPU' || ended === 'SIGKILL') {
        finish({ reason: `did not finish within ${cpuSeconds} s of CPU time (a rule that loops?)` });
        return;
      }
      const last = stderr.trim().split('\n').filter((l) => l.trim() !== '').pop();
      finish({ reason: `failed to load: its process ${ended ? `was killed by ${ended}` : `exited with code ${status}`}${last ? ` (${last.trim().slice(0, 300)})` : ''}` });
    });
  });
}

/** The answer with its text made visible: it may quote the game's own messages. */
function visibleAnswer(a: GameAnswer): GameAnswer {
  if ('reason' in a) return { reason: visible(a.reason) };
  if ('checked' in a) return { checked: a.checked.map((c) => ({ variant: visible(c.variant), items: c.items.map((i) => ({ ...i, name: visible(i.name), detail: visible(i.detail) })) })) };
  return { meta: { name: a.meta.name, title: visible(a.meta.title) } };
}

/** A game file's cached answer: what its child said, and the files (with their hashes) it was derived from. */
interface GameCacheEntry {
  readonly version: 1;
  readonly file: string;
  readonly inputs: readonly InputStamp[];
  readonly answer: GameAnswer;
}

/** A game file's entry in the discovery cache (beside the bots'; the runner's path is part of the key, as theirs). */
const gameEntryPath = (cacheDir: string, file: string): string => join(cacheDir, `game-${createHash('sha256').update(`${RUNNER}\0${file}`).digest('hex').slice(0, 32)}.json`);

/** The cached answer of a game file while every file that went into it is unchanged, else null. */
function cachedAnswer(cacheDir: string, file: string): GameAnswer | null {
  try {
    const entry = JSON.parse(readFileSync(gameEntryPath(cacheDir, file), 'utf8')) as GameCacheEntry;
    if (entry?.version !== 1 || entry.file !== file || !Array.isArray(entry.inputs)) return null;
    const answer = answerSchema.safeParse(entry.answer, { jitless: true });
    if (!answer.success || entry.inputs.some((input) => inputState(input, undefined) === 'changed')) return null;
    return visibleAnswer(answer.data);
  } catch {
    return null; // no entry, or one this arena cannot read: the child answers
  }
}

/** Keeps a child's answer with the stamps of its inputs (an unwritable cache only makes the next start slower). */
function remember(cacheDir: string, file: string, answer: GameAnswer, paths: readonly string[]): void {
  const inputs = paths.map((p) => stamp(p)).filter((s): s is InputStamp => s !== null);
  if (inputs.length !== paths.length) return; // a file gone meanwhile: nothing sure to keep
  try {
    makeDirs(cacheDir, 0o755);
    writeAtomically(gameEntryPath(cacheDir, file), JSON.stringify({ version: 1, file, inputs, answer } satisfies GameCacheEntry));
  } catch {
    // read-only or full: not cached this time
  }
}

/**
 * Loads one game file: its child first (or the cached answer of one, while the file and what it
 * imports are unchanged), then, if it passed, the file into this process, registered as a family.
 * Resolves to the family's id or the reason the file is not a game.
 */
async function loadGameFile(file: string, cacheDir: string | null): Promise<{ id: string } | { reason: string }> {
  const known = userFamilies().find((e) => e.file === file);
  if (known) return { id: known.family.id };
  let answer = cacheDir === null ? null : cachedAnswer(cacheDir, file);
  if (answer === null) {
    const asked = await askChild(file, { mode: 'describe', file }, discoveryCpuSeconds());
    answer = visibleAnswer(asked.answer);
    if (asked.inputs !== null && cacheDir !== null) remember(cacheDir, file, answer, asked.inputs);
  }
  if ('reason' in answer) return answer;
  if (!('meta' in answer)) return { reason: 'failed to load: its child answered something else' };
  let mod: unknown;
  try {
    mod = await import(pathToFileURL(await importableModule(file)).href);
  } catch (err) {
    return { reason: `failed to load: ${oneLine(err)}` };
  }
  const definition = exportedGame(mod);
  if ('reason' in definition) return definition;
  if (definition.name !== answer.meta.name) return { reason: `now exports game \`${definition.name}\`, not \`${answer.meta.name}\`` };
  registerGameModule(mod, file);
  return { id: definition.name };
}

/** What loading a set of folders found: the games' ids and, per broken file, why it was skipped. */
export interface GameDirsResult {
  readonly games: readonly { readonly id: string; readonly file: string }[];
  readonly problems: readonly { readonly file: string; readonly reason: string }[];
}

/**
 * Loads every game file in `games/` and `extraDirs` (an extra folder must exist) into this
 * process's registry, a child per file, a few at once. A broken file is skipped and remembered
 * (naming its game then says why it is missing); two games with one name, or a built-in family's
 * name, throw UsageError naming the files. Files loaded before are not loaded again.
 */
export async function loadGameDirs(extraDirs: readonly string[] = [], cacheDir: string | null = defaultDiscoveryCacheDir()): Promise<GameDirsResult> {
  const dirs: string[] = [];
  for (const dir of [BUILTIN_GAMES_DIR, ...extraDirs.map((d) => resolve(d))]) {
    if (dirs.includes(dir)) continue;
    if (dir !== BUILTIN_GAMES_DIR && (!existsSync(dir) || !statSync(dir).isDirectory())) {
      throw new UsageError(`Expected --games-dir to be a folder of game files, got ${show(dir)} (not a folder)`);
    }
    dirs.push(dir);
  }
  const files = dirs.flatMap((dir) => (existsSync(dir) ? readdirSync(dir).filter(isGameFileName).sort().map((f) => join(dir, f)) : []));
  // A child per file, a few at once (in order), as bot discovery runs them.
  const results = (await Readable.from(files).map((file: string) => loadGameFile(file, cacheDir), { concurrency: Math.max(2, availableParallelism()) }).toArray()) as Awaited<ReturnType<typeof loadGameFile>>[];
  const games: { id: string; file: string }[] = [];
  const problems: { file: string; reason: string }[] = [];
  for (const [i, file] of files.entries()) {
    const r = results[i]!;
    if ('reason' in r) {
      registerBrokenGame(file, r.reason);
      problems.push({ file, reason: r.reason });
    } else games.push({ id: r.id, file });
  }
  return { games, problems };
}

/** What `arena games check` found for one variant. */
export interface CheckedVariant {
  readonly variant: string;
  readonly items: readonly CheckItem[];
}

/**
 * The conformance test of a game file (games/check.ts), run in its own child with a CPU limit:
 * the check of each variant (the default variant when none is named), or the reason the file
 * could not be checked (it is not a game, it threw, or it ran past the limit).
 */
export async function checkGameFile(file: string, options: { variants?: readonly string[]; games?: number; seed?: number; cpuSeconds?: number } = {}): Promise<readonly CheckedVariant[] | { reason: string }> {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`Expected a game file to check, got ${show(file)} (no such file)`);
  const request: GameRequest = { mode: 'check', file: path, variants: options.variants ?? [], games: options.games ?? 200, seed: options.seed ?? 1 };
  const answer = visibleAnswer((await askChild(path, request, options.cpuSeconds ?? CHECK_CPU_SECONDS)).answer);
  if ('reason' in answer) return answer;
  if (!('checked' in answer)) return { reason: 'its child answered something else' };
  return answer.checked;
}
