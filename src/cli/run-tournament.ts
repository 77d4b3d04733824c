import { existsSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { parseJsonText, resolveVariants, splitList, validateSpec, type TournamentSpec } from '../arena/spec.ts';
import { parseSprt } from '../arena/sprt.ts';
import { timeControlProblem } from '../arena/time-control.ts';
import { parseQueueUrl } from '../arena/queue-url.ts';
import { PauseGate, prepareTournament, runTournament } from '../arena/tournament.ts';
import { SpecError, UsageError, show } from '../core/errors.ts';
import { FAMILIES } from '../games/index.ts';
import { discoverBots, type DiscoverySettings } from '../hosting/index.ts';
import { sandboxProblem } from '../platform/sandbox.ts';
import { plainReporter } from '../tui/dashboard/plain.ts';
import { COMPILED } from '../platform/paths.ts';
import { io } from './io.ts';
import { cliName } from './invocation.ts';
import { themeFromCli } from './load-ink.ts';

/*
 * What `arena tournament` and `arena match` share: their flags, the spec built from a file and
 * flags, and the run with the dashboard or plain lines, Ctrl-C and the exit codes.
 */

/** The flags `arena tournament` and `arena match` both take (how games are played, where results go, output). */
export function runOptions(y: Argv): Argv {
  return y
    .option('games', { type: 'string', array: true, nargs: 1, describe: 'variants, comma-separated: "subtraction{moves=1,5,8,10;n=50..200},piles"' })
    .option('deals', { type: 'string', describe: 'deals per pairing and variant (each played in both seatings)' })
    .option('seed', { type: 'string', describe: 'master seed' })
    .option('concurrency', { type: 'string', describe: 'games played at once (default: CPU cores)' })
    .option('time-per-move', { type: 'string', describe: "time limit per move, ms (default 1000, or none with --tc; `none` drops a spec's limit when --tc is given)" })
    .option('tc', { type: 'string', describe: 'time bank per bot and game, seconds+increment: 10+0.1 (or 10); a move longer than the bank loses on time' })
    .option('time-margin', { type: 'string', describe: "ms a bot may answer past its limit (per move or bank) before it loses on time: the arena's own overhead (default 50)" })
    .option('out', { type: 'string', describe: 'folder for the results folder (default tournaments/results)' })
    .option('isolation', {
      type: 'string',
      describe: 'worker (default: each bot in worker threads), none (in-process, trusted bots) or sandbox (each bot a process in bubblewrap: bots written by others)',
    })
    .option('bots-dir', { type: 'string', array: true, describe: 'extra folder of bot files' })
    .option('bot-data', { type: 'string', describe: "folder of the bots' stores, one sub-folder per bot (default ~/.cache/take-arena/bot-data)" })
    .option('sprt', { type: 'string', describe: 'sequential test per gauntlet pairing: elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized|logistic]' })
    .option('adjudicate', { type: 'boolean', describe: 'end a game once the solver knows its exact result (both bots having moved)' })
    .option('queue', { type: 'string', describe: 'play on `arena worker` processes through this Redis: redis://host:6379[/db]' })
    .option('plain', { type: 'boolean', default: false, describe: 'plain text output (no dashboard)' })
    .option('exit', { type: 'boolean', default: false, describe: 'close the dashboard when the run ends (default: it stays on the final standings until q)' })
    .option('json', { type: 'boolean', default: false, describe: 'print summary.json at the end instead of tables' })
    .option('report', { type: 'string', describe: 'write the HTML report when the run ends (default: report.html in the results folder)' });
}

/** Exit code after SIGINT (128 + 2), as shells expect. */
export const EXIT_INTERRUPTED = 130;

/** The command line that continues an interrupted tournament's results folder. */
function resumeCommand(dir: string): string {
  return `${cliName()} tournament --resume ${JSON.stringify(dir)}`;
}

/** `--bots` and `--games` are lists (repeating them joins the lists); other flags keep their last value. */
export type Flag = string | string[];

/** The flags `arena tournament` and `arena match` share. */
export type RunArgs = {
  spec?: string;
  bots?: Flag;
  games?: Flag;
  deals?: Flag;
  seed?: Flag;
  concurrency?: Flag;
  'time-per-move'?: Flag;
  tc?: Flag;
  'time-margin'?: Flag;
  out?: Flag;
  resume?: Flag;
  isolation?: Flag;
  'bots-dir'?: string[];
  'bot-data'?: Flag;
  adjudicate?: boolean;
  queue?: Flag;
  plain: boolean;
  json: boolean;
  /** Close the dashboard when the run ends (default: it stays on the final standings until q). */
  exit?: boolean;
  report?: Flag;
  format?: Flag;
  champion?: Flag;
  sprt?: Flag;
};


/** A repeated scalar flag: the last one wins, as in most CLIs. */
export function last(v: Flag | undefined): string | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A repeated list flag (`--games a --games b`): the lists are joined. */
export function joined(v: Flag | undefined): string | undefined {
  return Array.isArray(v) ? v.join(',') : v;
}

export function intFlag(name: string, flag: Flag | undefined, min: number, max: number): number | undefined {
  const text = last(flag);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\s*-?\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`Expected --${name} to be an integer from ${min} to ${max}, got ${show(text)}`);
  }
  return n;
}

export function positiveFlag(name: string, flag: Flag | undefined): number | undefined {
  const text = last(flag);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 3_600_000) {
    throw new UsageError(`Expected --${name} to be a positive number of milliseconds, got ${show(text)}`);
  }
  return n;
}

/** The spec from the file (if any) with the flags applied on top; every error names its source. */
export function specFromArgs(args: RunArgs, base: Readonly<Record<string, unknown>> = {}): { spec: TournamentSpec; where: string } {
  let raw: Record<string, unknown> = { ...base };
  const where = args.spec ?? 'arguments';
  if (args.spec !== undefined) {
    if (!existsSync(args.spec)) throw new SpecError(`Cannot read tournament spec ${args.spec}: no such file`);
    const parsed = parseJsonText(readFileSync(args.spec, 'utf8'), args.spec);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new SpecError(`${args.spec}: expected a JSON object with \`games\` and \`bots\`, got ${show(parsed)}`);
    }
    raw = parsed as Record<string, unknown>;
    validateSpec(raw, args.spec); // the file must be valid on its own
  }
  const flags: Record<string, unknown> = {};
  const bots = joined(args.bots);
  if (bots !== undefined) {
    const list = splitList(bots);
    flags['bots'] = list.length === 1 && list[0] === 'all' ? 'all' : list;
    if (list.length === 0) throw new UsageError(`Expected --bots to list bots like \`random,greedy\` or \`all\`, got ${show(bots)}`);
  }
  const games = joined(args.games);
  if (games !== undefined) {
    const list = splitList(games);
    if (list.length === 0) throw new UsageError(`Expected --games to list variants like \`subtraction{n=20}\`, got ${show(games)}`);
    flags['games'] = list;
  }
  const deals = intFlag('deals', args.deals, 1, 1_000_000);
  if (deals !== undefined) flags['deals'] = deals;
  const seed = intFlag('seed', args.seed, 0, 0xffffffff);
  if (seed !== undefined) flags['seed'] = seed;
  const concurrency = intFlag('concurrency', args.concurrency, 1, 256);
  if (concurrency !== undefined) flags['concurrency'] = concurrency;
  // `none` drops a spec's per-move limit, so that a time control alone limits a move.
  const noPerMove = last(args['time-per-move'])?.trim() === 'none';
  const time = noPerMove ? undefined : positiveFlag('time-per-move', args['time-per-move']);
  if (time !== undefined) flags['timePerMoveMs'] = time;
  const tc = last(args.tc);
  if (tc !== undefined) {
    const problem = timeControlProblem(tc);
    if (problem) throw new UsageError(`Expected --tc to be ${problem}, got ${show(tc)}`);
    flags['timeControl'] = tc.trim();
  }
  const margin = intFlag('time-margin', args['time-margin'], 0, 60_000);
  if (margin !== undefined) flags['timeMarginMs'] = margin;
  const out = last(args.out);
  if (out !== undefined) flags['out'] = out;
  const isolation = last(args.isolation);
  if (isolation !== undefined) {
    if (isolation !== 'worker' && isolation !== 'none' && isolation !== 'sandbox') {
      throw new UsageError(`Expected --isolation to be worker, none or sandbox, got ${show(isolation)}`);
    }
    flags['isolation'] = isolation;
  }
  if (args['bots-dir'] !== undefined) flags['botDirs'] = args['bots-dir'];
  const botData = last(args['bot-data']);
  if (botData !== undefined) flags['botData'] = botData;
  if (args.adjudicate) flags['adjudicate'] = true;
  const format = last(args.format);
  if (format !== undefined) {
    if (format !== 'round-robin' && format !== 'gauntlet') throw new UsageError(`Expected --format to be round-robin or gauntlet, got ${show(format)}`);
    flags['format'] = format;
  }
  const champion = last(args.champion);
  if (champion !== undefined) flags['champion'] = champion;
  const sprt = last(args.sprt);
  if (sprt !== undefined) flags['sprt'] = parseSprt(sprt);
  const queue = last(args.queue);
  if (queue !== undefined) flags['queue'] = parseQueueUrl(queue);
  const merged = { ...raw, ...flags };
  if (noPerMove) {
    if (merged['timeControl'] === undefined) throw new UsageError('--time-per-move none needs a time control (--tc 10+0.1): without one every move has a limit');
    delete merged['timePerMoveMs'];
  }
  if (merged['games'] === undefined) merged['games'] = FAMILIES.map((f) => f.id); // every family with its defaults
  return { spec: validateSpec(merged, where), where };
}

/**
 * The dashboard sink's module. The compiled copy has it bundled with Ink and React into one file
 * (scripts/build.mjs), which loads about four times as fast as their hundreds of modules: the
 * first frame waits for it.
 */
async function loadDashboardSink(): Promise<typeof import('../tui/dashboard/dashboard-sink.ts')> {
  const bundle = new URL('../tui/dashboard/dashboard-sink.bundle.js', import.meta.url);
  if (COMPILED && existsSync(bundle)) return (await import(bundle.href)) as typeof import('../tui/dashboard/dashboard-sink.ts');
  return import('../tui/dashboard/dashboard-sink.ts');
}

/**
 * How discovery reads the run's bot files: asking `supports` about the run's variants at once, and
 * inside bubblewrap when any bot is to be sandboxed (and bubblewrap works: if it does not, the run
 * is refused with the reason right after discovery, before any game).
 */
function discoverySettings(spec: TournamentSpec, where: string): DiscoverySettings {
  let variants: string[] = [];
  try {
    variants = resolveVariants(spec.games, where).map((g) => g.id);
  } catch {
    // a bad variant: prepareTournament reports it
  }
  const sandbox = spec.isolation === 'sandbox' || Object.values(spec.botIsolation ?? {}).includes('sandbox');
  return { variants, sandbox: sandbox && sandboxProblem() === null };
}

/** Runs a spec (or continues `resumeDir`) with the dashboard on a terminal, else plain lines; sets the exit code. */
export async function runSpecCommand(spec: TournamentSpec, where: string, args: RunArgs, resumeDir?: string): Promise<void> {
  const registry = await discoverBots(spec.botDirs, discoverySettings(spec, where));
  const prepared = prepareTournament(spec, registry, where);

  const out = io();
  const pause = new PauseGate(); // the dashboard's `p`
  // The Ink dashboard on a terminal (loaded only then: Ink is slow to import), else plain lines.
  const dashboard =
    out.isTTY && !args.plain && !args.json
      ? (await loadDashboardSink()).dashboardSink({
          controls: { pause: () => pause.pause(), resume: () => pause.resume(), resumeCommand },
          stayOpen: args.exit !== true,
          theme: themeFromCli(),
        })
      : null;
  const sink = dashboard ?? plainReporter((line) => out.out(line), { json: args.json, resumeCommand });
  // Queued: this process coordinates and `arena worker` processes play (BullMQ is loaded only then).
  const executor = spec.queue !== undefined ? (await import('../arena/queue-executor.ts')).queueExecutor(spec.queue) : undefined;
  const controller = new AbortController();
  let signals = 0;
  const onSigint = (): void => {
    signals++;
    if (signals > 1) process.exit(EXIT_INTERRUPTED); // a second Ctrl-C: stop now, the log is line-safe
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await runTournament(prepared, {
      sink,
      signal: controller.signal,
      pause,
      ...(executor ? { executor } : {}),
      ...(resumeDir !== undefined ? { resumeDir } : {}),
    });
    // The dashboard stays on the final standings until q; nothing is printed below it before.
    await dashboard?.closed;
    if (result.interrupted) {
      if (args.json) out.err(`Interrupted; resume with: ${resumeCommand(result.dir)}`);
      if (args.report !== undefined) out.err('No report: the tournament was interrupted (resume it with --report)');
      process.exitCode = EXIT_INTERRUPTED;
    } else if (args.report !== undefined) {
      const file = last(args.report);
      const path = await (await import('./commands/report.ts')).reportOf(result.dir, file === '' ? undefined : file);
      // Under --json stdout is the summary document alone.
      (args.json ? out.err : out.out)(`Report in ${path}`);
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
}
