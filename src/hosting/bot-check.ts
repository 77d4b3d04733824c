/**
 * The conformance check a new bot should pass before a tournament (`arena bots check`): on seeded
 * random positions of every registered family it answers a legal move before the deadline, does
 * not mutate the state it is given, and answers the same for the same seed.
 *
 * Each position is asked twice. First in a worker thread (the tournament's isolation), so a bot
 * stuck in a synchronous loop is terminated instead of hanging the check; then in-process on a
 * deep-frozen copy compared with a snapshot afterwards, to catch mutation, and with a generator of
 * the same seed, so the two answers must agree.
 *
 * An external program (a `.bot.json` manifest) is checked through its process host instead: each
 * position is asked in two games opened with the same seed, and the answers must agree. Mutation
 * cannot happen (it only ever sees JSON).
 */
import { memoryStore } from '../platform/bot-store.ts';
import { isDeepStrictEqual } from 'node:util';
import type { AnyBot } from '../core/bot.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, deriveSeed } from '../core/rng.ts';
import { show } from '../core/errors.ts';
import { FAMILIES, getFamily, makeGame, parseVariant } from '../games/index.ts';
import { importModuleBot, supportedBy, type BotEntry } from './bot-registry.ts';
import { judgeReply, type MoveReply } from '../core/referee.ts';
import { createHost } from './create-host.ts';
import { DEFAULT_GRACE_MS, DEFAULT_PREPARE_TIMEOUT_MS, errorText, isThenable, wallCapMs, wallCapReason, type BotHost, type BotSpec } from './host.ts';
import { threadCpuClock, usableClock, type ClockKind } from '../platform/cpu-clock.ts';

/**
 * Variants the check plays for each family: the family's defaults plus small variants (small
 * enough that exact and search bots finish well inside the deadline). A family missing here is
 * checked on its defaults.
 */
export const CHECK_VARIANTS: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>> = {
  subtraction: [{}, { moves: [1, 2, 3], n: [0, 30] }],
  'no-repeat': [{}, { moves: [1, 2, 3, 4, 5], n: [0, 40] }],
  partizan: [{}, { left: [2, 5, 9], right: [3, 4, 8], n: [0, 40] }],
  piles: [{}, { rule: 'nim', piles: [3, 4, 5] }],
  // Both scorings: bots for points play (priority) are checked too.
  coins: [{}, { board: 'square', side: 4 }, { board: 'triangle', rows: 5, scoring: 'points' }],
  'end-game': [{}, { length: 7, values: [-5, 5] }],
};

/** Settings of a check. */
export interface CheckOptions {
  /** Time per move, ms. */
  readonly timeMs: number;
  /** Positions per variant. */
  readonly positions: number;
  /** Master seed of the positions and of the bot's generators. */
  readonly seed: number;
  /** `worker` (default): liveness in a worker thread first; `none`: in-process only (a synchronous loop then hangs). */
  readonly isolation: 'worker' | 'none';
  /** Only these family ids (all registered families when empty). */
  readonly families: readonly string[];
  /** External bots: the file their stderr is appended to (default: `tempStderrLogPath(name)`). */
  readonly stderrLog?: string;
  /**
   * What a move is charged (as in a tournament): `cpu` (default), the CPU time the bot used, so a
   * busy machine fails no move, or `wall`. Where the platform has no CPU clock, `cpu` is the wall clock.
   */
  readonly clock: ClockKind;
}

/** Defaults of `checkBot`. */
export const DEFAULT_CHECK: CheckOptions = { timeMs: 1000, positions: 6, seed: 1, isolation: 'worker', families: [], clock: 'cpu' };

/** One row of the check's table: a variant and how the bot did on it. */
export interface CheckRow {
  readonly family: string;
  readonly variant: string;
  readonly status: 'pass' | 'fail' | 'skip';
  /** Positions the bot answered correctly. */
  readonly positions: number;
  /** Slowest answer, ms. */
  readonly maxMs: number;
  /** Why it failed or was skipped (empty when it passed). */
  readonly detail: string;
}

/** A position to ask about: a deal followed by a few seeded random plies, never finished. */
function checkPosition(game: AnyGame, seed: number): unknown {
  const rng = createRng(seed);
  for (let attempt = 0; attempt < 20; attempt++) {
    let state = game.deal(rng);
    if (game.outcome(state)) continue;
    const plies = rng.int(0, 8);
    for (let p = 0; p < plies; p++) {
      const next = game.play(state, rng.pick(game.moves(state)));
      if (game.outcome(next)) break;
      state = next;
    }
    return state;
  }
  return undefined;
}

/** Freezes objects and arrays in place (typed arrays cannot be frozen; the snapshot covers them). */
function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
  Object.freeze(v);
  for (const x of Object.values(v as object)) deepFreeze(x);
}

const MUTATION = /read[ -]only|not extensible|Cannot (assign|add|delete|define)|object is frozen/i;

/**
 * Calls the bot in-process, bounded by the deadline when it returns a promise. Under the CPU clock
 * the synchronous part of its answer is charged this thread's CPU time (as an in-process host
 * does: `ctx.now` counts it, on the scale of `deadline`), capped at `wallCapMs` of wall time; a
 * promise's wait, during which other work may run on this thread, is charged its wall time.
 */
async function callInProcess(
  bot: AnyBot,
  game: AnyGame,
  state: unknown,
  moves: readonly unknown[],
  seat: Seat,
  rngSeed: number,
  options: Readonly<Record<string, unknown>>,
  timeMs: number,
  clock: ClockKind,
): Promise<MoveReply> {
  const cpu = clock === 'cpu' ? threadCpuClock() : null;
  const t0 = performance.now();
  const cpu0 = cpu ? cpu.fresh() : 0;
  const deadline = Date.now() + timeMs;
  const now = cpu ? (): number => deadline - timeMs + (cpu.fresh() - cpu0) : undefined;
  const limit = timeMs + DEFAULT_GRACE_MS;
  const unit = cpu ? ' of CPU time' : '';
  const late = (ms: number): MoveReply => ({ ok: false, kind: 'timeout', reason: `answered after ${ms.toFixed(0)} ms${unit}, limit ${timeMs} ms`, ms });
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = bot.choose({ game, state, moves, seat, rng: createRng(rngSeed), deadline, ...(now ? { now } : {}), options, store: memoryStore() });
    const t1 = performance.now();
    const before = cpu ? Math.min(t1 - t0, cpu.fresh() - cpu0) : t1 - t0;
    if (cpu && t1 - t0 > wallCapMs(timeMs) + DEFAULT_GRACE_MS) return { ok: false, kind: 'timeout', reason: wallCapReason(timeMs), ms: before };
    // A synchronous answer is judged by its own time (awaiting it would add whatever else runs on this thread).
    if (!isThenable(answer)) return before > limit ? late(before) : { ok: true, move: answer, ms: before };
    const move = await Promise.race([
      answer,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeout()), Math.max(0, limit - before));
      }),
    ]);
    const ms = before + performance.now() - t1;
    return ms > limit ? late(ms) : { ok: true, move, ms };
  } catch (err) {
    const ms = performance.now() - t0;
    if (err instanceof CheckTimeout) return { ok: false, kind: 'timeout', reason: `no move within ${timeMs} ms`, ms };
    return { ok: false, kind: 'crash', reason: errorText(err), ms };
  } finally {
    clearTimeout(timer);
  }
}

class CheckTimeout extends Error {}

/**
 * The variants the check plays, built from CHECK_VARIANTS for every registered family (or the ones
 * named; an unknown id is a UsageError suggesting the closest).
 */
export function checkVariants(only: readonly string[] = []): { family: string; game: AnyGame | null; error: string }[] {
  const out: { family: string; game: AnyGame | null; error: string }[] = [];
  const families = only.length === 0 ? FAMILIES : only.map((id) => getFamily(id));
  for (const family of families) {
    for (const params of CHECK_VARIANTS[family.id] ?? [{}]) {
      try {
        out.push({ family: family.id, game: makeGame(family.id, params), error: '' });
      } catch (err) {
        out.push({ family: family.id, game: null, error: `sample variant ${show(params)} is invalid: ${errorText(err)}` });
      }
    }
  }
  return out;
}

/**
 * Runs the conformance check of one bot with validated options. Resolves to one row per variant;
 * never throws for anything the bot does.
 */
export async function checkBot(
  entry: BotEntry,
  options: Readonly<Record<string, unknown>>,
  settings: Partial<CheckOptions> = {},
): Promise<CheckRow[]> {
  const cfg = { ...DEFAULT_CHECK, ...settings, clock: usableClock(settings.clock ?? DEFAULT_CHECK.clock) };
  let bot = entry.bot;
  const variants = checkVariants(cfg.families);
  const spec: BotSpec = { label: entry.name, name: entry.name, options };
  if (entry.transport === 'process') {
    const external = createHost(entry, spec, { isolation: 'worker', memoryMb: 512, clock: cfg.clock, ...(cfg.stderrLog !== undefined ? { stderrLog: cfg.stderrLog } : {}) });
    try {
      await external.start();
    } catch (err) {
      await external.close();
      return [{ family: '*', variant: '', status: 'fail', positions: 0, maxMs: 0, detail: `cannot start: ${err instanceof Error ? err.message : String(err)}` }];
    }
    const rows: CheckRow[] = [];
    try {
      for (const { family, game, error } of variants) {
        if (!game) rows.push({ family, variant: '', status: 'skip', positions: 0, maxMs: 0, detail: error });
        else if (!supportedBy(bot, game)) rows.push({ family, variant: game.id, status: 'skip', positions: 0, maxMs: 0, detail: 'not supported by the bot' });
        else rows.push(await checkExternalVariant(external, game, cfg));
      }
    } finally {
      await external.close();
    }
    return rows;
  }
  let host: BotHost | undefined;
  if (cfg.isolation === 'worker') {
    host = createHost(entry, spec, { isolation: 'worker', memoryMb: 512, clock: cfg.clock, ...(cfg.stderrLog !== undefined ? { stderrLog: cfg.stderrLog } : {}) });
    try {
      await host.start();
    } catch (err) {
      await host.close();
      return [{ family: '*', variant: '', status: 'fail', positions: 0, maxMs: 0, detail: `cannot start in its own process (isolation worker): ${errorText(err)}` }];
    }
  }
  // The in-process half of the check plays the bot itself: the one bot named, imported only now
  // (after the worker has shown that it loads without hanging).
  try {
    bot = await importModuleBot(entry);
  } catch (err) {
    await host?.close();
    return [{ family: '*', variant: '', status: 'fail', positions: 0, maxMs: 0, detail: `cannot load: ${errorText(err)}` }];
  }
  const rows: CheckRow[] = [];
  try {
    for (const { family, game, error } of variants) {
      if (!game) {
        rows.push({ family, variant: '', status: 'skip', positions: 0, maxMs: 0, detail: error });
        continue;
      }
      if (!supportedBy(bot, game)) {
        rows.push({ family, variant: game.id, status: 'skip', positions: 0, maxMs: 0, detail: 'not supported by the bot' });
        continue;
      }
      rows.push(await checkVariant(bot, game, options, cfg, host));
    }
  } finally {
    await host?.close();
  }
  return rows;
}

async function checkVariant(
  bot: AnyBot,
  game: AnyGame,
  options: Readonly<Record<string, unknown>>,
  cfg: CheckOptions,
  host: BotHost | undefined,
): Promise<CheckRow> {
  // The bot gets its own Game object, as in a tournament.
  const botGame = Object.freeze(parseVariant(game.id));
  let maxMs = 0;
  let passed = 0;
  const row = (status: CheckRow['status'], detail: string): CheckRow => ({
    family: game.family,
    variant: game.id,
    status,
    positions: passed,
    maxMs,
    detail,
  });
  // Warm up as a tournament would (once per variant, its own budget), so a table build is not
  // judged as a slow first move.
  if (bot.prepare) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve(bot.prepare(botGame, options)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new CheckTimeout()), DEFAULT_PREPARE_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      return row('fail', err instanceof CheckTimeout ? `prepare took longer than ${DEFAULT_PREPARE_TIMEOUT_MS} ms` : `prepare failed: ${errorText(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }
  for (const { i, state, where, moves, seat, rngSeed } of checkPositions(game, cfg)) {

    let first: number | undefined;
    if (host) {
      const session = await host.open({ key: `check-${i}`, variant: game.id, seat, rngSeed });
      const reply = await session.move(structuredClone(state), structuredClone(moves), cfg.timeMs);
      session.close();
      maxMs = Math.max(maxMs, reply.ms);
      const k = ruling(game, moves, reply);
      if (typeof k === 'string') return row('fail', `${where}: ${k}`);
      first = k;
    }

    const given = structuredClone(state);
    const snapshot = structuredClone(state);
    deepFreeze(given);
    const givenMoves = structuredClone(moves);
    deepFreeze(givenMoves);
    const reply = await callInProcess(bot, botGame, given, givenMoves, seat, rngSeed, options, cfg.timeMs, cfg.clock);
    maxMs = Math.max(maxMs, reply.ms);
    if (!reply.ok && reply.kind === 'crash' && MUTATION.test(reply.reason)) {
      return row('fail', `${where}: mutated the state it was given (${reply.reason})`);
    }
    if (!isDeepStrictEqual(given, snapshot)) return row('fail', `${where}: mutated the state it was given`);
    const k = ruling(game, moves, reply);
    if (typeof k === 'string') return row('fail', `${where}: ${k}`);
    if (first === undefined) {
      // In-process only: ask a second time with the same seed for the determinism check.
      const again = await callInProcess(bot, botGame, given, givenMoves, seat, rngSeed, options, cfg.timeMs, cfg.clock);
      maxMs = Math.max(maxMs, again.ms);
      const k2 = ruling(game, moves, again);
      if (typeof k2 === 'string') return row('fail', `${where}: ${k2}`);
      first = k2;
    }
    if (first !== k) {
      return row('fail', `${where}: answered ${game.formatMove(moves[first])} then ${game.formatMove(moves[k])} with the same seed`);
    }
    passed++;
  }
  return row('pass', '');
}

/** The seeded positions a check asks about, with what each ask needs. */
function* checkPositions(game: AnyGame, cfg: CheckOptions) {
  for (let i = 0; i < cfg.positions; i++) {
    const state = checkPosition(game, deriveSeed(cfg.seed, 'check', game.id, i));
    if (state === undefined) continue;
    yield {
      i,
      state,
      where: `position ${i + 1} (${game.describe(state)})`,
      moves: game.moves(state),
      seat: game.toMove(state),
      rngSeed: deriveSeed(cfg.seed, 'check-bot', game.id, i),
    };
  }
}

/** The referee's ruling on a reply: the legal move's index, or the failure as the check words it. */
function ruling(game: AnyGame, moves: readonly unknown[], reply: MoveReply): number | string {
  const i = judgeReply(game, moves, reply);
  return typeof i === 'number' ? i : `${i.kind === 'timeout' ? 'too slow' : i.kind}: ${i.reason}`;
}

/** One variant of an external bot: each position asked in two games with the same seed. */
async function checkExternalVariant(host: BotHost, game: AnyGame, cfg: CheckOptions): Promise<CheckRow> {
  let maxMs = 0;
  let passed = 0;
  const row = (status: CheckRow['status'], detail: string): CheckRow => ({ family: game.family, variant: game.id, status, positions: passed, maxMs, detail });
  for (const { i, state, where, moves, seat, rngSeed } of checkPositions(game, cfg)) {
    const answers: number[] = [];
    for (let round = 0; round < 2; round++) {
      let reply: MoveReply;
      try {
        const session = await host.open({ key: `check-${i}-${round}`, variant: game.id, seat, rngSeed });
        reply = await session.move(state, moves, cfg.timeMs);
        session.close();
      } catch (err) {
        return row('fail', `${where}: cannot restart: ${err instanceof Error ? err.message : String(err)}`);
      }
      maxMs = Math.max(maxMs, reply.ms);
      const k = ruling(game, moves, reply);
      if (typeof k === 'string') return row('fail', `${where}: ${k}`);
      answers.push(k);
    }
    if (answers[0] !== answers[1]) {
      return row('fail', `${where}: answered ${game.formatMove(moves[answers[0]!])} then ${game.formatMove(moves[answers[1]!])} in two games with the same seed`);
    }
    passed++;
  }
  return row('pass', '');
}
