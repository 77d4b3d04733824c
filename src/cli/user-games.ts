import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SPEC_BYTES, textFileProblem } from '../platform/files.ts';
import { PACKAGE_ROOT } from '../platform/paths.ts';

/*
 * Users' game families for a command: `games/` and the `--games-dir` folders (every command), a
 * spec's `gameDirs` (tournament, match, resume). Loading is skipped outright, module and all, when
 * there is nothing to load, so commands on the built-in families start as fast as before.
 */

/** Loads the game files of `games/` and `dirs` into this process's registry (see hosting/game-discovery.ts). */
export async function loadUserGames(dirs: readonly string[] = []): Promise<void> {
  const builtin = join(PACKAGE_ROOT, 'games');
  // The names hosting's `isGameFileName` takes, tested here without loading hosting for nothing.
  const some = dirs.length > 0 || (existsSync(builtin) && readdirSync(builtin).some((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('.')));
  if (!some) return;
  await (await import('../hosting/index.ts')).loadGameDirs(dirs);
}

/** The `gameDirs` of a raw spec (a parsed spec file, or a results folder's `spec.json`), if it names any. */
export function specGameDirs(raw: unknown): string[] {
  const dirs = raw !== null && typeof raw === 'object' ? (raw as { gameDirs?: unknown }).gameDirs : undefined;
  return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : [];
}

/** The `gameDirs` of a results folder's saved spec (none when it cannot be read: resume reports that itself). */
export function savedGameDirs(resultsDir: string): string[] {
  const file = join(resultsDir, 'spec.json');
  if (textFileProblem(file, MAX_SPEC_BYTES) !== null) return []; // opening the results folder says what is wrong with it
  try {
    return specGameDirs(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return []; // unreadable: opening the results folder says why, in its own words
  }
}
