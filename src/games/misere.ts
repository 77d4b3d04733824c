/**
 * The `misere` parameter (GAMES.md 8) shared by the subtraction, no-repeat, piles and octal
 * families: with `misere=true` the player who makes the last move loses.
 *
 * The value is `true` or left out: `misere=false` is the default and parses to undefined, so a
 * normal-play variant's id stays what it was before the parameter existed (results logs and specs
 * keep matching) and `parseVariant(game.id).id === game.id` holds either way.
 */
import { z } from 'zod';
import { otherSeat, type Seat } from '../core/game.ts';
import type { ParamSpec } from '../core/params.ts';

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/** The `misere` parameter: `true` (or yes/1) for misère play; false, no, 0 or nothing for normal play. */
export const misereParam: ParamSpec<true | undefined> = {
  schema: z.preprocess(
    (v) => {
      const t = typeof v === 'string' ? v.trim().toLowerCase() : v;
      if (t === true || (typeof t === 'string' && TRUE.has(t))) return true;
      if (t === false || (typeof t === 'string' && FALSE.has(t))) return undefined;
      return t;
    },
    z.literal(true).optional(),
  ),
  description: 'misère play: the player who makes the last move loses',
  expected: '`true` or `false`',
  optional: true,
  choices: ['false', 'true'],
};

/** The winner once the player `toMove` has no move: the other seat in normal play, the mover under misère. */
export function noMoveWinner(toMove: Seat, misere: boolean): Seat {
  return misere ? toMove : otherSeat(toMove);
}

/** " (misère)" for titles of misère variants, else nothing. */
export function misereTitle(misere: boolean): string {
  return misere ? ' (misère)' : '';
}
