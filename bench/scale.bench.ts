/**
 * Tournament scaling (`npm run bench -- scale`): random against greedy on
 * `subtraction{moves=1,5,8,10;n=50..200}`, isolation none, `--plain` output to /dev/null, for 10^4,
 * 10^5 and 10^6 games (`BENCH_SCALE=4,5` for fewer). Each tournament is the real CLI (`bin/arena.mjs`:
 * the compiled copy when `dist/` is up to date) in a child process of its own, whose peak RSS it
 * reports itself at exit (`rss-at-exit.mjs`); then `--resume` of the finished folder, which plays
 * nothing and takes the standings from the run's sealed checkpoint (results/checkpoint.ts), and
 * the same resume without the checkpoint, which streams, verifies and folds (replays) the whole log.
 * Targets (issues 19 and 35): peak RSS at 10^6 ≤ 300 MB and ≤ 1.2× that at 10^5; time per game at
 * 10^6 within 1.2× of that at 10^5; the resume of the finished 10^6 folder ≤ 1 s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledMain } from '../bin/dist-check.mjs';
import { GUARD_FILES } from '../src/arena/results/folder.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin', 'arena.mjs');
const PRELOAD = join(root, 'bench', 'rss-at-exit.mjs');
const VARIANT = 'subtraction{moves=1,5,8,10;n=50..200}';
const exponents = (process.env['BENCH_SCALE'] ?? '4,5,6').split(',').map(Number);

interface Run {
  readonly ms: number;
  readonly rssMb: number;
  /** The child's own CPU time (user + system). */
  readonly cpuMs: number;
}

/** Runs the CLI in a child with its output discarded; its wall time, its own peak RSS and CPU time. */
function arena(args: readonly string[]): Promise<Run> {
  const rssFile = join(mkdtempSync(join(tmpdir(), 'arena-rss-')), 'rss');
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', PRELOAD, BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, BENCH_RSS_FILE: rssFile },
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`arena ${args.join(' ')} exited with ${code}: ${err.trim()}`));
      const [rssKb, cpuMs] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
      resolve({ ms, rssMb: rssKb! / 1024, cpuMs: cpuMs! });
    });
  });
}

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(`  running ${compiledMain(root) ? 'the compiled copy (dist/)' : 'the sources through tsx (no up-to-date dist/: npm run build)'}; the machine may be shared, see its load:`);
console.log(`  load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${readdirSync('/sys/devices/system/cpu').filter((d) => /^cpu\d+$/.test(d)).length} CPUs`);
const rows: { games: number; run: Run; resume: Run; full: Run; bytes: number }[] = [];
for (const e of exponents) {
  const games = 10 ** e;
  const out = mkdtempSync(join(tmpdir(), 'arena-scale-'));
  const run = await arena(['tournament', '--bots', 'random,greedy', '--games', VARIANT, '--deals', String(games / 2), '--seed', '1', '--isolation', 'none', '--concurrency', '1', '--plain', '--out', out]);
  const dir = join(out, readdirSync(out)[0]!);
  const bytes = statSync(join(dir, 'games.jsonl')).size;
  const resume = await arena(['tournament', '--resume', dir, '--plain']);
  // The same without the checkpoint: the whole log read, verified and replayed.
  unlinkSync(join(dir, GUARD_FILES.checkpoint));
  const full = await arena(['tournament', '--resume', dir, '--plain']);
  rows.push({ games, run, resume, full, bytes });
  rmSync(out, { recursive: true, force: true });
  const per = (run.ms * 1000) / games;
  console.log(
    `  10^${e} games: ${fmt(run.ms / 1000, 1)} s (${fmt(games / (run.ms / 1000))} games/s, ${fmt(per, 1)} µs/game), peak RSS ${fmt(run.rssMb)} MB, ` +
      `log ${fmt(bytes / games)} B/game, resume ${fmt(resume.ms / 1000, 2)} s (CPU ${fmt(resume.cpuMs / 1000, 2)} s) at ${fmt(resume.rssMb)} MB ` +
      `(reading the whole log: ${fmt(full.ms / 1000, 1)} s, CPU ${fmt(full.cpuMs / 1000, 1)} s, at ${fmt(full.rssMb)} MB)`,
  );
}

const at = (games: number) => rows.find((r) => r.games === games);
const big = at(1e6);
const mid = at(1e5);
console.log('');
console.log('| games | wall | games/s | µs/game | peak RSS | log/game | resume (wall, CPU, RSS) | resume reading the log |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| 10^${Math.round(Math.log10(r.games))} | ${fmt(r.run.ms / 1000, 1)} s | ${fmt(r.games / (r.run.ms / 1000))} | ${fmt((r.run.ms * 1000) / r.games, 1)} | ` +
      `${fmt(r.run.rssMb)} MB | ${fmt(r.bytes / r.games)} B | ${fmt(r.resume.ms / 1000, 2)} s, ${fmt(r.resume.cpuMs / 1000, 2)} s, ${fmt(r.resume.rssMb)} MB | ${fmt(r.full.ms / 1000, 1)} s, ${fmt(r.full.cpuMs / 1000, 1)} s, ${fmt(r.full.rssMb)} MB |`,
  );
}
if (big && mid) {
  const rssRatio = big.run.rssMb / mid.run.rssMb;
  const timeRatio = big.run.ms / big.games / (mid.run.ms / mid.games);
  const mark = (ok: boolean): string => (ok ? 'met' : 'MISSED');
  console.log('');
  console.log(`  peak RSS at 10^6: ${fmt(big.run.rssMb)} MB (target ≤ 300 MB: ${mark(big.run.rssMb <= 300)})`);
  console.log(`  peak RSS 10^6 / 10^5: ${rssRatio.toFixed(2)}× (target ≤ 1.2×: ${mark(rssRatio <= 1.2)})`);
  console.log(`  time per game 10^6 / 10^5: ${timeRatio.toFixed(2)}× (target ≤ 1.2×: ${mark(timeRatio <= 1.2)})`);
}
if (big) {
  // On a loaded machine the wall time is mostly waiting for a core: the CPU time is printed beside it.
  const met = (ms: number): string => (ms <= 1000 ? 'met' : 'MISSED');
  console.log(`  resume of the finished 10^6 folder: ${fmt(big.resume.ms / 1000, 2)} s, CPU ${fmt(big.resume.cpuMs / 1000, 2)} s (target ≤ 1 s: ${met(big.resume.ms)}; by CPU time: ${met(big.resume.cpuMs)})`);
}
