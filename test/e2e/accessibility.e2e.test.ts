/**
 * A terminal that fits every person (issue 17): a size guard instead of a broken layout, a theme for
 * light backgrounds, `--plain` for screen readers (a transcript of lines), and `?` listing every key of the
 * screen — each in a real terminal through the real bin.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../cli/run.ts';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PLAY = `node bin/arena.mjs play "subtraction{moves=1,2,3;n=10}" --bot optimal --first me --seed 7`;

/** The screen as one line: the guard's message wraps at a narrow terminal's edge. */
const flat = (s: string): string => s.replace(/\s+/g, ' ');
// Colours on, whatever the test runner's environment says (truecolor: hex colours stay hex).
const COLOURS = 'env -u NO_COLOR FORCE_COLOR=3';

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe.skipIf(!HAVE_TMUX)('a terminal that fits every person (real terminal)', () => {
  it('a terminal smaller than 60×20 gets one line saying so; enlarged, the game appears', async () => {
    session = new TmuxSession(PLAY, ROOT, 50, 15);
    const t = session;
    await t.waitFor((s) => flat(s).includes('terminal too small: 60×20 needed (now 50×15); q quits'));
    expect(t.screen()).not.toContain('Your move');
    t.resize(100, 30);
    await t.waitFor('Your move');
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('the dashboard in a small terminal says so instead of breaking, and q still works', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arena-small-'));
    session = new TmuxSession(`node bin/arena.mjs tournament tournaments/quick.json --isolation none --out ${out}`, ROOT, 56, 16);
    const t = session;
    await t.waitFor((s) => /terminal too small: 60×20 needed \(now 56×16\); \d+\/36 games/.test(flat(s)));
    await t.waitFor((s) => flat(s).includes('finished (q closes)'));
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('--plain is a transcript of lines (no boxes, no pictures), answered a line at a time', async () => {
    session = new TmuxSession(`${PLAY} --plain`, ROOT, 100, 30);
    let screen = await session.waitFor('Your move (1, 2, 3):');
    expect(screen).not.toMatch(/[╭╮╰╯│─●○]/);
    expect(screen).toContain('Position: pile 10, first to move.');
    session.send('2', true);
    session.send('Enter');
    // The move and the reply are new lines under the old ones, which stay as they were.
    screen = await session.waitFor('Position: pile 7, first to move.');
    expect(screen).toMatch(/Position: pile 10, first to move\.\nYour move \(1, 2, 3\):\n2\nYou played 2\.\noptimal played 1 in \d+ ms\./);
    session.send('q', true);
    session.send('Enter');
    expect(await session.exited()).toBe(0);
  });

  it('--theme light drops the yellow that vanishes on white', async () => {
    session = new TmuxSession(`${COLOURS} ${PLAY}`, ROOT, 100, 30);
    await session.waitFor('Your move');
    expect(session.styled()).toMatch(/\u001b\[(?:[\d;]*;)?33m●/); // dark theme: yellow stones
    session.send('q');
    await session.exited();
    session.kill();

    session = new TmuxSession(`${COLOURS} ${PLAY} --theme light`, ROOT, 100, 30);
    await session.waitFor('Your move');
    const styled = session.styled();
    expect(styled).toContain('●');
    expect(styled).not.toMatch(/\u001b\[(?:[\d;]*;)?33m/); // no yellow anywhere
    session.send('q');
    expect(await session.exited()).toBe(0);
  });

  it('? lists every key of the play screen, and of the replay screen', async () => {
    session = new TmuxSession(PLAY, ROOT, 100, 40);
    const t = session;
    await t.waitFor('Your move');
    t.send('?');
    const screen = await t.waitFor('Keys');
    for (const key of ['↑', 'enter', '0–9 : - L R', '⌫', 'esc', 'h ', 'e ', 'u ', '? ', 'q ']) expect(screen).toContain(key);
    t.send('?');
    await t.waitFor((s) => !s.includes('Keys'));
    t.send('q');
    expect(await t.exited()).toBe(0);
    t.kill();

    const out = mkdtempSync(join(tmpdir(), 'arena-keys-'));
    expect((await run('tournament', 'tournaments/quick.json', '--isolation', 'none', '--deals', '1', '--out', out)).code).toBe(0);
    const { readdirSync } = await import('node:fs');
    session = new TmuxSession(`node bin/arena.mjs replay ${join(out, readdirSync(out)[0]!)} --game 1`, ROOT, 100, 40);
    await session.waitFor('quit');
    session.send('?');
    const keys = await session.waitFor('Keys');
    for (const line of ['previous move', 'next move', 'start position', 'final position', 'back to the list of games', 'show or hide this help']) expect(keys).toContain(line);
    session.send('q');
    expect(await session.exited()).toBe(0);
  });
});
