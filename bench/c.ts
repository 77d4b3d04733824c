/**
 * C reference versions for the benchmarks (issue 6: every TS/C ratio of median times ≤ 1.5).
 *
 * How to add one: write `bench/c/<name>.c`, a plain single-threaded C program that takes its sizes
 * from argv, runs the algorithm (after one warm-up run) several times, and prints `key=value`
 * lines on stdout: any results you want to cross-check against the TypeScript side, and last
 * `median_ms=<median wall time in ms>`. Then, in a bench:
 *
 *     const [ts, c] = onOneCpu(() => [medianMs(tsFn), runC('name', ['100000000', '5'])] as const);
 *     reportRatio('my table, n ≤ 10^8', ts, c);   // c: null when there is no C compiler
 *
 * or, on a shared machine whose load drifts, `compareWithC(label, tsFn, tsRuns, 'name', args)`,
 * which alternates C and TS for a few rounds (on one CPU too) and reports the median of the
 * per-round ratios.
 *
 * `runC` compiles `bench/c/<name>.c` with `cc -O2` once per process into a temp directory and
 * runs it; without `cc` (or when compiling fails) it prints why once and returns null, so a bench
 * still runs its TypeScript half on machines without a compiler.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianMs, report } from './util.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** What a C program printed: its median time and every other `key=value` line. */
export interface CResult {
  readonly medianMs: number;
  readonly values: Readonly<Record<string, string>>;
}

let outDir: string | undefined;
let noCompiler: string | undefined;
const binaries = new Map<string, string | null>();

/** The compiled binary of `bench/c/<name>.c`, or null (after saying why once) when it cannot be built. */
function compile(name: string): string | null {
  const known = binaries.get(name);
  if (known !== undefined) return known;
  let bin: string | null = null;
  if (noCompiler === undefined) {
    outDir ??= mkdtempSync(join(tmpdir(), 'arena-bench-c-'));
    const out = join(outDir, name);
    const cc = spawnSync('cc', ['-O2', '-o', out, join(here, 'c', `${name}.c`)], { encoding: 'utf8' });
    if (cc.error) {
      noCompiler = `no C compiler (cc: ${cc.error.message})`;
      console.log(`  C versions skipped: ${noCompiler}`);
    } else if (cc.status !== 0) {
      console.log(`  C version ${name} skipped: cc -O2 failed:\n${cc.stderr}`);
    } else bin = out;
  }
  binaries.set(name, bin);
  return bin;
}

/** The affinity mask to restore after `onOneCpu` (undefined before its first call), or null: no pinning. */
let unpinnedMask: string | null | undefined;

/** The CPU the last `onOneCpu` ran on, or null when it did not pin (for compareWithC's line). */
let lastCpu: number | null = null;

/** Pins the main thread (its thread id is the process id) to `cpuList`, a taskset -c list, or a hex mask when `asMask`. */
function pin(cpuList: string, asMask = false): void {
  spawnSync('taskset', asMask ? ['-p', cpuList, String(process.pid)] : ['-p', '-c', cpuList, String(process.pid)]);
}

const probeRow = new Uint8Array(1 << 14);
/** A short branchy table fill, the kind of code the comparisons time: ms for 150 passes, best of 5. */
function probeMs(): number {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let pass = 0; pass < 150; pass++) {
      for (let n = 16; n < probeRow.length; n++) {
        let take = 0;
        for (let i = 1; i < 12; i += 2) {
          if (probeRow[n - i] === 0) {
            take = i;
            break;
          }
        }
        probeRow[n] = take & 1 ? 0 : Math.imul(n, 0x9e3779b1) >>> 31;
      }
    }
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * Runs `fn` with the bench's main thread, and so every C program it starts meanwhile, pinned to
 * one CPU: BENCH_CPU=<n>, or by default (or when n is not a CPU here) the CPU on which a short
 * probe runs fastest just now (BENCH_CPU=none: no pinning). Where `taskset` (util-linux) is missing, `fn` runs unpinned.
 *
 * Why: on a VM the CPUs differ in speed from minute to minute (on this project's 2-CPU VM, one ran
 * the same code 1.0–1.7× slower than the other, and which one changed over the day), and the
 * scheduler would put the busy bench thread and the idle C child on different CPUs, so a ratio
 * compared CPUs, not code. Only the main thread is pinned: V8's compiler and GC threads keep the
 * other CPUs, as the C side has no such threads at all.
 */
export function onOneCpu<T>(fn: () => T): T {
  const env = process.env.BENCH_CPU ?? '';
  if (unpinnedMask === undefined) {
    const now = env === 'none' ? null : spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' });
    unpinnedMask = now && !now.error && now.status === 0 ? (/:\s*([0-9a-f]+)\s*$/.exec(now.stdout)?.[1] ?? null) : null;
    if (unpinnedMask === null && env !== 'none') console.log('  (TS/C comparisons not pinned to one CPU: no taskset)');
  }
  lastCpu = null;
  if (unpinnedMask === null) return fn();
  let cpu = Number(env);
  if (env === '' || !Number.isInteger(cpu) || cpu < 0 || cpu >= cpus().length) {
    let best = Infinity;
    for (let c = 0; c < Math.min(cpus().length, 8); c++) {
      pin(String(c));
      probeMs(); // warm-up
      const ms = probeMs();
      if (ms < best) [best, cpu] = [ms, c];
    }
  }
  pin(String(cpu));
  lastCpu = cpu;
  try {
    return fn();
  } finally {
    pin(unpinnedMask, true);
  }
}

/** Compiles (once) and runs `bench/c/<name>.c` with `args`; null when no compiler is available. */
export function runC(name: string, args: readonly string[] = []): CResult | null {
  const bin = compile(name);
  if (bin === null) return null;
  const run = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.error || run.status !== 0) {
    console.log(`  C version ${name} failed: ${run.error?.message ?? run.stderr}`);
    return null;
  }
  const values: Record<string, string> = {};
  for (const line of run.stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) values[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  const medianMs = Number(values['median_ms']);
  if (!Number.isFinite(medianMs)) {
    console.log(`  C version ${name} printed no median_ms=<ms> line`);
    return null;
  }
  return { medianMs, values };
}

/**
 * Prints the TS median, the C median and their ratio on one line, with the target when the ratio
 * misses it: TS/C ≤ `target` (below it when `strictly`); null: no ratio target.
 */
export function reportRatio(label: string, tsMs: number, c: CResult | null, target: number | null = 1.5, strictly = false): void {
  const ts = fmtMs(tsMs);
  if (c === null) {
    report(label, `TS ${ts} (no C figure)`);
    return;
  }
  const ratio = tsMs / c.medianMs;
  const miss = target !== null && (strictly ? ratio >= target : ratio > target);
  report(label, `TS ${ts}, C ${fmtMs(c.medianMs)}, TS/C ${ratio.toFixed(2)}${miss ? ` (target ${strictly ? '<' : '≤'} ${target})` : ''}`);
}

function fmtMs(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(3)} ms`;
}

/**
 * Alternates `rounds` rounds of (C median, TS median of `runs` runs of `ts`) so that both sides see
 * the same load, prints the medians of each side and the median of the per-round TS/C ratios, and
 * returns the last C result (for cross-checking its printed values) or null without a compiler.
 */
export function compareWithC(
  label: string,
  ts: () => void,
  runs: number,
  name: string,
  args: readonly string[],
  rounds = 3,
): CResult | null {
  const cs: number[] = [];
  const tss: number[] = [];
  const ratios: number[] = [];
  let last: CResult | null = null;
  onOneCpu(() => {
    for (let r = 0; r < rounds; r++) {
      last = runC(name, args);
      const t = medianMs(ts, runs);
      tss.push(t);
      if (last === null) continue;
      cs.push(last.medianMs);
      ratios.push(t / last.medianMs);
    }
  });
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  if (last === null) {
    report(label, `TS ${fmtMs(med(tss))} (no C figure)`);
    return null;
  }
  const ratio = med(ratios);
  report(
    label,
    `TS ${fmtMs(med(tss))}, C ${fmtMs(med(cs))}, TS/C ${ratio.toFixed(2)} (rounds ${ratios.map((x) => x.toFixed(2)).join(' ')}${lastCpu === null ? '' : `; CPU ${lastCpu}`})${ratio <= 1.5 ? '' : ', target ≤ 1.5'}`,
  );
  return last;
}
