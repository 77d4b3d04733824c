/**
 * The coin board's board kinds, moves and positions (GAMES.md 5), apart from its rules so that the
 * rules (coins.ts) and their solver wiring (coins-solver.ts) both use them without importing each other.
 */
import type { Seat } from '../core/game.ts';

/** The two boards of GAMES.md 5. */
export type CoinBoard = 'triangle' | 'square';

/**
 * A take: the first and last coin numbers of k consecutive coins of one line, `first <= last`
 * (`first === last` for one coin). Two coins fix their line, so the pair names the take.
 */
export interface CoinMove {
  readonly first: number;
  readonly last: number;
}

/**
 * A position. `coins` is a board mask: bit i set when coin i + 1 is still on the board (a plain
 * number below 2^36; see `src/solvers/coins.ts` for why not int32). `scores` are the coins each
 * seat has taken `[first, second]` under `points` (the bonus is added only in the outcome); they
 * stay `[0, 0]` under `last-coin`, where they do not matter.
 */
export interface CoinsState {
  readonly coins: number;
  readonly turn: Seat;
  readonly scores: readonly [number, number];
}
