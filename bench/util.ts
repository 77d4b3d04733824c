/** Helpers shared by the benchmarks. */
import type { BotSession } from '../src/hosting/index.ts';

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

/** A size from the environment: an integer or `2^k`; `fallback` when unset. */
export function sizeFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const pow = /^2\^(\d+)$/.exec(raw);
  const n = pow ? 2 ** Number(pow[1]) : Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`Expected ${name} to be an integer or 2^k, got ${raw}`);
  return n;
}

/** Prints one aligned result line: `label ........ value`. */
export function report(label: string, value: string): void {
  console.log(`${label.padEnd(56, ' ')} ${value}`);
}

/**
 * Asks `session` for a move `n` times on one position and returns the round trips' median, p90 and
 * p99 as text (µs); a fault stops the bench with `label` and the reason.
 */
export async function moveRoundTrips(session: BotSession, state: unknown, moves: readonly unknown[], n: number, label: string): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const reply = await session.move(state, moves, 1000);
    times.push(performance.now() - t);
    if (!reply.ok) throw new Error(`${label}: ${reply.reason}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number): string => `${(times[Math.floor(q * (n - 1))]! * 1000).toFixed(0)} µs`;
  return `median ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}`;
}
