import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';
import { waitFor } from '../patience.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
if (!HAVE_TMUX) console.warn('explain.e2e: tmux is not installed, skipping the terminal tests (CI installs it)');

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe.skipIf(!HAVE_TMUX)('arena play: levels and explain in a real terminal', () => {
  it('plays optimal at easy strength and explains Nim with e', async () => {
    session = new TmuxSession(`node bin/arena.mjs play "piles{rule=nim;piles=3,4,5}" --bot optimal:strength=easy --first me --seed 7`, ROOT);
    const t = session;
    let screen = await t.waitFor('Your move');
    expect(screen).toContain('against optimal (easy)');
    t.send('e');
    screen = await t.waitFor('why (your position)');
    expect(screen).toContain('pile 1: 3 = 011');
    expect(screen).toContain('pile 3: 5 = 101');
    expect(screen).toContain('take 2 from pile 1 (3 → 1) and the nim-sum becomes 0');
    t.send('q');
    await waitFor(() => t.exitStatus() !== null, 'the arena to exit');
    expect(t.exitStatus()).toBe(0);
  });
});
