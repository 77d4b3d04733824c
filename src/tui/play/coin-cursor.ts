import { ArenaError } from '../../core/errors.ts';
import type { AnyGame } from '../../core/game.ts';
import { boardView } from '../boards/board-view.ts';
import { coinRows } from '../boards/coin-grid.ts';

/** A cursor key. */
export type CursorDir = 'up' | 'down' | 'left' | 'right';

/**
 * The cell the cursor reaches from `coin` in direction `dir`, by the board's drawing positions
 * (rows of `coinRows`): left and right stay in the row; on the square up and down keep the column.
 * On the centred triangle each coin sits between the two below it, so down goes to the lower-left
 * one and up undoes that (the upper-right coin, or the row's last at its right end). At an edge
 * the cursor stays.
 */
export function stepCursor(shape: 'triangle' | 'square', size: number, coin: number, dir: CursorDir): number {
  const rows = coinRows(shape, size);
  const r = rows.findIndex((row) => row.includes(coin));
  const row = rows[r];
  if (!row) return coin;
  const c = row.indexOf(coin);
  switch (dir) {
    case 'left':
      return row[c - 1] ?? coin;
    case 'right':
      return row[c + 1] ?? coin;
    case 'up': {
      const above = rows[r - 1];
      return above ? above[Math.min(c, above.length - 1)]! : coin;
    }
    case 'down':
      return rows[r + 1]?.[c] ?? coin;
  }
}

/** The take from one coin to another as the rules judge it, for the cursor's preview and for enter. */
export interface TakePreview {
  /** The take in notation: canonical (`4-6`) when legal, as pointed at (`6-4`) when not. */
  readonly text: string;
  /** The legal move to play, or null. */
  readonly move: unknown;
  /** Why it is not legal (the game's own message), or null. */
  readonly error: string | null;
  /** The coins it removes (empty when not legal). */
  readonly line: readonly number[];
}

/**
 * Asks the game whether the line from coin `from` to coin `to` (the same coin: a single coin) is a
 * take: parsed by `game.parseMove` as typed text would be, then checked against the legal moves.
 * Which coins it removes is read off the position after it, so no line geometry lives in the TUI.
 */
export function previewTake(game: AnyGame, state: unknown, moves: readonly unknown[], from: number, to: number): TakePreview {
  const asked = from === to ? String(to) : `${from}-${to}`;
  let move: unknown;
  try {
    move = game.parseMove(`${from}-${to}`, state);
  } catch (err) {
    // A user's pointing is a user's mistake: say the rules' reason. Anything else is a bug.
    if (err instanceof ArenaError) return { text: asked, move: null, error: err.message, line: [] };
    throw err;
  }
  const text = game.formatMove(move);
  if (!moves.some((m) => game.formatMove(m) === text)) {
    return { text, move: null, error: `${text} is not a legal take here`, line: [] };
  }
  const view = boardView(game, game.play(state, move), state);
  return { text, move, error: null, line: view.kind === 'coins' ? view.lastTaken : [] };
}
