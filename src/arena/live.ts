import type { AnyGame, Seat } from '../core/game.ts';
import type { LiveGame, LivePosition, LiveSnapshot } from './events.ts';
import type { LiveSlot } from './match.ts';

/** The position of `state` for boards: its JSON, its one-line text and whose turn it is. */
export function livePosition(game: AnyGame, state: unknown, seats: { readonly first: string; readonly second: string }): LivePosition {
  const toMove: Seat | null = game.outcome(state) === null ? game.toMove(state) : null;
  return { state: game.toJSON(state), text: game.describe(state), toMove, toMoveBot: toMove ? seats[toMove] : null };
}

/**
 * The runner's live view of one game: the match writes its fields after every move (`LiveSlot`),
 * watchers read it through `LiveGame`. Serialisation happens only in `snapshot()`, so the cost of
 * watching is paid per look, not per move.
 */
export class LiveTracker implements LiveSlot, LiveGame {
  // Plain fields, all set in the constructor: one hidden class, cheap writes from the match.
  state: unknown = undefined;
  prev: unknown = undefined;
  ply = 0;
  seat: Seat | null = null;
  move = '';
  ms = 0;
  over = false;
  readonly #game: AnyGame;
  readonly #seats: { readonly first: string; readonly second: string };

  constructor(game: AnyGame, seats: { readonly first: string; readonly second: string }) {
    this.#game = game;
    this.#seats = seats;
  }

  /** The game as it stands now, as plain data. */
  snapshot(): LiveSnapshot {
    const game = this.#game;
    return {
      ply: this.ply,
      position: livePosition(game, this.state, this.#seats),
      prevState: this.ply > 0 ? game.toJSON(this.prev) : null,
      last: this.seat === null ? null : { seat: this.seat, bot: this.#seats[this.seat], move: this.move, ms: this.ms },
    };
  }
}
