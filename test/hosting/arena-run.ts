/**
 * Running the real `arena` against hostile bots, for the attack suites: a tournament in a child
 * process (the arena must survive what its bots do, and the test must see it end), its records and
 * the bots' logs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameRecord } from '../../src/arena/match.ts';
import { parseRecordLine } from '../../src/arena/results/index.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a run of the arena left: its results folder, output and exit status. */
export interface ArenaRun {
  readonly dir: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/**
 * Runs `arena <args>` through a shell of its own, without blocking this process. The shell is the
 * arena's parent, so a bot that signals "its parent" from inside the arena's process ends the
 * shell, never the test runner; the status is then the signal's (non-zero).
 */
export function runArena(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Omit<ArenaRun, 'dir'>> {
  const child = spawn('/bin/sh', ['-c', '"$0" "$@"; exit $?', process.execPath, 'bin/arena.mjs', ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ stdout, stderr, status: signal ? 128 : code })));
}

/** Writes a tournament spec into `root` and runs it with `--bots-dir botsDir --plain`. */
export async function tournament(root: string, name: string, spec: Record<string, unknown>, botsDir: string, env?: NodeJS.ProcessEnv): Promise<ArenaRun> {
  const out = join(root, 'results', name);
  mkdirSync(out, { recursive: true });
  const file = join(root, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, seed: 5, deals: 1, out, ...spec }));
  const run = await runArena(['tournament', file, '--bots-dir', botsDir, '--plain'], env);
  const dirs = existsSync(out) ? readdirSync(out) : [];
  return { ...run, dir: join(out, dirs[0] ?? 'none') };
}

/** The records of a results folder. */
export function records(dir: string): GameRecord[] {
  return readFileSync(join(dir, 'games.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => parseRecordLine(l)!);
}

/** The games a bot played. */
export function gamesOf(recs: readonly GameRecord[], bot: string): GameRecord[] {
  return recs.filter((r) => r.seats.first === bot || r.seats.second === bot);
}

/** A bot's forfeits as `termination: reason`. */
export function forfeitsOf(recs: readonly GameRecord[], bot: string): string[] {
  return gamesOf(recs, bot)
    .filter((r) => r.faulty !== null && r.seats[r.faulty] === bot)
    .map((r) => `${r.termination}: ${r.reason}`);
}

/** A bot's log in a results folder ('' when it wrote none). */
export function stderrOf(dir: string, bot: string): string {
  const file = join(dir, 'bots', `${bot}.stderr.log`);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The fields of a record that say how a game went (the same run with or without other bots). */
export function gist(r: GameRecord): unknown {
  return { key: r.key, moves: r.moves, winner: r.winner, termination: r.termination };
}

/** The games among `bots` only, by key. */
export function gamesAmong(recs: readonly GameRecord[], bots: readonly string[]): unknown[] {
  return recs
    .filter((r) => bots.includes(r.seats.first) && bots.includes(r.seats.second))
    .sort((a, b) => a.key.localeCompare(b.key))
    .map(gist);
}
