/**
 * Stress on a busy machine (issue 32): tournaments of every built-in searcher and `optimal` on the
 * coin boards (last-coin and points, 5 and 6 rows) and a subtraction game, 64 games in flight,
 * worker isolation at 100 ms a move on the default CPU clock, while `STRESS_LOAD` busy loops (default
 * 16) keep the cores busy. Prints, per run, the crashes, time forfeits, games with `clockStops` and
 * with `restarts`, and every crash's reason; exits 1 when a bot crashed or lost on time.
 * `STRESS_RUNS` runs (default 10), seeds 1, 2, ….
 *
 * Before the coin oracle chose its methods once (src/solvers/coins.ts), this found `optimal`
 * crashing with "win() needs a last-coin oracle" in 2 runs of 22 at load 15–23.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareTournament } from '../src/arena/prepare.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { runTournament } from '../src/arena/tournament.ts';
import { discoverBots } from '../src/hosting/index.ts';
import { report, sizeFromEnv } from './util.ts';

const RUNS = sizeFromEnv('STRESS_RUNS', 10);
const LOAD = sizeFromEnv('STRESS_LOAD', 16);
const GAMES = [
  'coins{board=triangle;rows=5;start=full;scoring=last-coin}',
  'coins{board=triangle;rows=5;start=full;scoring=points}',
  'coins{board=triangle;rows=6;start=full;scoring=last-coin}',
  'subtraction{moves=1,5,8,10;n=50..200}',
];
const BOTS = ['optimal', 'random', 'greedy', 'mcts', 'minimax', 'hybrid'];

const loops = Array.from({ length: LOAD }, () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
const registry = await discoverBots([]);
let bad = 0;
try {
  for (let seed = 1; seed <= RUNS; seed++) {
    const out = mkdtempSync(join(tmpdir(), 'arena-stress-'));
    const spec = validateSpec({ name: 'stress', seed, games: GAMES, bots: BOTS, deals: 25, concurrency: 64, timePerMoveMs: 100, out });
    const counts = { games: 0, crash: 0, timeout: 0, clockStops: 0, restarts: 0 };
    const reasons = new Set<string>();
    const t0 = performance.now();
    await runTournament(prepareTournament(spec, registry), {
      sink: {
        emit: (e) => {
          if (e.type !== 'game-ended') return;
          const r = e.record;
          counts.games++;
          if (r.termination === 'crash' || r.termination === 'timeout') {
            counts[r.termination]++;
            reasons.add(`${r.seats[r.faulty!]}: ${r.termination} (${r.reason})`);
          }
          if (r.clockStops) counts.clockStops++;
          if (r.restarts) counts.restarts++;
        },
      },
    });
    rmSync(out, { recursive: true, force: true });
    bad += counts.crash + counts.timeout;
    report(
      `run ${seed} (seed ${seed}, ${LOAD} busy loops)`,
      `${counts.games} games in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${counts.crash} crashes, ${counts.timeout} time forfeits, ${counts.clockStops} with clockStops, ${counts.restarts} with restarts`,
    );
    for (const r of reasons) console.log(`  ${r}`);
  }
} finally {
  for (const loop of loops) loop.kill('SIGKILL');
}
report('runs with no crash and no time forfeit', bad === 0 ? `all ${RUNS}` : `no: ${bad} faults`);
process.exitCode = bad === 0 ? 0 : 1;
