/**
 * Tournament engine throughput (`npm run bench -- tournament`): random vs random on
 * `subtraction{moves=1,5,8,10;n=50..200}`.
 * - match engine in-process (isolation `none`): games/s and moves/s of `playMatch` alone;
 * - the whole runner in-process: schedule, matches, group-committed log, standings with accuracy;
 * - isolation `worker` (each bot in processes of its own): games/s and moves/s of the default
 *   command (no `--concurrency`: the pool learns how many games in flight pay, in-flight.ts), and
 *   with 128 in flight (the bots' requests then go to their processes in batches, one message per
 *   batch: the best fixed setting for fast bots), the ratio of the two, and the CPU time a game
 *   costs the runner and the bots' processes (from `/proc`, on Linux);
 * - the whole CLI end to end with `--isolation none` (`arena tournament` for 2·10^5 games of random
 *   against a copy of random in a process of its own, start-up and bot discovery included; the
 *   compiled copy when `dist/` is up to date): games/s, its ratio to the warm runner, CPU µs a game;
 * - per-move isolation overhead: the round trip of a move through a bot's process minus in-process;
 * - boardgame.io's `Simulate` on the same game (installed on demand, see `boardgameio.ts`), measured
 *   first, and each figure's ratio to it;
 * - an external Python bot (examples/python-bot) playing a tournament against random: moves/s.
 * Targets (issues 4, 19 and 35): in-process ≥ 100× boardgame.io's Simulate (the engine, the whole
 * runner, and the CLI end to end), worker isolation ≥ 10× it, the default command within 1.5× of
 * the best setting of its isolation, isolated ≥ 20,000 moves/s, overhead ≤ 30 µs median, the
 * Python bot ≥ 5,000 moves/s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, discoverBots, WorkerHost, type BotHost, type BotSpec } from '../src/hosting/index.ts';
import { playMatch, type GameRecord } from '../src/arena/match.ts';
import { schedule, type GameJob } from '../src/arena/schedule.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { parseVariant } from '../src/games/index.ts';
import { simulateRate } from './boardgameio.ts';
import { report } from './util.ts';

const VARIANT = 'subtraction{moves=1,5,8,10;n=50..200}';
const FIXTURES = fileURLToPath(new URL('../test/fixtures/bots', import.meta.url));
const registry = await discoverBots([FIXTURES]);
const entry = (name: string) => registry.bots.find((b) => b.name === name)!;
const A: BotSpec = { label: 'random', name: 'random', options: {} };
const B: BotSpec = { label: 'fx-random', name: 'fx-random', options: {} };
const game = parseVariant(VARIANT);

/**
 * The two bots in-process, loaded as a tournament loads them (discovery runs in a child process,
 * so a registry entry holds no bot object to play with).
 */
async function inProcessHosts(): Promise<Record<string, BotHost>> {
  const hosts = { random: createHost(entry('random'), A, { isolation: 'none', memoryMb: 256 }), 'fx-random': createHost(entry('fx-random'), B, { isolation: 'none', memoryMb: 256 }) };
  await Promise.all(Object.values(hosts).map((h) => h.start()));
  return hosts;
}

function jobs(deals: number): GameJob[] {
  return [...schedule({ seed: 1, variants: [VARIANT], bots: [A, B], deals, timePerMoveMs: 1000 })];
}

async function playAll(list: readonly GameJob[], hosts: Record<string, BotHost>, lanes: number): Promise<{ games: number; moves: number; ms: number }> {
  let next = 0;
  let moves = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < list.length) {
        const job = list[next++]!;
        const rec = await playMatch(job, game, { first: hosts[job.seats.first.label]!, second: hosts[job.seats.second.label]! });
        // A figure of games that ended in a fault would measure nothing: stop instead.
        if (rec.termination !== 'normal') throw new Error(`bench game ${rec.key} ended as ${rec.termination}: ${rec.reason}`);
        moves += rec.moves.length;
      }
    }),
  );
  return { games: list.length, moves, ms: performance.now() - t0 };
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Clock ticks a second of `/proc/<pid>/stat`'s CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/**
 * The fields of a `/proc/<pid>/stat` line after the command's closing parenthesis: state (0),
 * ppid (1), …, utime (11), stime (12), cutime (13), cstime (14), in clock ticks.
 */
const statFields = (text: string): string[] => text.slice(text.lastIndexOf(')') + 2).split(' ');

/**
 * CPU time (ms, user + system) of this process and of its descendants now alive (the bots'
 * processes), from `/proc`; null where there is none (not Linux). On a loaded machine wall-clock
 * rates say more about the load than about the runner; CPU time per game says what it costs.
 */
function cpuMs(): { runner: number; bots: number } | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null; // no /proc: nothing to measure
  }
  const stat = new Map<number, { ppid: number; ms: number }>();
  for (const pid of pids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // a process that ended meanwhile
    }
    const f = statFields(text);
    stat.set(Number(pid), { ppid: Number(f[1]), ms: ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S });
  }
  let bots = 0;
  const visit = (pid: number): void => {
    for (const [child, s] of stat) {
      if (s.ppid !== pid) continue;
      bots += s.ms;
      visit(child);
    }
  };
  visit(process.pid);
  return { runner: stat.get(process.pid)?.ms ?? 0, bots };
}

/**
 * A whole tournament of random against fx-random through the runner: games/s and moves/s from the
 * first reported game to the last (start-up, which for worker isolation includes bundling the bots'
 * worker script and starting the processes, is reported apart in ms).
 */
async function tournament(isolation: 'none' | 'worker', concurrency: number | undefined, deals: number): Promise<{ games: number; moves: number; startMs: number; cpuUs: { runner: number; bots: number } | null }> {
  const out = mkdtempSync(join(tmpdir(), 'arena-bench-'));
  const spec = validateSpec({ name: 'bench', seed: 1, games: [VARIANT], bots: ['random', 'fx-random'], deals, isolation, ...(concurrency !== undefined ? { concurrency } : {}), out, timePerMoveMs: 1000 });
  let moves = 0;
  let games = 0;
  let first = 0;
  let last = 0;
  // CPU from the first game to the last, read while the bots' processes are still alive.
  const at: { first: ReturnType<typeof cpuMs>; last: ReturnType<typeof cpuMs> } = { first: null, last: null };
  const t0 = performance.now();
  await runTournament(prepareTournament(spec, registry), {
    sink: {
      emit: (e) => {
        if (e.type !== 'game-ended') return;
        last = performance.now();
        // Everything up to the first durable batch is start-up; count from there.
        if (games++ === 0) {
          first = last;
          at.first = cpuMs();
        } else moves += e.record.moves.length;
        if (games === 2 * deals) at.last = cpuMs();
      },
    },
  });
  rmSync(out, { recursive: true, force: true });
  const s = (last - first) / 1000;
  const per = (ms: number): number => (ms * 1000) / (games - 1);
  const cpuUs = at.first && at.last ? { runner: per(at.last.runner - at.first.runner), bots: per(at.last.bots - at.first.bots) } : null;
  return { games: (games - 1) / s, moves: moves / s, startMs: first - t0, cpuUs };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Games of the end-to-end CLI run. */
const CLI_GAMES = 200_000;

/**
 * A second random bot for the CLI run, as a user's bot folder would hold it: Simulate plays random
 * against random, and so does the in-process runner (random against fx-random), so the CLI plays
 * the built-in random against this copy of it rather than against a bot that thinks (greedy looks
 * one move ahead at every move). Plain JavaScript with no import: discovery loads no compiler.
 */
const CLI_BOTS = mkdtempSync(join(tmpdir(), 'arena-bench-bots-'));
writeFileSync(join(CLI_BOTS, 'random2.mjs'), "export default { name: 'random2', description: 'a uniformly random legal move', choose: ({ moves, rng }) => rng.pick(moves) };\n");

/** CPU ms (user + system) of this process's children that have ended and been waited for, from `/proc`; null where there is none. */
function childrenCpuMs(): number | null {
  let text: string;
  try {
    text = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return null; // no /proc: nothing to measure
  }
  const f = statFields(text);
  return ((Number(f[13]) + Number(f[14])) * 1000) / TICKS_PER_S;
}

/**
 * The command a user types, in-process, end to end: `arena tournament` in a process of its own
 * (the built-in random against a copy of it in a bot folder), its output discarded; its wall time
 * from spawn to exit in games/s, and its CPU time (its own and its children's: bot discovery) a game.
 */
function cliRate(): Promise<{ games: number; cpuUs: number | null }> {
  const out = mkdtempSync(join(tmpdir(), 'arena-bench-cli-'));
  const args = [join(ROOT, 'bin', 'arena.mjs'), 'tournament', '--bots', 'random,random2', '--bots-dir', CLI_BOTS, '--games', VARIANT, '--deals', String(CLI_GAMES / 2), '--seed', '1', '--isolation', 'none', '--plain', '--out', out];
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const s = (performance.now() - t0) / 1000;
      const cpu1 = childrenCpuMs();
      rmSync(out, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`arena tournament exited with ${code}: ${err.trim()}`));
      else resolve({ games: CLI_GAMES / s, cpuUs: cpu0 === null || cpu1 === null ? null : ((cpu1 - cpu0) * 1000) / CLI_GAMES });
    });
  });
}

// 0. The peer comparison, in this same run: boardgame.io's Simulate (random against random on the
// same game) and the whole runner in-process and with worker isolation, taken in turns three times
// so that a change of load on a shared machine weighs on both sides; ratios of the medians.
// Both sides are measured warm, as a long run is: Simulate plays 200 games before its 700 measured
// ones, and the in-process runner plays one whole tournament first (its first one runs while V8
// still compiles the runner and sizes its young generation: 1.2–1.5× slower per game than the
// next ones, measured 2026-11-25, a start-up cost a million-game run pays once; it is printed
// apart below). The measured tournaments are 20,000 deals (40,000 games, about as long as
// Simulate's measured run) rather than 10,000, for the same reason.
const cold = (await tournament('none', 1, 10_000)).games;
const peer = { bgio: [] as number[], bgioMoves: [] as number[], none: [] as number[], noneCpu: [] as number[], cli: [] as number[], cliCpu: [] as number[], worker: [] as number[], workerMoves: [] as number[], workerStart: [] as number[], batched: [] as number[], batchedMoves: [] as number[] };
/** CPU µs per game of the worker-isolation tournaments: the runner's and its bots' processes'. */
const cpu = { worker: [] as { runner: number; bots: number }[], batched: [] as { runner: number; bots: number }[] };
/** Each round's default / best ratio under worker isolation (both measured in the same round). */
const defaultVsBest: number[] = [];
/** Games in flight for the batched worker figure. */
const BATCHED = 128;
/** Deals of each worker-isolation tournament. */
const WORKER_DEALS = 10_000;
for (let round = 0; round < 3; round++) {
  const b = await simulateRate([1, 5, 8, 10], 50, 200, 700);
  if (!b) break;
  peer.bgio.push(b.gamesPerSec);
  peer.bgioMoves.push(b.movesPerSec);
  const warm = await tournament('none', 1, 20_000);
  peer.none.push(warm.games);
  if (warm.cpuUs) peer.noneCpu.push(warm.cpuUs.runner);
  const cli = await cliRate();
  peer.cli.push(cli.games);
  if (cli.cpuUs !== null) peer.cliCpu.push(cli.cpuUs);
  // The default command (no concurrency given) against the best setting, on as many games each:
  // the second or so the default plays while it learns its games in flight is counted.
  const w = await tournament('worker', undefined, WORKER_DEALS);
  peer.worker.push(w.games);
  peer.workerMoves.push(w.moves);
  peer.workerStart.push(w.startMs);
  if (w.cpuUs) cpu.worker.push(w.cpuUs);
  const m = await tournament('worker', BATCHED, WORKER_DEALS);
  peer.batched.push(m.games);
  peer.batchedMoves.push(m.moves);
  if (m.cpuUs) cpu.batched.push(m.cpuUs);
  defaultVsBest.push(m.games / w.games);
}
rmSync(CLI_BOTS, { recursive: true, force: true });
/** The median CPU per game of runs, runner / bots' processes. */
const cpuText = (runs: readonly { runner: number; bots: number }[]): string => `${fmt(median(runs.map((r) => r.runner)))} / ${fmt(median(runs.map((r) => r.bots)))}`;
/** A figure in games/s against Simulate's median, with the target. */
const ratio = (label: string, gamesPerSec: number, target: number): void => {
  if (peer.bgio.length) report(`${label} / Simulate (target ≥ ${target}×)`, `${(gamesPerSec / median(peer.bgio)).toFixed(1)}×`);
};
if (peer.bgio.length) {
  report('boardgame.io 0.50 Simulate, same game: games/s (median of 3)', fmt(median(peer.bgio)));
  report('boardgame.io 0.50 Simulate, same game: moves/s (median of 3)', fmt(median(peer.bgioMoves)));
  report('in-process full runner (log, fsync, standings): games/s', fmt(median(peer.none)));
  ratio('in-process full runner', median(peer.none), 100);
  report('in-process full runner, first (cold) tournament of the process: games/s', fmt(cold));
  if (peer.noneCpu.length) report('in-process full runner: CPU µs a game', fmt(median(peer.noneCpu)));
  report(`CLI end to end, --isolation none, ${fmt(CLI_GAMES)} games: games/s`, fmt(median(peer.cli)));
  ratio(`CLI end to end, --isolation none, ${fmt(CLI_GAMES)} games`, median(peer.cli), 100);
  report('CLI end to end / warm in-process full runner', `${(median(peer.cli) / median(peer.none)).toFixed(2)}×`);
  if (peer.cliCpu.length) report('CLI end to end: CPU µs a game (start-up and discovery included)', fmt(median(peer.cliCpu)));
  report('worker isolation, default command (learned in flight): games/s', fmt(median(peer.worker)));
  report('worker isolation, default command: moves/s', fmt(median(peer.workerMoves)));
  ratio('worker isolation, default command', median(peer.worker), 10);
  if (cpu.worker.length) report('worker isolation, default command: CPU µs a game, runner / bots', cpuText(cpu.worker));
  report(`worker isolation, full runner, ${BATCHED} concurrent games (batched): games/s`, fmt(median(peer.batched)));
  report(`worker isolation, full runner, ${BATCHED} concurrent games (batched): moves/s`, fmt(median(peer.batchedMoves)));
  ratio(`worker isolation, full runner, ${BATCHED} concurrent games`, median(peer.batched), 10);
  if (cpu.batched.length) report(`worker isolation, ${BATCHED} concurrent games: CPU µs a game, runner / bots`, cpuText(cpu.batched));
  report(`worker isolation, best setting (${BATCHED} in flight) / default command (target ≤ 1.5×)`, `${median(defaultVsBest).toFixed(2)}× (rounds: ${defaultVsBest.map((r) => r.toFixed(2)).join(', ')})`);
  report('worker isolation: start-up to the first durable game (bundle, processes), ms', fmt(median(peer.workerStart)));
}

// 1. The match engine in-process.
{
  const hosts = await inProcessHosts();
  await playAll(jobs(2_000), hosts, 1); // warm-up
  const r = await playAll(jobs(50_000), hosts, 1);
  report('in-process match engine: games/s', fmt((r.games / r.ms) * 1000));
  report('in-process match engine: moves/s', fmt((r.moves / r.ms) * 1000));
  report('in-process: mean µs per move (both bots, checks, log record)', ((r.ms * 1000) / r.moves).toFixed(2));
  ratio('in-process match engine', (r.games / r.ms) * 1000, 100);
}

// 3. Isolation worker: 2 concurrent games, each bot in processes of its own.
const workerHosts = {
  random: new WorkerHost('random', { file: entry('random').file, name: 'random', options: {}, memoryMb: 256, concurrency: 2 }),
  'fx-random': new WorkerHost('fx-random', { file: entry('fx-random').file, name: 'fx-random', options: {}, memoryMb: 256, concurrency: 2 }),
};
await Promise.all(Object.values(workerHosts).map((h) => h.start()));
{
  await playAll(jobs(100), workerHosts, 2); // warm-up (and the second worker of each pool)
  const r = await playAll(jobs(1_500), workerHosts, 2);
  report('worker isolation (processes), 2 concurrent games: games/s', fmt((r.games / r.ms) * 1000));
  report('worker isolation (processes), 2 concurrent games: moves/s', fmt((r.moves / r.ms) * 1000));
}

// 4. Per-move overhead of isolation: one game at a time, per-move round trip times.
{
  const times = async (hosts: Record<string, BotHost>, n: number): Promise<number[]> => {
    const all: number[] = [];
    for (const job of jobs(n)) {
      const rec = await playMatch(job, game, { first: hosts[job.seats.first.label]!, second: hosts[job.seats.second.label]! });
      for (const us of rec.us) all.push(us);
    }
    return all.sort((a, b) => a - b);
  };
  const q = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const inProc = await times(await inProcessHosts(), 500);
  const isolated = await times(workerHosts, 500);
  report('per move in-process: median / p99 µs', `${q(inProc, 0.5).toFixed(1)} / ${q(inProc, 0.99).toFixed(1)}`);
  report('per move through a bot process (isolation worker): median / p99 µs', `${q(isolated, 0.5).toFixed(1)} / ${q(isolated, 0.99).toFixed(1)}`);
  report('isolation overhead per move: median / p99 µs', `${(q(isolated, 0.5) - q(inProc, 0.5)).toFixed(1)} / ${(q(isolated, 0.99) - q(inProc, 0.99)).toFixed(1)}`);
}
await Promise.all(Object.values(workerHosts).map((h) => h.close()));

// 5. An external program: the Python example (optimal on one-pile subtraction) against random, the
// Python bot in its own process per concurrent game, a move a JSON line each way.
{
  const python = await discoverBots([fileURLToPath(new URL('../examples/python-bot', import.meta.url))]);
  const out = mkdtempSync(join(tmpdir(), 'arena-bench-'));
  const spec = validateSpec({ name: 'bench', seed: 1, games: [VARIANT], bots: ['python-bot', 'random'], deals: 500, isolation: 'none', concurrency: 2, out, timePerMoveMs: 1000 });
  let moves = 0;
  let own = 0;
  const count = (rec: GameRecord): void => {
    moves += rec.moves.length;
    // The first seat moves first in subtraction: the Python bot made every other move from its seat.
    const from = rec.seats.first === 'python-bot' ? 0 : 1;
    own += Math.max(0, Math.ceil((rec.moves.length - from) / 2));
  };
  const t0 = performance.now();
  await runTournament(prepareTournament(spec, python), { sink: { emit: (e) => void (e.type === 'game-ended' && count(e.record)) } });
  const s = (performance.now() - t0) / 1000;
  rmSync(out, { recursive: true, force: true });
  report('external Python bot vs random, 2 concurrent games: its own moves/s (target ≥ 5,000)', fmt(own / s));
  report('external Python bot vs random, 2 concurrent games: all moves/s', fmt(moves / s));
}
