import type { AnyGame, Outcome, Seat } from '../../core/game.ts';
import { layoutStones } from '../text/layout.ts';

/**
 * What a board picture needs, per family, as plain data. `boardView` maps a family's state (and
 * the state before the last move, to show what it took) to one of these, so the pictures never
 * depend on how a family stores its positions and can be tested without a game.
 */
export type BoardView = PileView | PilesView | CoinsView | EndGameView | TextView;

/** What every board picture receives: its view data, the columns it may use, the seats' names. */
export interface BoardProps<V extends BoardView = BoardView> {
  readonly view: V;
  /** Columns available; pictures shrink to fit. */
  readonly width: number;
  /** What to call each seat (`you`/`optimal`, or two bot names). */
  readonly names: Readonly<Record<Seat, string>>;
}

/** What every view has besides its picture. */
interface ViewBase {
  /** The game is over: the boards say so instead of whose move it is. */
  readonly over?: boolean;
}

/** Whose move it is, or that the game is over, for the line under a board. */
export function turnText(view: BoardView, names: Readonly<Record<Seat, string>>): string {
  return view.over ? 'game over' : `${names[view.toMove]} to move`;
}

/** One pile (subtraction, no-repeat, partizan). */
export interface PileView extends ViewBase {
  readonly kind: 'pile';
  readonly family: 'subtraction' | 'no-repeat' | 'partizan';
  readonly pile: number;
  /** Stones the last move took (0 at the start). */
  readonly taken: number;
  readonly toMove: Seat;
  /** The subtraction set of the side to move. */
  readonly takes: readonly number[];
  /** no-repeat: the amount the player to move may not take (the opponent's last take), or null. */
  readonly forbidden?: number | null;
  /** partizan: the side (Left/Right) whose turn it is. */
  readonly side?: 'Left' | 'Right';
}

/** Several piles (Nim, subtract-a-square, finite sets). */
export interface PilesView extends ViewBase {
  readonly kind: 'piles';
  readonly piles: readonly number[];
  /** The last move: the pile (0-based) and the amount taken from it. */
  readonly last: { readonly pile: number; readonly amount: number } | null;
  readonly rule: string;
  readonly toMove: Seat;
}

/** The coin triangle or square. */
export interface CoinsView extends ViewBase {
  readonly kind: 'coins';
  readonly shape: 'triangle' | 'square';
  /** Rows of the triangle or side of the square. */
  readonly size: number;
  /** present[i]: coin i + 1 is on the board. */
  readonly present: readonly boolean[];
  /** Coin numbers (1-based) the last move took, highlighted. */
  readonly lastTaken: readonly number[];
  readonly toMove: Seat;
  /** Points scoring: [first, second]; absent under last-coin scoring. */
  readonly scores?: readonly [number, number];
}

/** The End Game row. */
export interface EndGameView extends ViewBase {
  readonly kind: 'end-game';
  readonly row: readonly number[];
  /** The numbers still in play are row[lo..hi) . */
  readonly lo: number;
  readonly hi: number;
  readonly scores: readonly [number, number];
  readonly toMove: Seat;
  /** The index taken by the last move, or null. */
  readonly lastIndex: number | null;
}

/** Any family this TUI does not draw (a user's game): the game's own description, one line or several. */
export interface TextView extends ViewBase {
  readonly kind: 'text';
  /** Lines separated by `\n`. */
  readonly text: string;
  readonly toMove: Seat;
}

/** Final result line for any family, from the game's outcome. */
export function outcomeText(outcome: Outcome, names: Readonly<Record<Seat, string>>): string {
  // Each score with its player's name: "7–-9" read as a range with a stray dash.
  const scores = outcome.scores ? ` (${names.first} ${outcome.scores[0]}, ${names.second} ${outcome.scores[1]})` : '';
  return outcome.winner === null ? `Draw${scores}` : `${names[outcome.winner]} won${scores}`;
}

/**
 * The number a move takes when its notation does not say it (End Game's `L`/`R`), from the
 * position before the move; null for every other family, whose notation names what is taken.
 */
function takenNumber(game: AnyGame, before: unknown, move: string): number | null {
  if (game.family !== 'end-game') return null;
  const row = nums(obj(game.toJSON(before))['row']);
  const x = move === 'L' ? row[0] : move === 'R' ? row[row.length - 1] : undefined;
  return x ?? null;
}

/** What a legal move would take, where its notation does not say it: `takes 9` for End Game's `L`; else null. */
export function moveNote(game: AnyGame, state: unknown, move: string): string | null {
  const x = takenNumber(game, state, move);
  return x === null ? null : `takes ${x}`;
}

/** A played move as the history and the review show it: its notation, and for End Game the number taken (`L (9)`). */
export function plyText(game: AnyGame, ply: { readonly before: unknown; readonly text: string }): string {
  const x = takenNumber(game, ply.before, ply.text);
  return x === null ? ply.text : `${ply.text} (${x})`;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' ? (v as Json) : {});
const num = (v: unknown, fallback = 0): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : fallback);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.map((x) => num(x)) : []);

/**
 * The picture data of a position. Reads the family's documented `toJSON` form (the same form logs
 * and external bots see) plus the game's parameters, so the TUI depends on no family's internals.
 */
export function boardView(game: AnyGame, state: unknown, prev?: unknown): BoardView {
  const json = game.toJSON(state);
  const view = viewFromJson(game, json, prev === undefined ? undefined : game.toJSON(prev), game.toMove(state), game.describe(state));
  return game.outcome(state) === null ? view : { ...view, over: true };
}

/**
 * The picture data of a position given as the family's `toJSON` form (what tournament events and
 * logs carry), the form before the last move, the seat to move and the one-line description.
 */
export function viewFromJson(game: AnyGame, json: unknown, prevJson: unknown, toMove: Seat, text: string): BoardView {
  const j = obj(json);
  const p = prevJson === undefined || prevJson === null ? undefined : obj(prevJson);
  const params = game.params;
  switch (game.family) {
    case 'subtraction':
    case 'no-repeat': {
      const pile = num(j['pile']);
      const view: PileView = {
        kind: 'pile',
        family: game.family,
        pile,
        taken: p ? Math.max(0, num(p['pile']) - pile) : 0,
        toMove,
        takes: nums(params['moves']),
      };
      if (game.family === 'no-repeat') {
        const f = j['forbidden'];
        return { ...view, forbidden: typeof f === 'number' ? f : null };
      }
      return view;
    }
    case 'partizan': {
      const pile = num(j['pile']);
      const side = j['side'] === 'Right' || j['side'] === 'right' ? 'Right' : 'Left';
      return {
        kind: 'pile',
        family: 'partizan',
        pile,
        taken: p ? Math.max(0, num(p['pile']) - pile) : 0,
        toMove,
        side,
        takes: nums(side === 'Left' ? params['left'] : params['right']),
      };
    }
    case 'octal':
    case 'grundy':
    case 'piles': {
      // Octal and Grundy heaps are drawn as piles; a split changes the count, and then no pile is marked.
      const key = game.family === 'piles' ? 'piles' : 'heaps';
      const rule = params['rule'];
      const text = game.family !== 'piles' ? game.title : Array.isArray(rule) ? `takes {${rule.join(',')}}` : rule === 'squares' ? 'squares' : 'nim (any number)';
      return pilesView(nums(j[key]), p ? nums(p[key]) : [], text, toMove);
    }
    case 'coins': {
      const shape = params['board'] === 'square' ? 'square' : 'triangle';
      const size = num(shape === 'square' ? params['side'] : params['rows'], 6);
      const total = shape === 'square' ? size * size : (size * (size + 1)) / 2;
      const here = new Set(nums(j['coins']));
      const before = p ? nums(p['coins']) : [];
      const scores = Array.isArray(j['scores']) ? nums(j['scores']) : null;
      return {
        kind: 'coins',
        shape,
        size,
        present: Array.from({ length: total }, (_, i) => here.has(i + 1)),
        lastTaken: before.filter((c) => !here.has(c)),
        toMove,
        ...(scores && scores.length === 2 ? { scores: [scores[0]!, scores[1]!] as const } : {}),
      };
    }
    case 'end-game': {
      const row = nums(j['row']);
      const sc = nums(j['scores']);
      const scores: readonly [number, number] = [sc[0] ?? 0, sc[1] ?? 0];
      const before = p ? nums(p['row']) : [];
      if (before.length === row.length + 1) {
        // The number just taken is the end of the previous row that is not in this one.
        const fromLeft = row.every((v, i) => v === before[i + 1]);
        return fromLeft
          ? { kind: 'end-game', row: before, lo: 1, hi: before.length, scores, toMove, lastIndex: 0 }
          : { kind: 'end-game', row: before, lo: 0, hi: before.length - 1, scores, toMove, lastIndex: before.length - 1 };
      }
      return { kind: 'end-game', row, lo: 0, hi: row.length, scores, toMove, lastIndex: null };
    }
    default: {
      // A user's game (games/): its heaps as piles when it gives a `view`, else its own text.
      if (game.view) return pilesView(nums(game.view(json).piles), prevJson === undefined || prevJson === null ? [] : nums(game.view(prevJson).piles), game.title, toMove);
      return { kind: 'text', text, toMove };
    }
  }
}

/** Piles with the last move marked: the one pile that shrank between the two positions (none after a split). */
function pilesView(piles: number[], before: readonly number[], rule: string, toMove: Seat): PilesView {
  const changed = before.length === piles.length ? piles.findIndex((x, i) => x !== before[i]) : -1;
  return { kind: 'piles', piles, last: changed >= 0 ? { pile: changed, amount: before[changed]! - piles[changed]! } : null, rule, toMove };
}

/** Lines a board picture takes (the pictures' own layout rules, so the live view can budget its height). */
export function pictureLines(view: BoardView, width: number): number {
  switch (view.kind) {
    case 'pile':
      return Math.max(1, layoutStones(view.pile, view.taken, width).lines.length) + (view.family === 'no-repeat' ? 3 : 2);
    case 'piles':
      return view.piles.length + 1;
    case 'coins':
      return view.size + 1;
    case 'end-game':
      return 2;
    case 'text':
      return view.text.split('\n').length;
  }
}
