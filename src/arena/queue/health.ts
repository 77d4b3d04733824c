/**
 * When the coordinator pauses a worker (it gets no more jobs): fishtest's and OpenBench's rule of
 * a machine that crashes bots or loses on time more than its share. The share is compared with the
 * other workers' too: a bot that crashes or loses on time wherever it plays is the bot's fault, and
 * pausing every worker for it would only stall the run.
 */
import type { WorkerCounts } from '../summary.ts';

/** The thresholds of a pause. */
export interface PauseRule {
  /** Games a worker must have played before it can be paused. */
  readonly minGames: number;
  /** The share of its games lost by a crash or on time above which it is paused. */
  readonly share: number;
}

/** The default rule: 20 games, more than a quarter of them lost by a crash or on time. */
export const PAUSE_RULE: PauseRule = { minGames: 20, share: 0.25 };

const pct = (x: number): string => `${Math.round(x * 100)} %`;

/**
 * Why `name` is to be paused under `rule`, or null: it has played `minGames` games, more than
 * `share` of them ended by a crash or on time, more than twice the others' share, and the others
 * have played `minGames` games between them (without them, nothing says the fault is the machine's).
 */
export function pauseReason(counts: ReadonlyMap<string, WorkerCounts>, name: string, rule: PauseRule = PAUSE_RULE): string | null {
  const mine = counts.get(name);
  if (!mine || mine.games < rule.minGames) return null;
  const faults = mine.crashes + mine.timeouts;
  const share = faults / mine.games;
  if (share <= rule.share) return null;
  let games = 0;
  let theirs = 0;
  for (const [other, c] of counts) {
    if (other === name) continue;
    games += c.games;
    theirs += c.crashes + c.timeouts;
  }
  if (games < rule.minGames || share <= (2 * theirs) / games) return null;
  return `${faults} of its ${mine.games} games lost by a crash or on time (${pct(share)}; the other workers ${pct(theirs / games)})`;
}
