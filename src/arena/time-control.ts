/**
 * Time controls as cutechess and fastchess write them: `10+0.1` is 10 seconds per game for each
 * bot plus 0.1 s added after each of its moves; `10` is 10 seconds and no increment. The match
 * keeps one bank per seat (match.ts); this module only reads and writes the notation.
 */

/** A game's time control in milliseconds: each seat's bank starts at `baseMs`; `incMs` is added after each of its moves. */
export interface TimeControl {
  readonly baseMs: number;
  readonly incMs: number;
}

/** What `--tc` and the spec's `timeControl` expect, for messages. */
export const TIME_CONTROL_EXPECTED = 'a time control like 10+0.1 (seconds per game, plus seconds added per move) or 10 (no increment)';

/** The notation: seconds, optionally `+` seconds (decimals allowed, no sign, no exponent). */
export const TIME_CONTROL_PATTERN = '^\\d+(\\.\\d+)?(\\+\\d+(\\.\\d+)?)?$';

const NOTATION = new RegExp(TIME_CONTROL_PATTERN);

/** Longest bank and increment accepted: a day per game, an hour per move. */
const MAX_BASE_S = 86_400;
const MAX_INC_S = 3_600;

/**
 * What a text should have been when it is not a time control (`a time control like …`, `a base
 * from … seconds`: the caller says "expected" and shows the text), or null when it is one.
 */
export function timeControlProblem(text: string): string | null {
  const t = text.trim();
  if (/^\d+\//.test(t)) return `${TIME_CONTROL_EXPECTED} (moves per period, like 40/60, are not supported)`;
  if (!NOTATION.test(t)) return TIME_CONTROL_EXPECTED;
  const [base, inc = '0'] = t.split('+') as [string, string?];
  if (Math.round(Number(base) * 1000) < 1 || Number(base) > MAX_BASE_S) return `a time control whose base is from 0.001 to ${MAX_BASE_S} seconds`;
  if (Number(inc) > MAX_INC_S) return `a time control whose increment is at most ${MAX_INC_S} seconds`;
  return null;
}

/** Reads `base[+inc]` in seconds into whole milliseconds; a RangeError says what was expected. */
export function parseTimeControl(text: string): TimeControl {
  const problem = timeControlProblem(text);
  if (problem) throw new RangeError(`expected ${problem}, got ${JSON.stringify(text)}`);
  const [base, inc = '0'] = text.trim().split('+') as [string, string?];
  return { baseMs: Math.round(Number(base) * 1000), incMs: Math.round(Number(inc) * 1000) };
}

/** The notation of a time control (`10+0.1`, or `10` without increment). */
export function formatTimeControl(tc: TimeControl): string {
  const s = (ms: number): string => String(ms / 1000);
  return tc.incMs > 0 ? `${s(tc.baseMs)}+${s(tc.incMs)}` : s(tc.baseMs);
}

/**
 * One bot's own clock (time odds: `minimax:tc=10+0.1`, `random:time=500`): a bank, a per-move
 * limit, or both (then a move gets the smaller). Absent fields are absent limits.
 */
export interface SeatClock {
  readonly timeControl?: TimeControl;
  readonly timePerMoveMs?: number;
}

/** A clock in words for standings and messages: `bank 10+0.1`, `500 ms a move`, `bank 10+0.1, at most 500 ms a move`. */
export function clockText(clock: SeatClock): string {
  const tc = clock.timeControl && `bank ${formatTimeControl(clock.timeControl)}`;
  const perMove = clock.timePerMoveMs !== undefined ? `${clock.timePerMoveMs} ms a move` : undefined;
  return tc && perMove ? `${tc}, at most ${perMove}` : (tc ?? perMove ?? 'no limit');
}
