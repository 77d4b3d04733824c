/**
 * End Game (GAMES.md 6): the interval DP on long rows. `npm run bench -- end-game`
 * Each figure is one run, wall time and this process's CPU time.
 */
import { createRng } from '../src/core/rng.ts';
import { EndGameTable, endGameValue } from '../src/solvers/end-game.ts';
import { report } from './util.ts';

/** Runs `fn` once; wall and CPU milliseconds. */
function timed<T>(fn: () => T): { result: T; text: string } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { result, text: `${wall.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms cpu` };
}

const n = 20_000;
const rng = createRng(2024);
for (const [lo, hi, cells] of [[-10, 10, 'Int32'], [-1e9, 1e9, 'Float64']] as const) {
  const row = Array.from({ length: n }, () => rng.int(lo, hi));
  const bytes = cells === 'Int32' ? 4 : 8;
  console.log(`row of ${n} numbers in ${lo}..${hi} (${cells} cells)`);
  const { result: value, text } = timed(() => endGameValue(row));
  report('  value (diagonals in place, O(N) memory)', `${text}, value ${value}`);
  report('    memory', `${(((n + 1) * bytes) / 1024).toFixed(0)} KB (one diagonal)`);
  const { result: table, text: built } = timed(() => new EndGameTable(row));
  const k = table.blockSize;
  let checkpoints = 0;
  for (let d = 0; d <= n; d += k) checkpoints += n - d + 1;
  report(`  EndGameTable build (checkpoint every K = ${k} diagonals)`, built);
  report(
    '    memory: checkpoints + one block of K windows',
    `${((checkpoints * bytes) / 2 ** 20).toFixed(1)} MB + ${((k * (k + 1) * bytes) / 2 ** 20).toFixed(1)} MB (full triangle: ${(((n * n) / 2) * bytes / 2 ** 30).toFixed(1)} GB)`,
  );
  const { result: margin, text: played } = timed(() => {
    let [l, h, m, sign] = [0, n, 0, 1];
    while (l < h) {
      m += sign * (table.bestMove(l, h) === 'L' ? row[l++]! : row[--h]!);
      sign = -sign;
    }
    return m;
  });
  report(`  optimal play of all ${n} moves from the table`, `${played}, margin ${margin} (= value: ${margin === value})`);
}
