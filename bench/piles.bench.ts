/**
 * Piles (GAMES.md 4): the subtract-a-square cold sieve and nim-value tables, against the C
 * versions in bench/c/ (issue 6: TS/C ratio of medians, target ≤ 1.5). `npm run bench -- piles`
 * Both sides report wall and CPU medians; the CPU ratio is the steadier one when other work
 * shares the machine. While iterating, smaller sizes keep runs short:
 * `PILES_SIEVE_N=2^26 PILES_NIM_N=300000 npm run bench -- piles` (defaults: the 2^28, 10^6).
 */
import { squaresColdFit, squaresColdList, squaresNimValues, subtractionNimValues } from '../src/solvers/grundy.ts';
import { onOneCpu, runC, reportRatio } from './c.ts';
import { medianTimes, reportCpuRatio } from './timing.ts';
import { report, sizeFromEnv } from './util.ts';

/** `2^k` when n is a power of two, else n in full. */
function showSize(n: number): string {
  const k = Math.log2(n);
  return Number.isInteger(k) ? `2^${k}` : n === 1_000_000 ? '10^6' : String(n);
}

{
  // Multi-second runs: no warm-up on either side (V8 optimises within the first block).
  const n = sizeFromEnv('PILES_SIEVE_N', 2 ** 28);
  const [ts, c] = onOneCpu(() => [medianTimes(() => squaresColdList(n), 3, false), runC('squares_sieve', [String(n), '3', '0'])] as const);
  reportRatio(`squares cold sieve to ${showSize(n)}, wall`, ts.wallMs, c);
  reportCpuRatio(`squares cold sieve to ${showSize(n)}, cpu`, ts.cpuMs, c?.values['cpu_median_ms']);
  const fit = squaresColdFit(n);
  report('  c_N (C agrees)', `${ts.result.length} (${c ? c.values['cold'] === String(ts.result.length) : 'no C'}), fit 0.897·N^0.698 ≈ ${fit.toFixed(0)}`);
}

{
  const n = sizeFromEnv('PILES_NIM_N', 1_000_000);
  const [ts, c] = onOneCpu(() => [medianTimes(() => squaresNimValues(n), 5, true), runC('squares_nim', [String(n), '5'])] as const);
  reportRatio(`squares nim-values 0..${showSize(n)} (8 lanes), wall`, ts.wallMs, c);
  reportCpuRatio(`squares nim-values 0..${showSize(n)} (8 lanes), cpu`, ts.cpuMs, c?.values['cpu_median_ms']);
  let zeros = 0;
  let max = 0;
  let sum = 0;
  for (const v of ts.result) {
    if (v === 0) zeros++;
    if (v > max) max = v;
    sum += v;
  }
  const same = c ? c.values['zeros'] === String(zeros) && c.values['max'] === String(max) && c.values['sum'] === String(sum) : 'no C';
  report('  P-positions, largest value (C agrees)', `${zeros}, ${max} (${same})`);
}

{
  const ts = medianTimes(() => subtractionNimValues([15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41], 10_000_000), 1, false);
  report('subtraction-set nim-values 0..10^7 (12 takes, Uint8)', `${ts.wallMs.toFixed(0)} ms wall, ${ts.cpuMs.toFixed(0)} ms cpu`);
}
