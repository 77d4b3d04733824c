import type { AnyGame, Seat } from '../../core/game.ts';
import { boardView } from './board-view.ts';
import { BoardPicture } from './BoardPicture.tsx';
import type { CoinCursor } from './coin-grid.ts';

type Props = {
  readonly game: AnyGame;
  readonly state: unknown;
  /** The position before the last move, so the picture can show what it took. */
  readonly prev?: unknown;
  /** Columns available; pictures shrink to fit. */
  readonly width: number;
  /** What to call each seat (`you`/`optimal`, or two bot names). */
  readonly names?: Readonly<Record<Seat, string>>;
  /** Play's cursor over the coin board, if on. */
  readonly cursor?: CoinCursor | undefined;
};

const SEAT_NAMES: Readonly<Record<Seat, string>> = { first: 'first', second: 'second' };

/** A position of any family as a picture, chosen by `game.family`. */
export function Board({ game, state, prev, width, names = SEAT_NAMES, cursor }: Props) {
  return <BoardPicture view={boardView(game, state, prev)} width={width} names={names} cursor={cursor} />;
}
