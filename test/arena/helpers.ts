/** Shared helpers of the tournament tests. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverBots, type BotRegistry } from '../../src/hosting/index.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import { parseRecordLine } from '../../src/arena/results/index.ts';
import { validateSpec, type TournamentSpecInput } from '../../src/arena/spec.ts';
import { prepareTournament, runTournament, type RunOptions, type RunResult } from '../../src/arena/tournament.ts';

/** The fixture bots' folder. */
export const FIXTURE_BOTS = fileURLToPath(new URL('../fixtures/bots', import.meta.url));

let registry: Promise<BotRegistry> | undefined;
/** Built-in bots plus the fixtures (discovered once per process: a test file, or the files sharing a worker, vitest.config.ts). */
export function fixtureRegistry(): Promise<BotRegistry> {
  return (registry ??= discoverBots([FIXTURE_BOTS]));
}

/** A finished game as the match makes it (a normal win of the first seat in 4 moves), with `extra` over it. */
export function gameRecord(extra: Partial<GameRecord> = {}): GameRecord {
  return {
    index: 3,
    key: 'k',
    variant: 'subtraction{moves=1,5,8,10;n=50..200}',
    deal: 1,
    dealSeed: 4_000_000_000,
    seating: 1,
    seats: { first: 'greedy', second: 'random' },
    botSeeds: { first: 11, second: 12 },
    start: { pile: 57 },
    moves: ['10', '8', '5', '1'],
    us: [3, 12, 1, 1_234_567],
    outcome: { winner: 'first' },
    winner: 'greedy',
    termination: 'normal',
    faulty: null,
    reason: null,
    ...extra,
  };
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'arena-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs a tournament from a raw spec with the fixture registry. */
export async function runSpec(raw: TournamentSpecInput, options: RunOptions = {}): Promise<RunResult> {
  const spec = validateSpec({ out: tempDir(), ...raw });
  return runTournament(prepareTournament(spec, await fixtureRegistry()), options);
}

/** The records of a results folder's log (every line must be a game line). */
export function readLog(dir: string): GameRecord[] {
  return readFileSync(join(dir, 'games.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const rec = parseRecordLine(l);
      if (!rec) throw new Error(`not a game line: ${l.slice(0, 80)}`);
      return rec;
    });
}

/** A record without what legitimately differs between runs (times, and the schedule index). */
export function comparable(rec: GameRecord, keepIndex = true): unknown {
  const { us: _us, wus: _wus, index, ...rest } = rec;
  return { ...rest, ...(keepIndex ? { index } : {}) };
}

/** Log records in schedule order, comparable. */
export function comparableLog(dir: string): unknown[] {
  return readLog(dir)
    .sort((a, b) => a.index - b.index)
    .map((r) => comparable(r));
}

/** Standings without move times (which differ from run to run). */
export function timeless(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'meanMoveMs' || k === 'maxMoveMs' ? 0 : v)));
}
