/**
 * Tournament engine throughput (`npm run bench -- tournament`): random vs random on
 * `subtraction{moves=1,5,8,10;n=50..200}`.
 * - match engine in-process (isolation `none`): games/s and moves/s of `playMatch` alone;
 * - the whole runner in-process: schedule, matches, group-committed log, standings with accuracy;
 * - worker threads (isolation `worker`): games/s and moves/s with 2 concurrent games;
 * - per-move isolation overhead: the round trip of a move through a worker minus in-process;
 * - boardgame.io's `Simulate` on the same game (installed on demand, see `boardgameio.ts`).
 * Targets (issue 4): in-process ≥ 100× boardgame.io's Simulate, isolated ≥ 20,000 moves/s,
 * overhead ≤ 30 µs median.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverBots, InProcessHost, WorkerHost, type BotHost, type BotSpec } from '../src/hosting/index.ts';
import { playMatch } from '../src/arena/match.ts';
import { schedule, type GameJob } from '../src/arena/schedule.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { parseVariant } from '../src/games/index.ts';
import { simulateRate } from './boardgameio.ts';
import { report } from './util.ts';

const VARIANT = 'subtraction{moves=1,5,8,10;n=50..200}';
const FIXTURES = fileURLToPath(new URL('../test/fixtures/bots', import.meta.url));
const registry = await discoverBots([FIXTURES]);
const entry = (name: string) => registry.bots.find((b) => b.name === name)!;
const A: BotSpec = { label: 'random', name: 'random', options: {} };
const B: BotSpec = { label: 'fx-random', name: 'fx-random', options: {} };
const game = parseVariant(VARIANT);

function jobs(deals: number): GameJob[] {
  return [...schedule({ seed: 1, variants: [VARIANT], bots: [A, B], deals, timePerMoveMs: 1000 })];
}

async function playAll(list: readonly GameJob[], hosts: Record<string, BotHost>, lanes: number): Promise<{ games: number; moves: number; ms: number }> {
  let next = 0;
  let moves = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < list.length) {
        const job = list[next++]!;
        const rec = await playMatch(job, game, { first: hosts[job.seats.first.label]!, second: hosts[job.seats.second.label]! });
        moves += rec.moves.length;
      }
    }),
  );
  return { games: list.length, moves, ms: performance.now() - t0 };
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

// 1. The match engine in-process.
{
  const hosts = { random: new InProcessHost(A, entry('random').bot), 'fx-random': new InProcessHost(B, entry('fx-random').bot) };
  await playAll(jobs(2_000), hosts, 1); // warm-up
  const r = await playAll(jobs(50_000), hosts, 1);
  report('in-process match engine: games/s', fmt((r.games / r.ms) * 1000));
  report('in-process match engine: moves/s', fmt((r.moves / r.ms) * 1000));
  report('in-process: mean µs per move (both bots, checks, log record)', ((r.ms * 1000) / r.moves).toFixed(2));
  const engine = (r.games / r.ms) * 1000;
  const bgio = await simulateRate([1, 5, 8, 10], 50, 200, 2_000);
  if (bgio) {
    report('boardgame.io 0.50 Simulate, same game: games/s', fmt(bgio.gamesPerSec));
    report('boardgame.io 0.50 Simulate, same game: moves/s', fmt(bgio.movesPerSec));
    report('in-process engine / Simulate (target ≥ 100×)', `${(engine / bgio.gamesPerSec).toFixed(0)}×`);
  }
}

// 2. The whole runner in-process (log with group commit, standings and accuracy folded per game).
{
  const out = mkdtempSync(join(tmpdir(), 'arena-bench-'));
  const spec = validateSpec({ name: 'bench', seed: 1, games: [VARIANT], bots: ['random', 'fx-random'], deals: 10_000, isolation: 'none', concurrency: 1, out, timePerMoveMs: 1000 });
  const t0 = performance.now();
  const { summary } = await runTournament(prepareTournament(spec, registry));
  const ms = performance.now() - t0;
  report('in-process full runner (log + fsync batches + standings): games/s', fmt((summary.games.played / ms) * 1000));
  rmSync(out, { recursive: true, force: true });
}

// 3. Worker threads: 2 concurrent games, each bot in its own workers.
const workerHosts = {
  random: new WorkerHost('random', { file: entry('random').file, name: 'random', options: {}, memoryMb: 256 }),
  'fx-random': new WorkerHost('fx-random', { file: entry('fx-random').file, name: 'fx-random', options: {}, memoryMb: 256 }),
};
await Promise.all(Object.values(workerHosts).map((h) => h.start()));
{
  await playAll(jobs(100), workerHosts, 2); // warm-up (and the second worker of each pool)
  const r = await playAll(jobs(1_500), workerHosts, 2);
  report('worker threads, 2 concurrent games: games/s', fmt((r.games / r.ms) * 1000));
  report('worker threads, 2 concurrent games: moves/s', fmt((r.moves / r.ms) * 1000));
}

// 4. Per-move overhead of isolation: one game at a time, per-move round trip times.
{
  const times = async (hosts: Record<string, BotHost>, n: number): Promise<number[]> => {
    const all: number[] = [];
    for (const job of jobs(n)) {
      const rec = await playMatch(job, game, { first: hosts[job.seats.first.label]!, second: hosts[job.seats.second.label]! });
      for (const us of rec.us) all.push(us);
    }
    return all.sort((a, b) => a - b);
  };
  const q = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const inProc = await times({ random: new InProcessHost(A, entry('random').bot), 'fx-random': new InProcessHost(B, entry('fx-random').bot) }, 500);
  const isolated = await times(workerHosts, 500);
  report('per move in-process: median / p99 µs', `${q(inProc, 0.5).toFixed(1)} / ${q(inProc, 0.99).toFixed(1)}`);
  report('per move through a worker: median / p99 µs', `${q(isolated, 0.5).toFixed(1)} / ${q(isolated, 0.99).toFixed(1)}`);
  report('isolation overhead per move: median / p99 µs', `${(q(isolated, 0.5) - q(inProc, 0.5)).toFixed(1)} / ${(q(isolated, 0.99) - q(inProc, 0.99)).toFixed(1)}`);
}
await Promise.all(Object.values(workerHosts).map((h) => h.close()));
