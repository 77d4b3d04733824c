import type { Key } from 'ink';

/** A key binding: what the user presses, how help shows it, and what it does. */
export interface Binding {
  /** How help and footers show the key. */
  readonly label: string;
  /** What the key does, for help screens. */
  readonly help: string;
  /** Whether a keypress (Ink's `useInput` arguments) triggers this binding. */
  readonly match: (input: string, key: Key) => boolean;
}

const char =
  (...chars: string[]) =>
  (input: string, key: Key): boolean =>
    !key.ctrl && !key.meta && chars.includes(input);

/**
 * Every key binding of the TUI, in one table, so footers, help screens and handlers can never
 * disagree (gemini-cli's keyBindings). Components match with `KEYS.x.match(input, key)`.
 */
export const KEYS = {
  // play
  hints: { label: 'h', help: 'show or hide hints (won/lost, winning moves)', match: char('h') },
  explain: { label: 'e', help: 'explain why the position is won or lost, in the game’s own terms', match: char('e') },
  undo: { label: 'u', help: 'undo your last move and the bot’s reply', match: char('u') },
  up: { label: '↑', help: 'previous item', match: (_i: string, k: Key) => k.upArrow },
  down: { label: '↓', help: 'next item', match: (_i: string, k: Key) => k.downArrow },
  choose: { label: 'enter', help: 'play the highlighted (or typed) move', match: (_i: string, k: Key) => k.return },
  typeMove: { label: '0–9 : - L R', help: 'type a move (filters the list)', match: (i: string, k: Key) => !k.ctrl && !k.meta && i !== '' && [...i].every((c) => /^[0-9:\-LRlr]$/.test(c)) },
  erase: { label: '⌫', help: 'erase a typed character', match: (_i: string, k: Key) => k.backspace || k.delete },
  clear: { label: 'esc', help: 'clear what was typed', match: (_i: string, k: Key) => k.escape },
  again: { label: 'a', help: 'play again', match: char('a') },
  // play, coin board: a cursor over the coins instead of the move list (arrows then move the cursor, not the list)
  cursor: { label: 'c', help: 'coin board: choose with a cursor over the coins (c again: the move list)', match: char('c') },
  cursorMove: {
    label: '←↑↓→',
    help: 'move the cursor over the coins',
    match: (_i: string, k: Key) => k.upArrow || k.downArrow || k.leftArrow || k.rightArrow,
  },
  mark: { label: 'space', help: 'mark the first coin of a line', match: (i: string, k: Key) => !k.ctrl && i === ' ' },
  take: { label: 'enter', help: 'take the line from the mark to the cursor (no mark: the coin under it)', match: (_i: string, k: Key) => k.return },
  unmark: { label: 'esc', help: 'clear the mark, or leave the cursor for the move list', match: (_i: string, k: Key) => k.escape },
  // dashboard
  nextView: { label: 'tab', help: 'next view', match: (_i: string, k: Key) => k.tab && !k.shift },
  prevView: { label: 'shift-tab', help: 'previous view', match: (_i: string, k: Key) => k.tab && k.shift },
  view: { label: '1–4', help: 'live · standings · crosstable · results', match: char('1', '2', '3', '4') },
  pause: { label: 'p', help: 'pause or resume the tournament', match: char('p') },
  help: { label: '?', help: 'show or hide this help', match: char('?') },
  quit: { label: 'q', help: 'quit (results so far are saved)', match: (i: string, k: Key) => char('q')(i, k) || (k.ctrl && i === 'c') },
  // replay
  back: { label: '←', help: 'previous move', match: (_i: string, k: Key) => k.leftArrow },
  forward: { label: '→', help: 'next move', match: (_i: string, k: Key) => k.rightArrow },
  start: { label: 'home', help: 'start position', match: (i: string, k: Key) => k.home || char('g')(i, k) },
  end: { label: 'end', help: 'final position', match: (i: string, k: Key) => k.end || char('G')(i, k) },
  list: { label: 'l', help: 'back to the list of games', match: (i: string, k: Key) => char('l')(i, k) || k.escape },
  // lists (replay's games, the dashboard's results, the rules)
  pageUp: { label: 'pgup', help: 'a page up', match: (_i: string, k: Key) => k.pageUp },
  pageDown: { label: 'pgdn', help: 'a page down', match: (_i: string, k: Key) => k.pageDown },
  filter: { label: '/', help: 'filter the list: type words, esc clears', match: char('/') },
} as const satisfies Record<string, Binding>;

/** Characters that may be typed into a move (move notation of every family: `5`, `2:9`, `13-15`, `L`). */
export const MOVE_CHAR = /^[0-9:\-LRlr]$/;

/** One-line footer text for a list of bindings: `h hints · u undo · q quit`. */
export function footer(...bindings: readonly (readonly [Binding, string])[]): string {
  return bindings.map(([b, what]) => `${b.label} ${what}`).join(' · ');
}
