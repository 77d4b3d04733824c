/**
 * A user's game family in a real terminal: the Kayles template `arena new-game` writes, from a
 * temporary folder, drawn by its own `formatState` (the generic board): a human game against the
 * optimal bot that its solver makes possible, and the replay of a tournament game.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../arena/helpers.ts';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
if (!HAVE_TMUX) console.warn('user-game.e2e: tmux is not installed, skipping the terminal tests (CI installs it)');

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe.skipIf(!HAVE_TMUX)('arena play on a game from --games-dir', () => {
  /** The folder `arena new-game kayles` wrote (once: both tests only read it). */
  let dir: string;
  beforeAll(() => {
    dir = tempDir('arena-games-');
    const made = spawnSync(process.execPath, ['bin/arena.mjs', 'new-game', 'kayles', '--dir', dir], { cwd: ROOT, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
  });

  it('plays Kayles with three pins against optimal to a win and quits', async () => {
    session = new TmuxSession(`node bin/arena.mjs play "kayles{pins=3}" --games-dir ${dir} --bot optimal --first me --seed 1`, ROOT);
    const t = session;
    let screen = await t.waitFor('Your move');
    expect(screen).toContain('row 1: ||| (3)');
    // Knock out the middle pin: two rows of one are lost for the player to move.
    t.send('1:1:1', true);
    await t.waitFor('Your move: 1:1:1');
    t.send('Enter');
    screen = await t.waitFor('optimal played 1:1:0');
    expect(screen).toContain('row 1: | (1)');
    expect(screen).not.toContain('row 2:');
    t.send('1:1:0', true);
    await t.waitFor('Your move: 1:1:0');
    t.send('Enter');
    screen = await t.waitFor('Game over');
    expect(screen).toContain('you won');
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it("replays a tournament's game of it, the folder found from the saved spec", async () => {
    const out = tempDir();
    const played = spawnSync(
      process.execPath,
      ['bin/arena.mjs', 'tournament', '--games-dir', dir, '--games', 'kayles{rows=2}', '--bots', 'random,optimal', '--deals', '1', '--isolation', 'none', '--plain', '--out', out],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(played.status, played.stderr).toBe(0);
    // No --games-dir: replay reads the results folder's spec.json for its gameDirs.
    session = new TmuxSession(`node bin/arena.mjs replay ${join(out, readdirSync(out)[0]!)} --game 1`, ROOT);
    const screen = await session.waitFor('(start position)');
    expect(screen).toContain('kayles{rows=2;pins=5..12}');
    expect(screen).toMatch(/row 1: \|+ \(\d+\).*\n.*row 2: \|+ \(\d+\)/);
    session.send('q');
    expect(await session.exited()).toBe(0);
  });
});
