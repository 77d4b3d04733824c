import type { ReactElement } from 'react';
import type { ThemeChoice } from '../tui/text/theme.ts';

/** `--theme` (a global flag) and a command's `--plain`, as a command's arguments carry them. */
export interface ScreenFlags {
  readonly theme?: ThemeChoice['theme'] | undefined;
  readonly plain?: boolean | undefined;
}

/**
 * Loads Ink, React and the interactive apps on demand: commands that print plain text (`games`,
 * `analyze`, `bots`) should not pay for Ink's import.
 */
export async function loadInk(flags: ScreenFlags = {}) {
  const [{ render }, { createElement }, { PlayApp }, { ReplayApp }, { HomeApp }, { Screen }, { makeTheme }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../tui/play/PlayApp.tsx'),
    import('../tui/replay/ReplayApp.tsx'),
    import('../tui/home/HomeApp.tsx'),
    import('../tui/ui/Screen.tsx'),
    import('../tui/text/theme.ts'),
  ]);
  const theme = makeTheme(process.env, themeChoice(flags));
  /** An app inside the root every interactive screen has: the theme and the terminal size guard. */
  const screen = (app: ReactElement): ReactElement => createElement(Screen, { theme }, app);
  return { render, createElement, screen, PlayApp, ReplayApp, HomeApp };
}

/** The theme the flags choose (unset ones are left to the environment). */
export function themeChoice(flags: ScreenFlags): ThemeChoice {
  return { ...(flags.theme !== undefined ? { theme: flags.theme } : {}), ...(flags.plain !== undefined ? { plain: flags.plain } : {}) };
}
