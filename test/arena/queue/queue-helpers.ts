/** What the queue tests share: waiting for a condition, the registered tournament, comparable logs, a run's own bots, a killed coordinator. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { TOURNAMENTS_KEY } from '../../../src/arena/queue/protocol.ts';
import { validateSpec, type TournamentSpecInput } from '../../../src/arena/spec.ts';
import { prepareTournament, runTournament, type RunOptions, type RunResult } from '../../../src/arena/tournament.ts';
import { loadBotFile, type BotRegistry, type DiscoverySettings } from '../../../src/hosting/index.ts';
import { comparableLog, tempDir } from '../helpers.ts';
import { waitFor } from '../../patience.ts';

/** Waits until `check` holds (polling every 25 ms); a hang fails after `HANG_MS`, naming `what`. */
export function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  return waitFor(check, what, 25);
}

/** The tournament id the coordinator registered. */
export async function registeredId(redis: Redis): Promise<string> {
  let id = '';
  await until(async () => ((id = Object.keys(await redis.hgetall(TOURNAMENTS_KEY))[0] ?? ''), id !== ''), 'the coordinator to register');
  return id;
}

/** Records without timing fields, retry counts and the worker (what may differ between a queued and a local run). */
export function comparableDir(dir: string): unknown[] {
  return comparableLog(dir).map((r) => {
    const { retries: _r, worker: _w, ...rest } = r as { retries?: number; worker?: string };
    return rest;
  });
}

/**
 * A registry of these bot files, read afresh (no cache) with `settings`, as the CLI reads a run's
 * bots: read after a user's game was loaded and asked about its variants, a bot's `supports` knows it.
 */
export async function botsOf(files: readonly string[], settings: DiscoverySettings = {}): Promise<BotRegistry> {
  const bots = await Promise.all(
    files.map(async (file) => {
      const entry = await loadBotFile(file, { cacheDir: null, ...settings });
      if ('reason' in entry) throw new Error(`${file}: ${entry.reason}`);
      return entry;
    }),
  );
  return { bots, problems: [] };
}

/** Runs a tournament from a raw spec with the bots of `registry`. */
export function runWith(registry: BotRegistry, raw: TournamentSpecInput, options: RunOptions = {}): Promise<RunResult> {
  return runTournament(prepareTournament(validateSpec({ out: tempDir(), ...raw }), registry), options);
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Runs `arena tournament specFile --queue url --plain` and kills it with SIGKILL once it has
 * reported `games` games; returns its results folder.
 */
export async function coordinatorKilledAfter(specFile: string, url: string, games: number): Promise<string> {
  const coordinator = spawn(process.execPath, [join(ROOT, 'bin', 'arena.mjs'), 'tournament', specFile, '--queue', url, '--plain'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  coordinator.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  coordinator.stderr!.resume();
  const reported = new RegExp(`\\[\\s*${games}/\\d+\\]`);
  await until(() => reported.test(text), `${games} games from the coordinator`);
  const exited = new Promise((resolve) => coordinator.once('exit', resolve));
  coordinator.kill('SIGKILL');
  await exited;
  return /Results: (.*)/.exec(text)![1]!.trim();
}
