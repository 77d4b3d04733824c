import { existsSync, readFileSync } from 'node:fs';
import { MAX_SPEC_BYTES, textFileProblem } from '../platform/files.ts';
import { CLOCK_KINDS, clockNote, type ClockKind } from '../platform/cpu-clock.ts';
import type { Argv } from 'yargs';
import { parseJsonText, resolveVariants, splitList, TournamentSpecSchema, validateSpec, type TournamentSpec } from '../arena/spec.ts';
import { parseSprt } from '../arena/fold/sprt.ts';
import { expandStarts } from '../arena/starts.ts';
import { parseQueueUrl } from '../arena/queue/url.ts';
import { PauseGate } from '../arena/pause.ts';
import { prepareTournament } from '../arena/prepare.ts';
import { SpecError, UsageError, show } from '../core/errors.ts';
import { FAMILIES } from '../games/index.ts';
import { discoverBots } from '../hosting/bot-registry.ts';
import type { DiscoverySettings } from '../hosting/discovery.ts';
import { sandboxProblem } from '../platform/sandbox.ts';
import { coordinatorKey } from './queue-key.ts';
import { WORKER_NAME } from '../arena/queue/auth.ts';
import { COMPILED } from '../platform/paths.ts';
import { expectation, integerText, numberText, refuseReportPath } from './flags.ts';
import { EXIT_INTERRUPTED, RUN, type WithRun } from './io.ts';
import { cliName } from './invocation.ts';
import { commandText } from '../tui/text/command.ts';
import { loadUserGames, specGameDirs } from './user-games.ts';
import { themeChoice, type ScreenFlags } from './load-ink.ts';

/*
 * What `arena tournament` and `arena match` share: their flags, the spec built from a file and
 * flags, and the run with the dashboard or plain lines, Ctrl-C and the exit codes.
 */

/** The spec's isolation levels and formats: the flags' choices are the schema's own. */
export const ISOLATIONS = TournamentSpecSchema.shape.isolation.unwrap().options;
const STARTS_ORDERS = TournamentSpecSchema.shape.startsOrder.unwrap().options;
export const FORMATS = TournamentSpecSchema.shape.format.unwrap().options;

/** The flags `arena tournament` and `arena match` both take (how games are played, where results go, output). */
export function runOptions(y: Argv): Argv {
  return y
    .option('games', { type: 'string', array: true, describe: 'variants, comma-separated: "subtraction{moves=1,5,8,10;n=50..200},piles"' })
    .option('deals', { type: 'string', describe: 'deals per pairing and variant (each played in both seatings); with --starts, plays of each start (default 1)' })
    .option('starts', { type: 'string', describe: "a suite of start positions, one a line in the family's notation (e.g. from `arena starts`): every pairing plays each start in both seatings" })
    .option('starts-order', { choices: STARTS_ORDERS, describe: 'play the suite as written (sequential, default) or shuffled by the seed (random)' })
    .option('starts-per-pair', { type: 'string', describe: 'how many starts of the suite every pairing plays (the first in --starts-order; default all)' })
    .option('seed', { type: 'string', describe: 'master seed' })
    .option('concurrency', { type: 'string', describe: 'games played at once (default: learned, from one per CPU core up to as many as pay)' })
    .option('time-per-move', { type: 'string', describe: "time limit per move, ms (default 1000, or none with --tc; `none` drops a spec's limit when --tc is given)" })
    .option('tc', { type: 'string', describe: 'time bank per bot and game, seconds+increment: 10+0.1 (or 10); a move longer than the bank loses on time' })
    .option('time-margin', { type: 'string', describe: "ms a bot may answer past its limit (per move or bank) before it loses on time: the arena's own overhead (default 50)" })
    .option('clock', { choices: CLOCK_KINDS, describe: "what a move is charged: cpu (default: the bot's CPU time, so a busy machine costs no game) or wall (the time that passed)" })
    .option('out', { type: 'string', describe: 'folder for the results folder (default tournaments/results)' })
    .option('isolation', {
      choices: ISOLATIONS,
      describe: 'worker (default: each bot in processes of its own), none (in-process, trusted bots) or sandbox (each bot a process in bubblewrap: bots written by others)',
    })
    .option('bots-dir', { type: 'string', array: true, describe: 'extra folder of bot files (repeatable)' })
    .option('bot-data', { type: 'string', describe: "folder of the bots' stores, one sub-folder per bot (default ~/.cache/take-arena/bot-data)" })
    .option('sprt', { type: 'string', describe: 'sequential test per gauntlet pairing: elo0=0,elo1=10[,alpha=0.05,beta=0.05,model=normalized|logistic]' })
    .option('adjudicate', { type: 'boolean', describe: 'end a game once the solver knows its exact result (both bots having moved)' })
    .option('queue', { type: 'string', describe: 'play on `arena worker` processes through this Redis: redis://host:6379[/db]' })
    .option('queue-key-file', { type: 'string', describe: "with --queue: file holding the tournament's key (else $TAKE_ARENA_QUEUE_KEY): jobs are signed with it, workers' results with their credentials made from it (never saved)" })
    .option('refuse-worker', { type: 'string', array: true, describe: 'with --queue: a worker (by name) that may not play this run (repeatable)' })
    .option('plain', { type: 'boolean', default: false, describe: 'plain text output (no dashboard)' })
    .option('exit', { type: 'boolean', default: false, describe: 'close the dashboard when the run ends (default: it stays on the final standings until q)' })
    .option('json', { type: 'boolean', default: false, describe: 'print summary.json at the end instead of tables' })
    .option('report', { type: 'string', describe: 'write the HTML report when the run ends (default: report.html in the results folder)' });
}

/** Exit code after SIGTERM (128 + 15), as shells expect. */
export const EXIT_TERMINATED = 143;


/** The command line that continues an interrupted tournament's results folder. */
function resumeCommand(dir: string): string {
  return `${cliName()} tournament --resume ${JSON.stringify(dir)}`;
}

/** The flags `arena tournament` and `arena match` share (a repeated flag keeps its last value; the lists join). */
export type RunArgs = WithRun<{
  spec?: string;
  bots?: string[];
  games?: string[];
  deals?: string;
  starts?: string;
  'starts-order'?: (typeof STARTS_ORDERS)[number];
  'starts-per-pair'?: string;
  seed?: string;
  concurrency?: string;
  'time-per-move'?: string;
  tc?: string;
  'time-margin'?: string;
  clock?: ClockKind;
  out?: string;
  resume?: string;
  isolation?: (typeof ISOLATIONS)[number];
  'bots-dir'?: string[];
  /** The global `--games-dir` (main.ts), kept in the spec so that a resume loads the same games. */
  'games-dir'?: string[];
  'bot-data'?: string;
  adjudicate?: boolean;
  queue?: string;
  'queue-key-file'?: string;
  'refuse-worker'?: string[];
  plain: boolean;
  json: boolean;
  /** Close the dashboard when the run ends (default: it stays on the final standings until q). */
  exit?: boolean;
  report?: string;
  format?: (typeof FORMATS)[number];
  champion?: string;
  rounds?: string;
  'tiebreak-pairs'?: string;
  anchor?: string;
  'ratings-in'?: string;
  'ratings-out'?: string;
  sprt?: string;
  theme?: ScreenFlags['theme'];
}>;

/** A list flag's items, comma-separated or given again (`--games a,b --games c`); an empty list is refused. */
function listFlag(flag: string, like: string): (value: unknown) => string[] {
  return (value) => {
    const text = (value as string[]).join(',');
    const items = splitList(text);
    if (items.length === 0) throw new UsageError(`Expected --${flag} to list ${like}, got ${show(text)}`);
    return items;
  };
}

/** `--bots`: bots with options, or `all` (every bot found). */
function botsFlag(value: unknown): string[] | 'all' {
  const bots = listFlag('bots', 'bots like `random,greedy` or `all`')(value);
  return bots.length === 1 && bots[0] === 'all' ? 'all' : bots;
}

/** A flag that sets a spec field: `read` turns what was typed into the field's value, which the spec's own schema then judges. */
interface SpecFlag {
  readonly field: keyof typeof TournamentSpecSchema.shape;
  readonly read?: (value: unknown) => unknown;
  /** The unit the field is in, for the message about a bad value. */
  readonly unit?: string;
}

/** The flags that set spec fields. `--time-per-move none` sets no per-move limit (a time control then limits a move). */
const SPEC_FLAGS: Readonly<Record<string, SpecFlag>> = {
  bots: { field: 'bots', read: botsFlag },
  games: { field: 'games', read: listFlag('games', 'variants like `subtraction{n=20}`') },
  deals: { field: 'deals', read: integerText },
  starts: { field: 'starts' },
  'starts-order': { field: 'startsOrder' },
  'starts-per-pair': { field: 'startsPerPair', read: integerText },
  seed: { field: 'seed', read: integerText },
  concurrency: { field: 'concurrency', read: integerText },
  'time-per-move': { field: 'timePerMoveMs', read: (v) => (String(v).trim() === 'none' ? undefined : numberText(v)), unit: 'milliseconds' },
  tc: { field: 'timeControl', read: (v) => String(v).trim() },
  'time-margin': { field: 'timeMarginMs', read: integerText },
  clock: { field: 'clock' },
  out: { field: 'out' },
  isolation: { field: 'isolation' },
  'bots-dir': { field: 'botDirs' },
  'games-dir': { field: 'gameDirs' },
  'bot-data': { field: 'botData' },
  adjudicate: { field: 'adjudicate' },
  format: { field: 'format' },
  champion: { field: 'champion' },
  rounds: { field: 'rounds', read: integerText },
  'tiebreak-pairs': { field: 'tiebreakPairs', read: integerText },
  anchor: { field: 'anchor', read: (v) => String(v).trim() },
  'ratings-in': { field: 'ratingsIn' },
  'ratings-out': { field: 'ratingsOut' },
  sprt: { field: 'sprt', read: (v) => parseSprt(String(v)) },
  queue: { field: 'queue', read: (v) => parseQueueUrl(String(v)) },
};

/** A spec file, valid on its own; every error names the file. */
function specFile(path: string): Record<string, unknown> {
  const problem = textFileProblem(path, MAX_SPEC_BYTES);
  if (problem !== null) throw new SpecError(`Cannot read tournament spec ${path}: ${problem}`);
  const parsed = parseJsonText(readFileSync(path, 'utf8'), path);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SpecError(`${path}: expected a JSON object with \`games\` and \`bots\`, got ${show(parsed)}`);
  }
  validateSpec(parsed, path);
  return parsed as Record<string, unknown>;
}

/**
 * The spec's refusal of a value that came from a flag, worded as that flag's (`Expected --deals to
 * be an integer from 1 to 1000000, got "0"`); undefined when the refused field is not a flag's, or
 * its schema's range or message cannot word it.
 */
function flagError(merged: Record<string, unknown>, fields: Record<string, unknown>, args: RunArgs): UsageError | undefined {
  const issue = TournamentSpecSchema.safeParse(merged).error?.issues[0];
  const field = issue?.path[0];
  const flag = Object.keys(SPEC_FLAGS).find((f) => SPEC_FLAGS[f]!.field === field);
  if (issue === undefined || flag === undefined || issue.path.length !== 1 || !Object.hasOwn(fields, String(field))) return undefined;
  const { field: name, unit } = SPEC_FLAGS[flag]!;
  const words = expectation(TournamentSpecSchema.shape[name], issue, unit);
  return words === undefined ? undefined : new UsageError(`Expected --${flag} to be ${words}, got ${show(args[flag as keyof RunArgs])}`);
}

/**
 * The spec `raw` with the flags set on top, judged by the spec's schema once: a refused flag value
 * is named as its flag, anything else as the spec (`where`).
 */
export function withFlags(raw: Readonly<Record<string, unknown>>, args: RunArgs, where: string): TournamentSpec {
  const fields: Record<string, unknown> = {};
  for (const [flag, { field, read }] of Object.entries(SPEC_FLAGS)) {
    const value = args[flag as keyof RunArgs];
    if (value !== undefined) fields[field] = read ? read(value) : value;
  }
  const merged: Record<string, unknown> = { ...raw, ...fields };
  if (args['time-per-move']?.trim() === 'none' && merged['timeControl'] === undefined) {
    throw new UsageError('--time-per-move none needs a time control (--tc 10+0.1): without one every move has a limit');
  }
  merged['games'] ??= FAMILIES.map((f) => f.id); // every built-in family with its defaults
  try {
    return validateSpec(merged, where);
  } catch (err) {
    throw (err instanceof SpecError && flagError(merged, fields, args)) || err;
  }
}

/**
 * The spec from the file (if any, else `base`) with the flags applied on top; every error names its
 * source. The file's `gameDirs` are loaded first (the flag's were, before the command ran): its
 * variants may be of those games.
 */
export async function specFromArgs(args: RunArgs, base: Readonly<Record<string, unknown>> = {}): Promise<{ spec: TournamentSpec; where: string }> {
  const where = args.spec ?? 'arguments';
  const raw = args.spec !== undefined ? specFile(args.spec) : base;
  await loadUserGames(specGameDirs(raw));
  return { spec: withFlags(raw, args, where), where };
}

/**
 * The dashboard sink's module. The compiled copy has it bundled with Ink and React into one file
 * (scripts/build.mjs), which loads faster than their hundreds of modules (docs/PERFORMANCE.md):
 * the first frame waits for it.
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
    const bases = resolveVariants(spec.games, where);
    variants = (spec.starts !== undefined ? expandStarts({ ...spec, starts: spec.starts }, bases, where).variants : bases).map((g) => g.id);
  } catch {
    // a bad variant or start: prepareTournament reports it
  }
  const sandbox = spec.isolation === 'sandbox' || Object.values(spec.botIsolation ?? {}).includes('sandbox');
  return { variants, sandbox: sandbox && sandboxProblem() === null };
}

/** Runs a spec (or continues `resumeDir`) with the dashboard on a terminal, else plain lines; sets the exit code. */
export async function runSpecCommand(spec: TournamentSpec, where: string, args: RunArgs, resumeDir?: string): Promise<void> {
  // A report that could not be written is said now, not after the whole tournament.
  if (args.report) refuseReportPath(args.report);
  if (args['queue-key-file'] !== undefined && spec.queue === undefined) throw new UsageError('--queue-key-file signs the jobs of a queued tournament: give --queue redis://host:6379 too');
  if (args['refuse-worker'] !== undefined && spec.queue === undefined) throw new UsageError('--refuse-worker names a worker of a queued tournament: give --queue redis://host:6379 too');
  const badName = args['refuse-worker']?.find((n) => !WORKER_NAME.test(n));
  if (badName !== undefined) throw new UsageError(`Expected --refuse-worker to be a worker's name (1 to 64 letters, digits, '.', '-' or '_'), got ${JSON.stringify(badName)}`);
  const registry = await discoverBots(spec.botDirs, discoverySettings(spec, where));
  const prepared = prepareTournament(spec, registry, where);

  const out = args[RUN].io;
  const clock = clockNote(spec.clock);
  if (clock !== null) out.err(`Note: ${clock}`);
  // Queued: this process coordinates and `arena worker` processes play (BullMQ is loaded only then).
  const executor = spec.queue !== undefined ? (await import('../arena/queue/coordinator.ts')).queueExecutor(spec.queue, { key: coordinatorKey(args['queue-key-file']), refuseWorkers: args['refuse-worker'] ?? [] }) : undefined;
  const pause = new PauseGate(); // the dashboard's `p`
  // The Ink dashboard on a terminal (loaded only then: Ink is slow to import), else plain lines.
  const dashboard =
    out.isTTY && !args.plain && !args.json
      ? (await loadDashboardSink()).dashboardSink({
          controls: { pause: () => pause.pause(), resume: () => pause.resume(), resumeCommand, command: (words) => commandText(words, cliName()) },
          stayOpen: args.exit !== true,
          theme: themeChoice({ theme: args.theme }),
        })
      : null;
  const plain = dashboard ? null : await import('../tui/dashboard/plain.ts');
  // Plain lines go out once per turn of the event loop (one write for the games of a durable batch).
  const lines = plain && new plain.PlainBatch(out.out);
  const sink = dashboard ?? plain!.plainReporter(lines!, { json: args.json, resumeCommand });
  const controller = new AbortController();
  let signals = 0;
  // Ctrl-C, or SIGTERM (a `kill`, a CI runner's cancel): the same stop, with the resume line.
  let exitCode = EXIT_INTERRUPTED;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals++;
    if (signal === 'SIGTERM') exitCode = EXIT_TERMINATED;
    if (signals > 1) {
      lines?.flush();
      process.exit(exitCode); // a second signal: stop now, the log is line-safe
    }
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let finished = false;
  try {
    // The runner and the bots' hosts load after the dashboard's first frame.
    const { runTournament } = await import('../arena/tournament.ts');
    const result = await runTournament(prepared, {
      sink,
      signal: controller.signal,
      pause,
      ...(executor ? { executor } : {}),
      ...(resumeDir !== undefined ? { resumeDir } : {}),
    });
    finished = true;
    lines?.flush();
    // The dashboard stays on the final standings until q; nothing is printed below it before.
    await dashboard?.closed;
    if (result.interrupted) {
      if (args.json) out.err(`Interrupted; resume with: ${resumeCommand(result.dir)}`);
      if (args.report !== undefined) out.err('No report: the tournament was interrupted (resume it with --report)');
      args[RUN].exitCode = exitCode;
    } else if (args.report !== undefined) {
      const path = await (await import('./commands/report.ts')).reportOf(result.dir, args.report === '' ? undefined : args.report);
      // Under --json stdout is the summary document alone.
      (args.json ? out.err : out.out)(`Report in ${path}`);
    }
  } finally {
    // A run that failed before its end gives the terminal back before its error is said.
    if (!finished) await dashboard?.abandon();
    lines?.flush();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
