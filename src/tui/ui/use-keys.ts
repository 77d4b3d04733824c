/**
 * Keys for the screen that is showing: every interactive component reads the keyboard through
 * `useKeys` (Ink's `useInput`) and its menus and text fields through `useKeysEnabled`, so that a
 * screen kept mounted but hidden (Screen.tsx, while the terminal is too small) keeps its state and
 * takes no keys.
 */
import { useInput, type Key } from 'ink';
import { createContext, useContext } from 'react';

/** Whether the screen below reads keys (false while it is hidden). */
export const KeysEnabled = createContext(true);

/** Whether this part of the screen may take keys now. */
export function useKeysEnabled(): boolean {
  return useContext(KeysEnabled);
}

/** Ink's `useInput`, inactive while the screen is hidden (and when `isActive` is false). */
export function useKeys(handler: (input: string, key: Key) => void, options: { isActive?: boolean } = {}): void {
  const enabled = useKeysEnabled();
  useInput(handler, { isActive: enabled && options.isActive !== false });
}
