/**
 * End Game (GAMES.md 6): the interval DP on long rows, against the C version in bench/c/ (issue 6:
 * TS/C ratio at N = 20,000, the median of alternating C and TS rounds, target ≤ 1.5), and the
 * optimal bot's table at N = 50,000 (memory, build time, time per move). `npm run bench -- end-game`
 */
import { createRng } from '../src/core/rng.ts';
import { EndGameTable, endGameValue } from '../src/solvers/end-game.ts';
import { compareWithC, runC } from './c.ts';
import { medianTimes } from './timing.ts';
import { report } from './util.ts';

/** MurmurHash3's 32-bit finalizer: the row bench/c/end_game.c builds, random-looking (unpredictable max). */
function fmix32(i: number): number {
  let h = i;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
const hashedRow = (n: number): number[] => Array.from({ length: n }, (_, i) => (fmix32(i) % 21) - 10);

{
  const n = 20_000;
  const row = hashedRow(n);
  // Warm-up on short rows and one full run, so that V8 has optimised the sweep before timing.
  for (let w = 0; w < 200; w++) endGameValue(row.slice(0, 300));
  const tsValue = endGameValue(row);
  // Alternating rounds of C and TS (both see the same load on a shared machine), median ratio.
  const c = compareWithC(
    `TS/C End Game value, N = ${n} (diagonals, O(N) memory)`,
    () => endGameValue(row),
    3,
    'end_game',
    [String(n), '3'],
    5,
  );
  report('  value (C agrees)', `${tsValue} (${c ? c.values['value'] === String(tsValue) : 'no C'})`);
  // The C side's short rows too, where the one-diagonal tail matters.
  for (const small of [1, 7, 8, 9, 17, 33]) {
    const cs = runC('end_game', [String(small), '1']);
    if (cs && cs.values['value'] !== String(endGameValue(hashedRow(small)))) report(`  MISMATCH at N = ${small}`, `C ${cs.values['value']}`);
  }
}

const rng = createRng(2024);
for (const [n, lo, hi, cells] of [[50_000, -10, 10, 'Int32'], [20_000, -1e9, 1e9, 'Float64']] as const) {
  const row = Array.from({ length: n }, () => rng.int(lo, hi));
  const bytes = cells === 'Int32' ? 4 : 8;
  console.log(`row of ${n} numbers in ${lo}..${hi} (${cells} cells)`);
  const value = medianTimes(() => endGameValue(row), 1, false);
  report('  value (diagonals in place, O(N) memory)', `${value.wallMs.toFixed(0)} ms wall, ${value.cpuMs.toFixed(0)} ms cpu, value ${value.result}`);
  report('    memory', `${(((n + 1) * bytes) / 1024).toFixed(0)} KB (one diagonal)`);
  const built = medianTimes(() => new EndGameTable(row), 1, false);
  const table = built.result;
  const k = table.blockSize;
  let checkpoints = 0;
  for (let d = 0; d <= n; d += k) checkpoints += n - d + 1;
  report(`  EndGameTable build (checkpoint every K = ${k} diagonals)`, `${built.wallMs.toFixed(0)} ms wall, ${built.cpuMs.toFixed(0)} ms cpu`);
  report(
    '    memory: checkpoints + one block of K windows',
    `${((checkpoints * bytes) / 2 ** 20).toFixed(1)} MB + ${((k * (k + 1) * bytes) / 2 ** 20).toFixed(1)} MB (full triangle: ${((((n * n) / 2) * bytes) / 2 ** 30).toFixed(1)} GB)`,
  );
  let worst = 0;
  const t0 = performance.now();
  let [l, h, margin, sign] = [0, n, 0, 1];
  while (l < h) {
    const s = performance.now();
    const move = table.bestMove(l, h);
    worst = Math.max(worst, performance.now() - s);
    margin += sign * (move === 'L' ? row[l++]! : row[--h]!);
    sign = -sign;
  }
  const total = performance.now() - t0;
  report(
    `  optimal play of all ${n} moves from the table`,
    `${total.toFixed(0)} ms (${((total / n) * 1000).toFixed(1)} µs/move, worst ${worst.toFixed(1)} ms), margin ${margin} (= value: ${margin === value.result})`,
  );
}
