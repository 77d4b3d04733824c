/** Wall and CPU medians for the benches that compare with C (piles, end-game). */
import { report } from './util.ts';

/** Median wall and CPU milliseconds of `runs` calls (after one warm-up call when `warmup`); the last result. */
export function medianTimes<T>(fn: () => T, runs: number, warmup: boolean): { wallMs: number; cpuMs: number; result: T } {
  let result = warmup ? fn() : (undefined as T);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const mid = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { wallMs: mid(wall), cpuMs: mid(cpu), result };
}

/** The CPU-time ratio line beside reportRatio's wall-time line. */
export function reportCpuRatio(label: string, tsCpuMs: number, cCpu: string | undefined): void {
  const c = Number(cCpu);
  if (!Number.isFinite(c) || c <= 0) return;
  report(label, `TS ${tsCpuMs.toFixed(0)} ms, C ${c.toFixed(0)} ms, TS/C ${(tsCpuMs / c).toFixed(2)}`);
}
