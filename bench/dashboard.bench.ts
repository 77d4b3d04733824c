/**
 * The dashboard's cost to a tournament (issue: under 5 % of throughput). The same in-process
 * tournament (random, greedy and optimal on a subtraction game; isolation `none`, so nothing hides
 * the sink's cost behind worker latency) runs with a sink that drops every event and with the Ink
 * dashboard watching every game (it polls the runner's live views when it draws) and rendering into
 * a terminal-sized null stream. Runs alternate and medians are compared (the machine is shared).
 * Process CPU time is not used: it counts the JIT's and the garbage collector's helper threads and,
 * on a loaded machine, moved more with the neighbours than with the sink.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { discoverBots } from '../src/hosting/index.ts';
import type { ArenaEvent, EventSink } from '../src/arena/events.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { report } from './util.ts';

// React's production build, as the `arena` bin runs it (the development build renders about twice
// as slowly). React picks its build when first loaded, so the dashboard is imported after this.
process.env['NODE_ENV'] ??= 'production';
const { dashboardSink } = await import('../src/tui/dashboard/dashboard-sink.ts');

/** A terminal that swallows output: what Ink writes is produced in full, then dropped. */
function nullTerminal(): { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream; bytes: () => number } {
  let bytes = 0;
  const out = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      bytes += chunk.length;
      done();
    },
  }) as unknown as NodeJS.WriteStream & { columns: number; rows: number; isTTY: boolean };
  out.columns = 120;
  out.rows = 40;
  out.isTTY = true;
  // Ink wants a TTY stdin it can put in raw mode; keys never come in a benchmark.
  const inp: NodeJS.ReadStream = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => inp,
    ref: () => inp,
    unref: () => inp,
  }) as unknown as NodeJS.ReadStream;
  return { stdout: out, stdin: inp, bytes: () => bytes };
}

const registry = await discoverBots();
// Long enough (about 60,000 games) that mounting and the final frame do not weigh like a steady state.
const deals = Number(process.env['DASH_DEALS'] ?? 10000);
const spec = validateSpec({
  name: 'dash-bench',
  seed: 9,
  games: ['subtraction{moves=1,2,3;n=20..40}'],
  bots: ['random', 'greedy', 'optimal'],
  deals,
  isolation: 'none',
  concurrency: 2,
  timePerMoveMs: 1000,
});

/** One run's throughput, games per second. */
async function rate(makeSink: () => EventSink, run: typeof spec = spec): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'dash-bench-'));
  try {
    const t0 = performance.now();
    const result = await runTournament(prepareTournament({ ...run, out }, registry), { sink: makeSink() });
    return result.summary.games.played / ((performance.now() - t0) / 1000);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const med = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (a: number, b: number): string => `${((1 - a / b) * 100).toFixed(1)} %`;

/**
 * Runs the sinks in turn, `rounds` times (in reverse order every other round, so a drift in the
 * machine's load does not favour one), and returns each one's runs.
 */
async function alternate(sinks: readonly (() => EventSink)[], rounds: number, run: typeof spec = spec): Promise<number[][]> {
  const runs: number[][] = sinks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = sinks.map((_, i) => (round % 2 === 0 ? i : sinks.length - 1 - i));
    for (const i of order) runs[i]!.push(await rate(sinks[i]!, run));
  }
  return runs;
}

/**
 * The cost of `runs` against `base`: 1 − the median of the per-round ratios. Pairing each run with
 * the baseline run next to it cancels most of what the neighbours' load does to both.
 */
const cost = (runs: readonly number[], base: readonly number[]): string => pct(med(runs.map((r, i) => r / base[i]!)), 1);

const games = deals * 3 * 2;
const none = (): EventSink => ({ detail: 'games', emit: () => {} });
// Watches every game and drops everything: what the runner's live views cost by themselves.
const liveOnly = (): EventSink => ({ detail: 'live', emit: () => {} });
const terminals: ReturnType<typeof nullTerminal>[] = [];
const dash = (): EventSink => {
  const term = nullTerminal();
  terminals.push(term);
  return dashboardSink({ stdout: term.stdout, stdin: term.stdin, controls: { quit: () => {} } });
};

await rate(dash); // warm-up: JIT and module loading
const rounds = Number(process.env['DASH_ROUNDS'] ?? 7);
const [base, withLive, withDash] = (await alternate([none, liveOnly, dash], rounds)) as [number[], number[], number[]];
report(`tournament, no sink (${games} games, isolation none)`, `${med(base).toFixed(0)} games/s`);
report('tournament, a sink that takes live views and drops them', `${med(withLive).toFixed(0)} games/s`);
report('tournament, Ink dashboard (polls live views when it draws)', `${med(withDash).toFixed(0)} games/s`);
report('dashboard cost (median of paired rounds)', `${cost(withDash, base)} of throughput`);
report('of which the engine’s live views and game-started events', cost(withLive, base));
report('runs (games/s: no sink | live views | dashboard)', base.map((b, i) => `${b.toFixed(0)}|${withLive[i]!.toFixed(0)}|${withDash[i]!.toFixed(0)}`).join(' '));
report('terminal output of one dashboard run', `${((terminals.at(-1)?.bytes() ?? 0) / 1024).toFixed(0)} KiB`);

// The default: every bot in its own worker threads (what `npm start` and most tournaments run),
// 9,000 games a run (about 5 s): shorter runs weigh the dashboard's mount like its steady state.
const workerSpec = { ...spec, isolation: 'worker' as const, deals: Number(process.env['DASH_WORKER_DEALS'] ?? 1500) };
await rate(dash, workerSpec);
const [wBase, wDash] = (await alternate([none, dash], rounds, workerSpec)) as [number[], number[]];
report(`isolation worker (default): no sink (${workerSpec.deals * 6} games)`, `${med(wBase).toFixed(0)} games/s`);
report('isolation worker (default): Ink dashboard', `${med(wDash).toFixed(0)} games/s`);
report('dashboard cost, isolation worker (paired rounds)', `${cost(wDash, wBase)} of throughput`);

// The dashboard's own time per event, without the tournament's noise: one more run with the sink's
// `emit` timed (renders run in timers, not in `emit`, and are bounded by the render budget).
let emitMs = 0;
let emitted = 0;
const timedDash = (): EventSink => {
  const inner = dash();
  return {
    detail: 'live',
    emit(e: ArenaEvent) {
      const t0 = performance.now();
      inner.emit(e);
      emitMs += performance.now() - t0;
      emitted++;
    },
  };
};
const timed = await rate(timedDash);
const perGameUs = (emitMs * 1000) / games;
report('dashboard time in its event handling, per game', `${perGameUs.toFixed(2)} µs (${emitted} events; mount and first frame included)`);
report('… against one game at the no-sink rate above', `${((perGameUs / (1e6 / med(base))) * 100).toFixed(1)} % (run: ${timed.toFixed(0)} games/s)`);
