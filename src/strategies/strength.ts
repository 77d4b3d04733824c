/**
 * Playing strength for a beginner's opponent: the best move with probability p, else a uniformly
 * random legal move, both drawn from the bot's own seeded generator (so a game replays exactly).
 */
import { numberSchema, type ParamSpec } from '../core/params.ts';
import type { Rng } from '../core/rng.ts';

/** The named strength levels of `arena play` and the `strength` option. */
export const STRENGTH_LEVELS = { easy: 0.3, medium: 0.7, perfect: 1 } as const;

/** A named strength level. */
export type StrengthLevel = keyof typeof STRENGTH_LEVELS;

/** The `strength` option: a probability in [0, 1] or a level name (`easy`, `medium`, `perfect`); default perfect. */
export const strengthOption: ParamSpec<number> = {
  // A number or a level name, described as a shape so discovery can send it to the arena.
  schema: numberSchema(0, 1, false, STRENGTH_LEVELS),
  description: `probability of the best move (else a random legal one): 0..1 or ${Object.entries(STRENGTH_LEVELS)
    .map(([k, v]) => `${k} (${v})`)
    .join(', ')}`,
  expected: `a number from 0 to 1, or ${Object.keys(STRENGTH_LEVELS).join(', ')}`,
  default: 1,
};

/**
 * The move at strength p: `best()` with probability p, else a random legal move. At p = 1 the
 * generator is not touched, so full-strength games replay exactly as before the option existed.
 */
export function atStrength<M>(p: number, rng: Rng, moves: readonly M[], best: () => M): M {
  if (p >= 1) return best();
  return rng.float() < p ? best() : rng.pick(moves);
}
