/**
 * The declaration of one parameter, apart from the parameter helpers (params.ts) so that the game
 * contract (game.ts) can name it while params.ts builds on that contract, without an import circle.
 */
import type { z } from 'zod';

/**
 * One parameter of a game family or a bot: a zod schema that accepts both JSON values (from
 * specs) and strings (from the command line and variant ids), plus the texts users see.
 */
export interface ParamSpec<T> {
  readonly schema: z.ZodType<T>;
  /** What the parameter means, for `arena games`. */
  readonly description: string;
  /** What a valid value looks like: the error says ``Expected `moves` to be <expected>, got …``. */
  readonly expected: string;
  /** Used when the parameter is not given; without one the parameter is required (or optional). */
  readonly default?: T;
  /** True when the parameter may be left out with no default. */
  readonly optional?: boolean;
  /** Choices of an enumerated parameter, for menus. */
  readonly choices?: readonly string[];
}
