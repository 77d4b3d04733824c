/**
 * A tournament made ready to run: the spec checked against the registered games and the discovered
 * bots, and what the rest of the run derives from it once (the schedule's input, the settings
 * every pair is played with, where the bots keep their stores).
 */
import { join, resolve } from 'node:path';
import { ArenaError, SpecError, UsageError, show } from '../core/errors.ts';
import type { AnyGame } from '../core/game.ts';
import { resolveBot, supportedBy, type BotEntry, type BotRegistry } from '../hosting/bot-registry.ts';
import type { BotSpec } from '../hosting/host.ts';
import { defaultBotDataRoot, type BotDataSettings } from '../platform/bot-store.ts';
import { sandboxProblem } from '../platform/sandbox.ts';
import type { PairSettings } from './executor.ts';
import { sprtConfig } from './fold/sprt.ts';
import type { ScheduleInput } from './schedule.ts';
import { resolveVariants, type TournamentSpec } from './spec.ts';
import { expandStarts, suiteLines, type StartEntry } from './starts.ts';
import { botClocks, clockLabel, splitBotClock, type OwnClock } from './bot-clocks.ts';
import { latestRatings, parseAnchor, readRatingsFile } from './ratings-file.ts';
import type { StagedFormat } from './staged/format.ts';
import { KnockoutFormat } from './staged/knockout.ts';
import { SwissFormat } from './staged/swiss.ts';
import { parseTimeControl, type SeatClock } from './time-control.ts';
import { withoutPassword } from './queue/url.ts';

/** A bot taking part: its schedule spec, where it comes from, and its own clock (time odds). */
export interface Entrant {
  readonly spec: BotSpec;
  readonly entry: BotEntry;
  readonly own?: OwnClock;
}

/** A validated tournament, ready to run: nothing has been written yet. */
export interface PreparedTournament {
  /**
   * The spec as it will run (bots as labels, games as variant ids, a start suite as its lines;
   * `concurrency` as given: absent, the local pool learns how many games in flight pay).
   */
  readonly spec: TournamentSpec & { readonly bots: readonly string[]; readonly games: readonly string[] };
  /** The variants played, in schedule order: the spec's games, or with a start suite one variant per start of each. */
  readonly variants: readonly AnyGame[];
  /** The start suite as played (parallel to `variants`), when the spec has one. */
  readonly starts?: readonly StartEntry[];
  readonly entrants: readonly Entrant[];
  /** Bot label → variant ids it does not support (those pairings are skipped). */
  readonly unsupported: ReadonlyMap<string, readonly string[]>;
  /** Time odds: each entrant's clock (parallel to `entrants`), when some bot has its own. */
  readonly clocks?: readonly SeatClock[];
}

/**
 * Validates a spec against the registered games and the discovered bots: every error a user can
 * make (unknown family, bad parameter, unknown bot, bad option) is thrown here, before any file
 * is touched.
 */
export function prepareTournament(spec: TournamentSpec, registry: BotRegistry, where = 'spec'): PreparedTournament {
  const bases = resolveVariants(spec.games, where);
  const suite = spec.starts !== undefined ? expandStarts({ ...spec, starts: spec.starts }, bases, where) : undefined;
  const variants = suite?.variants ?? bases;
  const texts = spec.bots === 'all' ? registry.bots.map((b) => b.name) : spec.bots;
  const entrants: Entrant[] = [];
  const labels = new Set<string>();
  texts.forEach((bot, i) => {
    const at = `${where}: \`bots${spec.bots === 'all' ? '' : `[${i}]`}\``;
    const { text, own } = splitBotClock(bot, at);
    let choice;
    try {
      choice = resolveBot(registry, text);
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${at}: ${err.message}`);
      throw err;
    }
    const label = clockLabel(choice.label, own);
    if (labels.has(label)) throw new SpecError(`${where}: \`bots[${i}]\`: bot ${label} is listed twice`);
    labels.add(label);
    entrants.push({ entry: choice.entry, spec: { label, name: choice.entry.name, options: choice.options }, ...(own ? { own } : {}) });
  });
  const clocks = botClocks(spec, entrants.map((e) => ({ label: e.spec.label, own: e.own })), where);
  // Sandboxed bots need bubblewrap: refuse here, in one line, rather than ever run them unsandboxed.
  const sandboxed = entrants.filter((e) => (spec.botIsolation[e.spec.name] ?? spec.isolation) === 'sandbox');
  if (sandboxed.length > 0) {
    const problem = sandboxProblem();
    if (problem) throw new UsageError(`Cannot sandbox ${sandboxed.map((e) => e.spec.label).join(', ')}: ${problem}`);
  }
  if (entrants.length < 2) {
    throw new SpecError(`${where}: \`bots\`: expected at least 2 bots, got ${entrants.length}${spec.bots === 'all' ? ' (all discovered)' : ''}`);
  }
  let champion: string | undefined;
  if (spec.format === 'gauntlet') {
    if (spec.champion === undefined) throw new SpecError(`${where}: \`champion\`: a gauntlet needs a champion (one of the bots)`);
    let label: string;
    try {
      const { text, own } = splitBotClock(spec.champion, `${where}: \`champion\``);
      label = clockLabel(resolveBot(registry, text).label, own);
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${where}: \`champion\`: ${err.message}`);
      throw err;
    }
    if (!labels.has(label)) throw new SpecError(`${where}: \`champion\`: expected one of the bots (${[...labels].join(', ')}), got ${show(spec.champion)}`);
    champion = label;
  } else if (spec.champion !== undefined) {
    throw new SpecError(`${where}: \`champion\`: only a gauntlet has a champion (set \`format\` to "gauntlet")`);
  }
  if (spec.sprt) {
    if (spec.format !== 'gauntlet') throw new SpecError(`${where}: \`sprt\`: a sequential test needs a gauntlet or a match (it tests the champion)`);
    try {
      sprtConfig(spec.sprt);
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${where}: \`sprt\`: ${err.message}`);
      throw err;
    }
  }
  const unsupported = new Map<string, string[]>();
  for (const e of entrants) {
    const no = variants.filter((g) => !supportedBy(e.entry.bot, g)).map((g) => g.id);
    if (no.length) unsupported.set(e.spec.label, no);
  }
  const staged = checkStaged(spec, registry, entrants, unsupported, where);
  return {
    spec: {
      ...spec,
      bots: entrants.map((e) => e.spec.label),
      games: bases.map((g) => g.id),
      // The suite's lines themselves, so that a resume plays the same starts without the file.
      ...(spec.starts !== undefined ? { starts: [...suiteLines(spec.starts, where).lines] } : {}),
      ...(champion !== undefined ? { champion } : {}),
      ...staged,
    },
    variants,
    ...(suite ? { starts: suite.starts } : {}),
    entrants,
    unsupported,
    ...(clocks ? { clocks } : {}),
  };
}

/** A bot named in the spec (`field`), as its label among the entrants; a SpecError otherwise. */
function entrantLabel(registry: BotRegistry, entrants: readonly Entrant[], text: string, field: string, where: string): string {
  let label: string;
  try {
    label = resolveBot(registry, text).label;
  } catch (err) {
    if (err instanceof ArenaError) throw new SpecError(`${where}: \`${field}\`: ${err.message}`);
    throw err;
  }
  if (!entrants.some((e) => e.spec.label === label)) throw new SpecError(`${where}: \`${field}\`: expected one of the bots (${entrants.map((e) => e.spec.label).join(', ')}), got ${show(text)}`);
  return label;
}

/** What the run spec gets from the fields of the staged formats and of ratings (see `checkStaged`). */
type StagedFields = Readonly<Partial<Pick<TournamentSpec, 'anchor' | 'seedRatings' | 'ratingsIn' | 'ratingsOut'>>>;

/**
 * Checks the fields of the staged formats and of ratings (`rounds`, `anchor`, the ratings files);
 * returns what the run spec gets from them: the anchor as a label, the files as absolute paths, and
 * the seed ratings read from `ratingsIn` (kept in the saved spec, so a resume seeds alike whatever
 * the file holds by then).
 */
function checkStaged(spec: TournamentSpec, registry: BotRegistry, entrants: readonly Entrant[], unsupported: ReadonlyMap<string, readonly string[]>, where: string): StagedFields {
  const out: { -readonly [K in keyof StagedFields]: StagedFields[K] } = {};
  const n = entrants.length;
  if (spec.format === 'swiss') {
    if (spec.rounds === undefined) throw new SpecError(`${where}: \`rounds\`: a Swiss needs a number of rounds (--rounds)`);
    if (spec.rounds > n - 1) throw new SpecError(`${where}: \`rounds\`: expected at most ${n - 1} rounds for ${n} bots (nobody meets a bot twice), got ${spec.rounds}`);
  } else if (spec.rounds !== undefined) throw new SpecError(`${where}: \`rounds\`: only a Swiss has rounds (set \`format\` to "swiss")`);
  const staged = spec.format === 'swiss' ? 'Swiss' : spec.format === 'knockout' ? 'knockout' : null;
  if (staged && unsupported.size > 0) {
    const [bot, no] = [...unsupported][0]!;
    throw new SpecError(`${where}: \`games\`: in a ${staged} every bot plays every variant, but ${bot} does not play ${no[0]}`);
  }
  if (staged && spec.queue !== undefined) throw new SpecError(`${where}: \`queue\`: a ${staged} is played on this machine (its rounds wait for each other); drop --queue`);
  if (spec.anchor !== undefined) {
    const { bot, elo } = parseAnchor(spec.anchor);
    out.anchor = `${entrantLabel(registry, entrants, bot, 'anchor', where)}=${elo}`;
  }
  // A ratings file that cannot take this tournament's entry is refused now, not after the games.
  // Both files are kept as absolute paths: a resume or a report from another folder finds them.
  if (spec.ratingsOut !== undefined) readRatingsFile((out.ratingsOut = resolve(spec.ratingsOut)), '--ratings-out', true);
  if (spec.ratingsIn !== undefined) out.ratingsIn = resolve(spec.ratingsIn);
  if (spec.seedRatings === undefined && spec.ratingsIn !== undefined) {
    const latest = latestRatings(readRatingsFile(resolve(spec.ratingsIn), '--ratings-in'));
    out.seedRatings = Object.fromEntries(entrants.flatMap((e) => (latest[e.spec.label] === undefined ? [] : [[e.spec.label, latest[e.spec.label]!]])));
  }
  return out;
}

/** The staged format a prepared tournament plays (a Swiss, a knockout), or null for a fixed schedule. */
export function stagedFormatOf(t: PreparedTournament): StagedFormat | null {
  const { spec } = t;
  const setup = { bots: spec.bots, variants: spec.games, deals: spec.deals, ...(spec.seedRatings ? { prior: spec.seedRatings } : {}) };
  if (spec.format === 'swiss') return new SwissFormat({ ...setup, rounds: spec.rounds! });
  if (spec.format === 'knockout') return new KnockoutFormat({ ...setup, tiebreakPairs: spec.tiebreakPairs });
  return null;
}

/** The schedule's input (pairs with a bot that does not support a variant are skipped; with `sprt`, deal by deal over the variants). */
export function scheduleOf(t: PreparedTournament): ScheduleInput {
  const { spec, unsupported } = t;
  return {
    seed: spec.seed,
    variants: t.variants.map((g) => g.id),
    bots: t.entrants.map((e) => e.spec),
    deals: spec.deals,
    // Under time odds each seat's clock says it all (the spec's limits are in it where they apply).
    ...(t.clocks ? { clocks: t.clocks } : {}),
    ...(!t.clocks && spec.timePerMoveMs !== undefined ? { timePerMoveMs: spec.timePerMoveMs } : {}),
    ...(!t.clocks && spec.timeControl !== undefined ? { timeControl: parseTimeControl(spec.timeControl) } : {}),
    supports: (bot: BotSpec, variant: string) => !(unsupported.get(bot.label) ?? []).includes(variant),
    ...(spec.champion !== undefined ? { champion: spec.champion } : {}),
    // A test stops after some pairs: those must come from every variant, not the first one alone.
    ...(spec.sprt !== undefined ? { interleave: true } : {}),
  };
}

/**
 * The settings every pair of a run is played with, wherever it is played: read from the spec once.
 * `graceMs` (a test's) overrides the spec's `timeMarginMs`.
 */
export function pairSettings(spec: TournamentSpec, graceMs = spec.timeMarginMs): PairSettings {
  const settings: { -readonly [K in keyof PairSettings]: PairSettings[K] } = {
    isolation: spec.isolation,
    botIsolation: spec.botIsolation,
    cpuSeconds: spec.cpuSeconds,
    memoryMb: spec.memoryMb,
    prepareTimeoutMs: spec.prepareTimeoutMs,
    clock: spec.clock,
  };
  if (spec.revealOpponents) settings.revealOpponents = true;
  if (spec.adjudicate) settings.adjudicate = true;
  if (graceMs !== undefined) settings.graceMs = graceMs;
  return settings;
}

/** The spec as saved in the results folder (`concurrency` belongs to the machine, not to the tournament). */
export function savedSpec(spec: PreparedTournament['spec']): Omit<TournamentSpec, 'concurrency'> {
  const { concurrency: _c, ...saved } = spec;
  // A Redis password is never kept: `--resume` takes it with `--queue` again.
  return saved.queue === undefined ? saved : { ...saved, queue: withoutPassword(saved.queue) };
}

/**
 * Where a run's bots keep their stores: the spec's bot-data folder, with the stores as the run
 * began kept in the results folder (`bot-data/`), so a resume starts from them too.
 */
export function runBotData(spec: Pick<TournamentSpec, 'botData' | 'botDataCapKb'>, dir: string): BotDataSettings {
  return { root: resolve(spec.botData ?? defaultBotDataRoot()), capBytes: spec.botDataCapKb * 1024, snapshotRoot: join(dir, 'bot-data') };
}
