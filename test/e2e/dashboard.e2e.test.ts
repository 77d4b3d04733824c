import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';
import { waitFor } from '../patience.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
if (!HAVE_TMUX) console.warn('dashboard.e2e: tmux is not installed, skipping the terminal tests (CI installs it)');

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe.skipIf(!HAVE_TMUX)('tournament dashboard in a real terminal', () => {
  it('shows live games and standings; q stops it with the results saved and the resume command printed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arena-dash-'));
    // Long enough (thousands of games) that it is still running when q is pressed.
    session = new TmuxSession(
      `node bin/arena.mjs tournament --bots random,greedy,optimal --games "subtraction{moves=1,2,3;n=20..40}" --deals 2000 --seed 3 --concurrency 2 --out ${out}`,
      ROOT,
      100,
      30,
    );
    const t = session;
    await t.waitFor(/\d+\/12,000 /);
    await t.waitFor(/#\d+ \S+ vs \S+ · subtraction/); // a live board
    t.send('2');
    let screen = await t.waitFor(/#\s+bot\s+points\s+W\/D\/L/);
    expect(screen).toMatch(/^1\s+(random|greedy|optimal)\s+\d/m);
    // p pauses the run itself (not just the display): the games in flight finish, then nothing.
    t.send('p');
    await t.waitFor(/ 1 variant · paused/); // one variant: the header says so in the singular
    await t.waitFor('paused: games in flight finish, no new game starts');
    const doneNow = (): number => Number((/([\d,]+)\/12,000/.exec(t.screen())?.[1] ?? '-1').replace(/,/g, ''));
    // The games in flight finish and their lines are rendered: the count then stays put (3 s: the
    // last lines can come more than 2 s after the pause, seen once on a quiet machine).
    let held = doneNow();
    for (let since = Date.now(); Date.now() - since < 3000; await new Promise((r) => setTimeout(r, 100))) {
      if (doneNow() !== held) [held, since] = [doneNow(), Date.now()];
    }
    expect(held).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(doneNow()).toBe(held);
    t.send('p');
    await t.waitFor(/ 1 variant · running/);
    await waitFor(() => doneNow() > held, 'games to be played again');
    t.send('q');
    screen = await t.waitFor(/Resume with: (npx )?arena tournament --resume/);
    expect(screen).toMatch(/Stopped after \d+ of 12000 games; results saved in/);
    await waitFor(() => t.exitStatus() !== null, 'the arena to exit');
    expect(t.exitStatus()).toBe(130);
    const [dir] = readdirSync(out);
    const results = join(out, dir!);
    expect(existsSync(join(results, 'spec.json'))).toBe(true);
    const log = readFileSync(join(results, 'games.jsonl'), 'utf8');
    expect(log.endsWith('\n')).toBe(true);
    const lines = log.trimEnd().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.length).toBe(Number(/Stopped after (\d+) of/.exec(screen)![1]));
    // Lines the terminal wrapped joined back (tmux -J): the command is longer than the terminal is wide when the path is long.
    expect(t.screen(true)).toContain(`--resume "${results}"`);
  });
});
