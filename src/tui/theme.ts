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

/** True when the environment asks for no colour (NO_COLOR set to anything non-empty). */
export function noColorRequested(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const v = env['NO_COLOR'];
  return v !== undefined && v !== '';
}

/** Builds the theme for an environment: full colour, or none at all under NO_COLOR. */
export function makeTheme(env: Readonly<Record<string, string | undefined>> = process.env): Theme {
  const on = !noColorRequested(env);
  const c = (name: string): Paint => (on ? { color: name } : {});
  return {
    color: on,
    accent: c('cyan'),
    muted: c('gray'),
    stone: c('yellow'),
    taken: c('red'),
    coin: c('yellow'),
    good: c('green'),
    bad: c('red'),
    warn: c('magenta'),
    you: c('green'),
    them: c('blue'),
    glyph: GLYPHS,
  };
}

/** The theme every component reads; a provider can swap it (tests render with NO_COLOR). */
export const ThemeContext = createContext<Theme>(makeTheme());

/** The active theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
