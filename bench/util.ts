/** Helpers shared by the benchmarks. */

/** Runs `fn` `runs` times (after one warm-up when `warmup`) and returns the median wall time in ms. */
export function medianMs(fn: () => void, runs = 5, warmup = true): number {
  if (warmup) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Prints one aligned result line: `label ........ value`. */
export function report(label: string, value: string): void {
  console.log(`${label.padEnd(56, ' ')} ${value}`);
}
