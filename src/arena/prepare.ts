/**
 * A tournament made ready to run: the spec checked against the registered games and the discovered
 * bots, and what the rest of the run derives from it once (the schedule's input, the settings
 * every pair is played with, where the bots keep their stores).
 */
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { ArenaError, SpecError, UsageError, show } from '../core/errors.ts';
import type { AnyGame } from '../core/game.ts';
import { resolveBot, supportedBy, type BotEntry, type BotRegistry, type BotSpec } from '../hosting/index.ts';
import { defaultBotDataRoot, type BotDataSettings } from '../platform/bot-store.ts';
import { sandboxProblem } from '../platform/sandbox.ts';
import type { PairSettings } from './executor.ts';
import { sprtConfig } from './fold/sprt.ts';
import type { ScheduleInput } from './schedule.ts';
import { resolveVariants, type TournamentSpec } from './spec.ts';
import { expandStarts, suiteLines, type StartEntry } from './starts.ts';
import { botClocks, clockLabel, splitBotClock, type OwnClock } from './bot-clocks.ts';
import { parseTimeControl, type SeatClock } from './time-control.ts';

/** A bot taking part: its schedule spec, where it comes from, and its own clock (time odds). */
export interface Entrant {
  readonly spec: BotSpec;
  readonly entry: BotEntry;
  readonly own?: OwnClock;
}

/** A validated tournament, ready to run: nothing has been written yet. */
export interface PreparedTournament {
  /**
   * The spec as it will run (bots as labels, games as variant ids, a start suite as its lines,
   * concurrency filled).
   */
  readonly spec: TournamentSpec & { readonly concurrency: number; readonly bots: readonly string[]; readonly games: readonly string[] };
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
  return {
    spec: {
      ...spec,
      bots: entrants.map((e) => e.spec.label),
      games: bases.map((g) => g.id),
      // The suite's lines themselves, so that a resume plays the same starts without the file.
      ...(spec.starts !== undefined ? { starts: [...suiteLines(spec.starts, where).lines] } : {}),
      ...(champion !== undefined ? { champion } : {}),
      concurrency: spec.concurrency ?? availableParallelism(),
    },
    variants,
    ...(suite ? { starts: suite.starts } : {}),
    entrants,
    unsupported,
    ...(clocks ? { clocks } : {}),
  };
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
  return saved;
}

/**
 * Where a run's bots keep their stores: the spec's bot-data folder, with the stores as the run
 * began kept in the results folder (`bot-data/`), so a resume starts from them too.
 */
export function runBotData(spec: Pick<TournamentSpec, 'botData' | 'botDataCapKb'>, dir: string): BotDataSettings {
  return { root: resolve(spec.botData ?? defaultBotDataRoot()), capBytes: spec.botDataCapKb * 1024, snapshotRoot: join(dir, 'bot-data') };
}
