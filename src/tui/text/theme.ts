import { createContext, useContext } from 'react';

/**
 * Every colour and glyph the TUI draws with, in one place. Colours are semantic (what a thing is,
 * not what it looks like) so components never name a colour; with `NO_COLOR` set every colour is
 * empty and meaning is carried by glyphs and text alone (https://no-color.org).
 */
/** Props to spread on an Ink `<Text>`: a colour, or nothing under NO_COLOR. */
export type Paint = { readonly color?: string };

/** The semantic colours (as Paint props) and the glyphs of the TUI. */
export interface Theme {
  /** False when NO_COLOR is set: components must not rely on colour to say anything. */
  readonly color: boolean;
  /** Colours chosen for a light background (dark ones for a dark background). */
  readonly light: boolean;
  /** Screen-reader mode (`--plain`): no box drawing, plain ASCII pictures, text says everything. */
  readonly plain: boolean;
  readonly accent: Paint;
  readonly muted: Paint;
  readonly stone: Paint;
  /** Stones or coins taken by the last move. */
  readonly taken: Paint;
  readonly coin: Paint;
  readonly good: Paint;
  readonly bad: Paint;
  readonly warn: Paint;
  /** The human (play) or the first seat (dashboards). */
  readonly you: Paint;
  /** The bot (play) or the second seat. */
  readonly them: Paint;
  readonly glyph: {
    readonly stone: string;
    readonly takenStone: string;
    readonly coin: string;
    readonly emptyCell: string;
    readonly takenCoin: string;
    readonly barFull: string;
    readonly barEmpty: string;
    readonly leftEnd: string;
    readonly rightEnd: string;
    readonly pointer: string;
    readonly ok: string;
    readonly mistake: string;
    /** Play's coin cursor: the two characters around the cell under the cursor (`[13]`). */
    readonly cursorPair: string;
    /** The coin marked as the first of a line (`{11}`). */
    readonly markPair: string;
    /** The coins between the mark and the cursor of a legal take (`(12)`). */
    readonly linePair: string;
  };
}

const GLYPHS: Theme['glyph'] = {
  stone: '●',
  takenStone: '○',
  coin: '●',
  emptyCell: '·',
  takenCoin: '×',
  barFull: '█',
  barEmpty: '░',
  leftEnd: '▶',
  rightEnd: '◀',
  pointer: '❯',
  ok: '✓',
  mistake: '✗',
  cursorPair: '[]',
  markPair: '{}',
  linePair: '()',
};

/** ASCII glyphs for `--plain`: what a screen reader reads out as plain characters. */
const PLAIN_GLYPHS: Theme['glyph'] = {
  stone: 'o',
  takenStone: '.',
  coin: 'o',
  emptyCell: '.',
  takenCoin: 'x',
  barFull: '#',
  barEmpty: '-',
  leftEnd: '>',
  rightEnd: '<',
  pointer: '>',
  ok: 'ok',
  mistake: 'mistake',
  cursorPair: '[]',
  markPair: '{}',
  linePair: '()',
};

/** What the command line chose: `--theme` and `--plain` (the CLI fills these; tests pass their own). */
export interface ThemeChoice {
  readonly theme?: 'light' | 'dark' | 'auto';
  readonly plain?: boolean;
}

/**
 * Whether the terminal's background is light: `--theme` (or `ARENA_THEME`), else `COLORFGBG` (set by rxvt, Konsole,
 * iTerm2 and others as `fg;bg`, background 7 or 9–15 meaning a light one), else dark.
 */
export function lightBackground(choice: ThemeChoice['theme'], env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const chosen = choice === 'light' || choice === 'dark' ? choice : env['ARENA_THEME'];
  if (chosen === 'light' || chosen === 'dark') return chosen === 'light';
  const bg = Number(env['COLORFGBG']?.split(';').pop());
  return Number.isInteger(bg) && (bg === 7 || (bg >= 9 && bg <= 15));
}

/** True when the environment asks for no colour (NO_COLOR set to anything non-empty). */
export function noColorRequested(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const v = env['NO_COLOR'];
  return v !== undefined && v !== '';
}

/**
 * Builds the theme for an environment and the command line's choice: colours for a dark or a light
 * background, or none at all under NO_COLOR; plain ASCII and no boxes under `--plain`.
 */
export function makeTheme(env: Readonly<Record<string, string | undefined>> = process.env, choice: ThemeChoice = {}): Theme {
  const on = !noColorRequested(env);
  const light = lightBackground(choice.theme, env);
  const c = (dark: string, onLight: string): Paint => (on ? { color: light ? onLight : dark } : {});
  return {
    color: on,
    light,
    plain: choice.plain === true,
    // On a light background yellow and cyan vanish: darker shades of the same meanings.
    accent: c('cyan', '#0550ae'),
    muted: c('gray', '#57606a'),
    stone: c('yellow', '#7d4e00'),
    taken: c('red', '#b00020'),
    coin: c('yellow', '#7d4e00'),
    good: c('green', '#116329'),
    bad: c('red', '#b00020'),
    warn: c('magenta', '#8250df'),
    you: c('green', '#116329'),
    them: c('blue', '#0550ae'),
    glyph: choice.plain ? PLAIN_GLYPHS : GLYPHS,
  };
}

/** The theme every component reads; a provider can swap it (tests render with NO_COLOR). */
export const ThemeContext = createContext<Theme>(makeTheme());

/** The active theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
