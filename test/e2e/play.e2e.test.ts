import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';
import { waitFor } from '../patience.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
if (!HAVE_TMUX) console.warn('play.e2e: tmux is not installed, skipping the terminal tests (CI installs it)');

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe.skipIf(!HAVE_TMUX)('arena play in a real terminal', () => {
  it('plays subtraction{1,2,3; n=10} against optimal to the end screen and quits', async () => {
    session = new TmuxSession(`node bin/arena.mjs play "subtraction{moves=1,2,3;n=10}" --bot optimal --first me --seed 7`, ROOT);
    const t = session;
    let screen = await t.waitFor('Your move');
    expect(screen).toContain('10 stones');
    // 10 is won: take 2 to leave a multiple of 4, then answer every take k with 4 - k.
    t.send('h');
    screen = await t.waitFor('winning moves: 2');
    let pile = 10;
    const shownPile = (screen: string): number | null => {
      const m = /(\d+) stones?/.exec(screen);
      return m ? Number(m[1]) : null;
    };
    while (pile > 0) {
      const take = pile % 4;
      t.send(String(take), true);
      await t.waitFor(`Your move: ${take}`);
      t.send('Enter');
      pile -= take;
      if (pile === 0) break;
      // The bot's reply: a board showing fewer stones than our move left, and our turn again.
      const left = pile;
      screen = await t.waitFor((s) => s.includes('Your move: (') && (shownPile(s) ?? left) < left);
      expect(screen).toMatch(/optimal played \d in /);
      pile = shownPile(screen)!;
      expect(pile % 4).not.toBe(0);
    }
    screen = await t.waitFor('Game over');
    expect(screen).toContain('you won');
    expect(screen).toMatch(/Review: (\d+) of \1 moves optimal/);
    t.send('q');
    await waitFor(() => t.exitStatus() !== null, 'the arena to exit');
    expect(t.exitStatus()).toBe(0);
  });

  it('Ctrl-C quits at once while the bot thinks: the bot runs in a worker thread, which goes with the game', async () => {
    // fx-loops never answers; on the arena's own thread (--isolation none) it would hold the keys too.
    // (Discovery reads the fixture folder's 15 files first: slow the first time, then cached.)
    session = new TmuxSession(
      `node bin/arena.mjs play "subtraction{moves=1,2,3;n=10}" --bots-dir test/fixtures/bots --bot fx-loops --first bot --time-per-move 60000 --seed 1`,
      ROOT,
    );
    await session.waitFor('fx-loops is thinking');
    session.send('C-c');
    expect(await session.exited()).toBe(130); // interrupted, as CLI.md's exit codes say (q quits with 0)
  });
});
