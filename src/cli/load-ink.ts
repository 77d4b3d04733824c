import type { ReactElement } from 'react';
import type { ThemeChoice } from '../tui/text/theme.ts';
/**
 * Loads Ink, React and the interactive apps on demand: importing Ink costs about half a second, which
 * commands that print plain text (`games`, `analyze`, `bots`) should not pay.
 */
export async function loadInk(choice: ThemeChoice = {}) {
  const [{ render }, { createElement }, { PlayApp }, { ReplayApp }, { HomeApp }, { Screen }, { makeTheme }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../tui/play/PlayApp.tsx'),
    import('../tui/replay/ReplayApp.tsx'),
    import('../tui/home/HomeApp.tsx'),
    import('../tui/ui/Screen.tsx'),
    import('../tui/text/theme.ts'),
  ]);
  const theme = makeTheme(process.env, { ...themeFromCli(), ...choice });
  /** An app inside the root every interactive screen has: the theme and the terminal size guard. */
  const screen = (app: ReactElement): ReactElement => createElement(Screen, { theme }, app);
  return { render, createElement, screen, PlayApp, ReplayApp, HomeApp };
}

let cliChoice: ThemeChoice = {};

/** Records `--theme` (a global flag) for the screens this run opens. */
export function setThemeFromCli(choice: ThemeChoice): void {
  cliChoice = choice;
}

/** What `setThemeFromCli` recorded. */
export function themeFromCli(): ThemeChoice {
  return cliChoice;
}
