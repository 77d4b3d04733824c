import type { Instance } from 'ink';
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
  // The keyboard first: keys typed while the rest loads are kept for the screen, not echoed.
  const { keyStdin } = await import('../tui/ui/key-stdin.ts');
  const stdin = keyStdin();
  const [ink, { createElement }, { PlayApp }, { ReplayApp }, { HomeApp }, { Screen }, { makeTheme }] = await Promise.all([
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
  /** Ink's `render`, reading the terminal a key at a time (src/tui/ui/key-stdin.ts). */
  const render = (tree: ReactElement): Instance => ink.render(tree, stdin ? { stdin: stdin as unknown as NodeJS.ReadStream } : {});
  return { render, createElement, screen, PlayApp, ReplayApp, HomeApp };
}

/** The theme the flags choose (unset ones are left to the environment). */
export function themeChoice(flags: ScreenFlags): ThemeChoice {
  return { ...(flags.theme !== undefined ? { theme: flags.theme } : {}), ...(flags.plain !== undefined ? { plain: flags.plain } : {}) };
}
