import { useCallback, useReducer } from 'react';
import type { CoinsView } from '../boards/board-view.ts';
import { stepCursor, type CursorDir } from './coin-cursor.ts';

/** Play's cursor over the coin board, as the play screen drives it. */
export interface CoinCursorModel {
  /** True while the cursor, not the move list, takes the arrow keys. */
  readonly on: boolean;
  /** The coin under the cursor. */
  readonly at: number;
  /** The marked first coin of a line, or null. */
  readonly mark: number | null;
  /** Switches between the cursor and the move list. */
  toggle(): void;
  move(dir: CursorDir): void;
  /** Marks the coin under the cursor as the first of a line. */
  markHere(): void;
  /** Esc: clears the mark, or leaves the cursor when there is none. */
  back(): void;
  /** After a take: the mark goes, the cursor stays where it was. */
  played(): void;
}

type State = { readonly on: boolean; readonly at: number | null; readonly mark: number | null };
type Action =
  | { readonly type: 'toggle'; readonly start: number }
  | { readonly type: 'move'; readonly dir: CursorDir; readonly shape: CoinsView['shape']; readonly size: number }
  | { readonly type: 'mark' }
  | { readonly type: 'back' }
  | { readonly type: 'played' };

// A reducer, so keys that arrive before the next render still see each other's effect.
function reduce(s: State, a: Action): State {
  switch (a.type) {
    case 'toggle':
      return { on: !s.on, at: s.at ?? a.start, mark: null };
    case 'move':
      return s.on && s.at !== null ? { ...s, at: stepCursor(a.shape, a.size, s.at, a.dir) } : s;
    case 'mark':
      return s.on ? { ...s, mark: s.at } : s;
    case 'back':
      return s.mark !== null ? { ...s, mark: null } : { ...s, on: false };
    case 'played':
      return { ...s, mark: null };
  }
}

/**
 * The cursor state of the coin board (`view` is null for other families: the cursor then never
 * turns on). It first lands on the lowest coin still on the board, and keeps its place after moves.
 */
export function useCoinCursor(view: CoinsView | null): CoinCursorModel {
  const [s, dispatch] = useReducer(reduce, { on: false, at: null, mark: null });
  const shape = view?.shape ?? 'triangle';
  const size = view?.size ?? 0;
  const start = view ? view.present.indexOf(true) + 1 || 1 : 1;
  const hasView = view !== null;
  const toggle = useCallback(() => {
    if (hasView) dispatch({ type: 'toggle', start });
  }, [hasView, start]);
  const move = useCallback((dir: CursorDir) => dispatch({ type: 'move', dir, shape, size }), [shape, size]);
  const markHere = useCallback(() => dispatch({ type: 'mark' }), []);
  const back = useCallback(() => dispatch({ type: 'back' }), []);
  const played = useCallback(() => dispatch({ type: 'played' }), []);
  return { on: hasView && s.on, at: s.at ?? start, mark: s.mark, toggle, move, markHere, back, played };
}
