/**
 * Start-up (`npm run bench -- startup`): wall time of `arena --help` and of the first dashboard frame
 * of `npm start`'s tournament, for the compiled copy (`dist/`, as `npm install` builds it) and for the
 * sources through tsx (`TAKE_ARENA_SOURCES=1`), beside `node -e 0`. Medians of several runs, each in
 * a fresh process. The first frame is timed in a real terminal (tmux, polled every few ms) from the
 * command's start to the first text on the screen. Targets (issue 19): `arena --help` ≤ 150 ms,
 * first dashboard frame ≤ 400 ms.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledMain } from '../bin/dist-check.mjs';
import { report } from './util.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin', 'arena.mjs');
const RUNS = Number(process.env['STARTUP_RUNS'] ?? 7);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median wall time (ms) of running `node args…` to its exit. */
function wall(args: readonly string[], env: NodeJS.ProcessEnv = {}): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...env } });
    times.push(performance.now() - t0);
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}`);
  }
  return median(times);
}

/** Wall time (ms) from starting the tournament in a terminal to the first text on its screen. */
async function firstFrame(env: string): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'arena-startup-'));
  const name = `arena-startup-${process.pid}-${Math.floor(performance.now())}`;
  const command = `${env} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} tournament tournaments/classic.json --out ${out}`;
  const t0 = performance.now();
  execFileSync('tmux', ['new-session', '-d', '-s', name, '-x', '120', '-y', '40', '-c', root, '-e', 'CI=false', command]);
  try {
    for (;;) {
      const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', name], { encoding: 'utf8' });
      if (screen.trim() !== '') return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Error('no frame within 30 s');
      await new Promise((r) => setTimeout(r, 3));
    }
  } finally {
    spawnSync('tmux', ['kill-session', '-t', name], { stdio: 'ignore' });
    rmSync(out, { recursive: true, force: true });
  }
}

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`  load average ${load} (the machine may be shared: walls grow with it); ${RUNS} runs each, medians`);
report('node -e 0', `${wall(['-e', '0']).toFixed(0)} ms`);
const compiled = compiledMain(root) !== null;
if (compiled) report('arena --help, compiled (dist/) — target ≤ 150 ms', `${wall([BIN, '--help']).toFixed(0)} ms`);
else report('arena --help, compiled', 'no up-to-date dist/ (npm run build) — skipped');
report('arena --help, sources through tsx', `${wall([BIN, '--help'], { TAKE_ARENA_SOURCES: '1' }).toFixed(0)} ms`);
if (spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status !== 0) report('first dashboard frame', 'tmux is not installed — skipped');
else {
  const frames = async (env: string): Promise<number> => {
    const xs: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 5); i++) xs.push(await firstFrame(env));
    return median(xs);
  };
  if (compiled) report('first dashboard frame of npm start, compiled — target ≤ 400 ms', `${(await frames('')).toFixed(0)} ms`);
  report('first dashboard frame of npm start, sources through tsx', `${(await frames('TAKE_ARENA_SOURCES=1')).toFixed(0)} ms`);
}
