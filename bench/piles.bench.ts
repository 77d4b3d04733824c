/**
 * Piles (GAMES.md 4): the subtract-a-square cold sieve and nim-value tables. `npm run bench -- piles`
 * Each figure is one run, wall time and this process's CPU time (the CPU figure stays meaningful
 * when other work shares the machine).
 */
import { popcount, squaresColdBitset, squaresNimValues, subtractionNimValues } from '../src/solvers/grundy.ts';
import { report } from './util.ts';

/** Runs `fn` once; wall and CPU seconds. */
function timed<T>(fn: () => T): { result: T; text: string } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { result, text: `${wall.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s cpu` };
}

{
  const n = 2 ** 26;
  const { result: bits, text } = timed(() => squaresColdBitset(n));
  report('squares cold positions up to 2^26 (blocked sieve)', text);
  report('  count', `${popcount(bits)} (Eppstein 0.897·n^0.698 ≈ ${Math.round(0.897 * n ** 0.698)})`);
  report('  memory', `${(bits.byteLength / 2 ** 20).toFixed(1)} MB bitset + 1 MB block + cold list`);
}

{
  const { result: g, text } = timed(() => squaresNimValues(1_000_000));
  let max = 0;
  let zeros = 0;
  for (const v of g) {
    if (v > max) max = v;
    if (v === 0) zeros++;
  }
  report('squares nim-values 0..10^6 (mex over squares, Uint16)', text);
  report('  largest nim-value, P-positions', `${max}, ${zeros}`);
}

{
  const { text } = timed(() => subtractionNimValues([15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41], 10_000_000));
  report('subtraction-set nim-values 0..10^7 (12 takes, Uint8)', text);
}
