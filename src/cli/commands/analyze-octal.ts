/**
 * `arena analyze octal --code C --period [--period-limit N]` (and `grundy`): the nim-sequence's
 * period and pre-period proven by the Guy–Smith theorem, with what the proof needed and how the
 * sparse space computed the table.
 */
import { UsageError, show } from '../../core/errors.ts';
import type { AnyGame } from '../../core/game.ts';
import { findOctalPeriod, MAX_TABLE_HEAPS, parseOctalCode, ruleMoves, type TakeBreakRule } from '../../solvers/octal.ts';

/** Default largest table of the period search (2^24 heaps, 32 MB). */
export const DEFAULT_PERIOD_LIMIT = 1 << 24;

/** What `--period` adds for a take-and-break family: the JSON fields and the text lines. */
export interface OctalPeriodReport {
  readonly doc: Record<string, unknown>;
  readonly text: string[];
}

/** Parses `--period-limit`: heaps, decimal or `2^k`, up to the tables' largest. */
export function parsePeriodLimit(text: unknown): number {
  if (text === undefined) return DEFAULT_PERIOD_LIMIT;
  const t = String(text).trim();
  const pow = /^2\^(\d{1,2})$/.exec(t);
  const n = pow ? 2 ** Number(pow[1]) : /^\d+$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_TABLE_HEAPS) {
    throw new UsageError(`Expected \`--period-limit\` to be a number of heaps in 1..${MAX_TABLE_HEAPS} (or 2^k), got ${show(t)}`);
  }
  return n;
}

/** The rule of an octal or grundy variant. */
function ruleOf(game: AnyGame): TakeBreakRule {
  if (game.family === 'grundy') return { kind: 'grundy' };
  const rule = parseOctalCode(String(game.params['code']));
  if (typeof rule === 'string') throw new UsageError(`Expected \`--code\` to be ${rule}, got ${show(game.params['code'])}`);
  return rule;
}

/** Searches tables up to `limit` heaps for a proven period and reports it (or how far it looked). */
export function octalPeriodReport(game: AnyGame, limit: number): OctalPeriodReport {
  if (game.params['misere'] === true) throw new UsageError('`--period` is about the normal-play nim-sequence; misère play has none (see docs/GAMES.md 8)');
  const rule = ruleOf(game);
  const { proven, table } = findOctalPeriod(rule, limit);
  const t = ruleMoves(rule).maxTake;
  const space = table.space && { mask: table.space.mask.toString(2), kind: table.space.kind };
  const sparse = { space, rareHeaps: table.rare.length, lastRare: table.rare[table.rare.length - 1] ?? null, fullScans: table.fullScans };
  const text: string[] = [];
  if (proven) {
    const needed = 2 * proven.preperiod + 2 * proven.period + t - 1;
    text.push(
      `period: ${proven.period} from heap ${proven.preperiod} (pre-period ${proven.preperiod}; last exception ${proven.lastException < 0 ? 'none' : proven.lastException})`,
      `proof:  Guy–Smith: G(n + p) = G(n) for ${proven.preperiod} ≤ n < 2·${proven.preperiod} + ${proven.period} + ${t} (t = largest take), checked in G(0..${proven.checkedTo}) (needs ${needed})`,
    );
  } else {
    text.push(
      rule.kind === 'grundy'
        ? `period: none proven — no periodicity theorem covers Grundy's game (unequal splits); G computed to ${table.upto}`
        : `period: not proven within ${table.upto} heaps (--period-limit raises the search, up to ${MAX_TABLE_HEAPS})`,
    );
  }
  text.push(
    space
      ? `sparse space: mask …${space.mask} (${space.kind}); ${sparse.rareHeaps} rare heaps up to ${table.upto}${sparse.lastRare === null ? '' : `, the last at ${sparse.lastRare}`}`
      : 'sparse space: not used (a short table, or a game without splits, is computed by definition)',
  );
  return { doc: { period: proven && { preperiod: proven.preperiod, period: proven.period, lastException: proven.lastException, checkedTo: proven.checkedTo }, sparse }, text };
}
