import { Box, Text, useApp, useInput, useStdout } from 'ink';
import { useEffect, useState, type ReactNode } from 'react';
import { KEYS } from '../text/keys.ts';
import { ThemeContext, type Theme } from '../text/theme.ts';
import { KeysEnabled } from './use-keys.ts';

/** The smallest terminal the interactive screens are laid out for. */
export const MIN_COLUMNS = 60;
export const MIN_ROWS = 20;

/** The terminal's size, following resizes (80×24 when unknown). */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = (): { columns: number; rows: number } => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/** The one line shown instead of a broken layout, or null when the terminal is large enough. */
export function tooSmall(columns: number, rows: number): string | null {
  if (columns >= MIN_COLUMNS && rows >= MIN_ROWS) return null;
  return `terminal too small: ${MIN_COLUMNS}×${MIN_ROWS} needed (now ${columns}×${rows})`;
}

type Props = { readonly theme: Theme; readonly children?: ReactNode };

/**
 * The root of every interactive app: the theme chosen on the command line, and a size guard. In a
 * terminal smaller than 60×20 it shows one line saying so (q still quits) instead of a broken
 * layout, and the app comes back as soon as the terminal is enlarged, as it was: it stays mounted
 * meanwhile (a game in progress goes on where it was), hidden and deaf to keys.
 */
export function Screen({ theme, children }: Props) {
  const { columns, rows } = useTerminalSize();
  const small = tooSmall(columns, rows);
  return (
    <ThemeContext.Provider value={theme}>
      <KeysEnabled.Provider value={small === null}>
        <Box display={small ? 'none' : 'flex'} flexDirection="column">
          {children}
        </Box>
      </KeysEnabled.Provider>
      {small ? <TooSmall text={small} /> : null}
    </ThemeContext.Provider>
  );
}

function TooSmall({ text }: { readonly text: string }) {
  const { exit } = useApp();
  useInput((input, key) => {
    if (KEYS.quit.match(input, key)) exit();
  });
  return <Text>{`${text}; q quits`}</Text>;
}
