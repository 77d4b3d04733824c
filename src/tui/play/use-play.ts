import { useEffect, useState, useSyncExternalStore } from 'react';
import type { GameSetup, PlaySession, PlayState, PlayTable } from '../../play/index.ts';

/**
 * Opens a game at the table for `setup` (null: none yet) and closes it when the setup changes or
 * the screen goes away. Null until the game is open, and never a session of an earlier setup.
 */
export function usePlaySession(table: PlayTable, setup: GameSetup | null): PlaySession | null {
  const [opened, setOpened] = useState<{ readonly setup: GameSetup; readonly session: PlaySession } | null>(null);
  useEffect(() => {
    if (!setup) return;
    const session = table.open(setup);
    setOpened({ setup, session });
    return () => session.close();
  }, [table, setup]);
  return opened && opened.setup === setup ? opened.session : null;
}

/** The session's state, re-rendering on every change; moves and undo go to the session itself. */
export function usePlay(session: PlaySession): PlayState {
  return useSyncExternalStore(session.subscribe, session.getSnapshot);
}
