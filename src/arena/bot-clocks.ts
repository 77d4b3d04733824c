/**
 * Time odds (docs/TOURNAMENTS.md "Time odds"): a bot's own clock, given in the spec as
 * `{ "name": "minimax", "tc": "10+0.1", "timePerMoveMs": 500 }` or on the command line as the
 * options `minimax:tc=10+0.1` and `random:time=500`. Its label names the clock
 * (`minimax:tc=10+0.1`), so standings, crosstables and records say which control a bot played on,
 * and the same bot can enter twice on two clocks.
 */
import { SpecError } from '../core/errors.ts';
import { formatTimeControl, parseTimeControl, timeControlProblem, type SeatClock } from './time-control.ts';

/** A bot's own clock as written: a bank, a per-move limit, or both. */
export interface OwnClock {
  readonly tc?: string;
  readonly timePerMoveMs?: number;
}

/** Longest per-move limit a bot may have (ms), as the spec's `timePerMoveMs`. */
const MAX_TIME_PER_MOVE_MS = 3_600_000;

/**
 * A spec's bot entry split into the bot text `resolveBot` reads and its own clock, if any: the
 * options `tc=…` and `time=…` are the arena's, not the bot's. Throws a SpecError (naming `at`,
 * e.g. ``spec: `bots[1]` ``) for a bad clock.
 */
export function splitBotClock(entry: string | { readonly name: string; readonly tc?: string | undefined; readonly timePerMoveMs?: number | undefined }, at: string): { text: string; own: OwnClock | undefined } {
  let text: string;
  const own: { tc?: string; timePerMoveMs?: number } = {};
  if (typeof entry === 'string') {
    const colon = entry.indexOf(':');
    const kept: string[] = [];
    if (colon >= 0) {
      for (const option of entry.slice(colon + 1).split(',')) {
        const m = /^\s*(tc|time)\s*=\s*(.*?)\s*$/.exec(option);
        if (!m) kept.push(option);
        else if (m[1] === 'tc') own.tc = m[2]!;
        else if (/^\d+$/.test(m[2]!) && Number(m[2]) >= 1 && Number(m[2]) <= MAX_TIME_PER_MOVE_MS) own.timePerMoveMs = Number(m[2]);
        else throw new SpecError(`${at}: \`time\`: expected a time per move in whole ms from 1 to ${MAX_TIME_PER_MOVE_MS}, got ${JSON.stringify(m[2])}`);
      }
    }
    text = colon < 0 ? entry : kept.length ? `${entry.slice(0, colon)}:${kept.join(',')}` : entry.slice(0, colon);
  } else {
    text = entry.name;
    if (entry.tc !== undefined) own.tc = entry.tc;
    if (entry.timePerMoveMs !== undefined) own.timePerMoveMs = entry.timePerMoveMs;
  }
  if (own.tc !== undefined) {
    const problem = timeControlProblem(own.tc);
    if (problem) throw new SpecError(`${at}: \`tc\`: expected ${problem}, got ${JSON.stringify(own.tc)}`);
    own.tc = formatTimeControl(parseTimeControl(own.tc));
  }
  return { text, own: own.tc === undefined && own.timePerMoveMs === undefined ? undefined : own };
}

/** A bot's label with its own clock as options: `minimax:depth=6,tc=10+0.1,time=500`. */
export function clockLabel(label: string, own: OwnClock | undefined): string {
  if (!own) return label;
  const parts = [...(own.tc !== undefined ? [`tc=${own.tc}`] : []), ...(own.timePerMoveMs !== undefined ? [`time=${own.timePerMoveMs}`] : [])];
  return `${label}${label.includes(':') ? ',' : ':'}${parts.join(',')}`;
}

/**
 * Every bot's clock when some bot has its own (undefined when none has: then the spec's limits
 * are the game's). A bot's own `tc` replaces the spec's limits (its bank, and its own
 * `timePerMoveMs` if it has one); its own `timePerMoveMs` alone replaces the spec's per-move limit
 * and keeps the spec's bank. Banks are for all bots or none: a bot on a bank against one without is
 * a SpecError naming both.
 */
export function botClocks(
  spec: { readonly timeControl?: string | undefined; readonly timePerMoveMs?: number | undefined },
  bots: readonly { readonly label: string; readonly own: OwnClock | undefined }[],
  where: string,
): SeatClock[] | undefined {
  if (bots.every((b) => b.own === undefined)) return undefined;
  const clocks = bots.map(({ own }): SeatClock => {
    const tc = own?.tc ?? spec.timeControl;
    const perMove = own?.tc !== undefined ? own.timePerMoveMs : (own?.timePerMoveMs ?? spec.timePerMoveMs);
    return { ...(tc !== undefined ? { timeControl: parseTimeControl(tc) } : {}), ...(perMove !== undefined ? { timePerMoveMs: perMove } : {}) };
  });
  const banked = bots.find((_, i) => clocks[i]!.timeControl !== undefined);
  const unbanked = bots.find((_, i) => clocks[i]!.timeControl === undefined);
  if (banked && unbanked) {
    throw new SpecError(`${where}: \`bots\`: ${banked.label} plays on a time bank and ${unbanked.label} on none; give every bot a \`tc\` (or the spec a \`timeControl\`)`);
  }
  return clocks;
}
