/**
 * The dashboard's cost to a tournament (issue: under 5 % of throughput). The same in-process
 * tournament (random, greedy and optimal on a subtraction game; isolation `none`, so nothing hides
 * the sink's cost behind worker latency) runs with a sink that drops every event and with the Ink
 * dashboard asking for every move and rendering into a terminal-sized null stream.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { discoverBots } from '../src/arena/bot-registry.ts';
import type { ArenaEvent, EventSink } from '../src/arena/events.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { dashboardSink } from '../src/tui/dashboard-sink.ts';
import { report } from './util.ts';

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
const deals = Number(process.env['DASH_DEALS'] ?? 4000);
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

async function gamesPerSecond(makeSink: () => EventSink, run: typeof spec = spec): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'dash-bench-'));
  try {
    const t0 = performance.now();
    const result = await runTournament(prepareTournament({ ...run, out }, registry), { sink: makeSink() });
    const secs = (performance.now() - t0) / 1000;
    return result.summary.games.played / secs;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const games = deals * 3 * 2;
const none = (): EventSink => ({ detail: 'games', emit: () => {} });
let written = 0;
const dash = (): EventSink => {
  const term = nullTerminal();
  const sink = dashboardSink({ stdout: term.stdout, stdin: term.stdin, controls: { quit: () => {} } });
  return {
    detail: sink.detail ?? 'moves',
    emit(e) {
      sink.emit(e);
      written = term.bytes();
    },
  };
};
// Alternate the two, three rounds each, and compare medians (the machine is shared).
const movesOnly = (): EventSink => ({ detail: 'moves', emit: () => {} });
await gamesPerSecond(dash); // warm-up: JIT and module loading
const base: number[] = [];
const withMoves: number[] = [];
const withDash: number[] = [];
for (let round = 0; round < 3; round++) {
  base.push(await gamesPerSecond(none));
  withMoves.push(await gamesPerSecond(movesOnly));
  withDash.push(await gamesPerSecond(dash));
}
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
report(`tournament, no sink (${games} games, isolation none)`, `${med(base).toFixed(0)} games/s`);
report('tournament, a sink that takes every move and drops it', `${med(withMoves).toFixed(0)} games/s`);
report('tournament, Ink dashboard (every move, renders ≤ 3 % of time)', `${med(withDash).toFixed(0)} games/s`);
report('dashboard cost', `${((1 - med(withDash) / med(base)) * 100).toFixed(1)} % of throughput`);
report('of which the engine’s move events (positions as JSON)', `${((1 - med(withMoves) / med(base)) * 100).toFixed(1)} %`);
report('terminal output of one dashboard run', `${(written / 1024).toFixed(0)} KiB`);

// The default: every bot in its own worker threads (what `npm start` and most tournaments run).
const workerSpec = { ...spec, isolation: 'worker' as const, deals: Number(process.env['DASH_WORKER_DEALS'] ?? 150) };
await gamesPerSecond(dash, workerSpec);
const wBase: number[] = [];
const wDash: number[] = [];
for (let round = 0; round < 3; round++) {
  wBase.push(await gamesPerSecond(none, workerSpec));
  wDash.push(await gamesPerSecond(dash, workerSpec));
}
report(`isolation worker (default): no sink (${workerSpec.deals * 6} games)`, `${med(wBase).toFixed(0)} games/s`);
report('isolation worker (default): Ink dashboard', `${med(wDash).toFixed(0)} games/s`);
report('dashboard cost, isolation worker', `${((1 - med(wDash) / med(wBase)) * 100).toFixed(1)} % of throughput`);

// The same cost measured without the tournament's noise: a recorded stream (18 games, 146 events)
// replayed into a dashboard sink many times; the CPU it takes per game against a game's time above.
const recorded = JSON.parse(readFileSync(new URL('../test/tui/fixtures/tournament-events.json', import.meta.url), 'utf8')) as ArenaEvent[];
const body = recorded.filter((e) => e.type !== 'tournament-started' && e.type !== 'finished');
const term = nullTerminal();
const sink = dashboardSink({ stdout: term.stdout, stdin: term.stdin, controls: { quit: () => {} } });
sink.emit(recorded[0]!);
const rounds = 2000;
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let r = 0; r < rounds; r++) {
  for (const e of body) sink.emit(e);
  // Let the timers fire as they would between a tournament's games.
  if (r % 50 === 0) await new Promise((res) => setImmediate(res));
}
await new Promise((res) => setTimeout(res, 100));
const cpu = process.cpuUsage(c0);
const wall = performance.now() - t0;
sink.emit(recorded[recorded.length - 1]!);
const perGameUs = ((cpu.user + cpu.system) / (rounds * 18));
report('dashboard CPU per game (recorded stream, every move)', `${perGameUs.toFixed(1)} µs (${(wall / (rounds * 18) * 1000).toFixed(1)} µs wall)`);
report('… against one game at the no-sink rate above', `${((perGameUs / (1e6 / med(base))) * 100).toFixed(1)} %`);
