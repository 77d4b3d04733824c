/**
 * A new user's first minutes in a real terminal (issue 17): a finished tournament keeps its
 * dashboard on the final standings until `q` (`--exit` closes it for scripts), and a stopped one
 * prints its resume command whole below the torn-down dashboard, even at 80×24.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { run } from '../cli/run.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LogChain, readLogKey } from '../../src/arena/results/index.ts';
import { HAVE_TMUX, TmuxSession } from './tmux.ts';
import { HANG_MS } from '../patience.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// A PATH with node and the system tools but no global `arena`: the printed commands are then `npx arena …`.
const PATH = `PATH=${JSON.stringify(`${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin`)}`;

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

describe.skipIf(!HAVE_TMUX)('the tournament dashboard for a new user (real terminal)', () => {
  it('a finished tournament stays on its final standings, every view browsable, until q', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arena-stay-'));
    session = new TmuxSession(`${PATH} node bin/arena.mjs tournament tournaments/quick.json --isolation none --out ${out}`, ROOT, 100, 30);
    const t = session;
    await t.waitFor('Finished: results in');
    // Still open: the views answer their keys, the help lists them, nothing has exited. (A key
    // pressed while Ink re-attaches its input handler after a frame can be missed: press again.)
    const press = async (key: string, shows: RegExp | string): Promise<void> => {
      // Each wait twice the last: on a busy machine a frame can take seconds to come.
      for (let ms = 3000; ms < HANG_MS; ms *= 2) {
        t.send(key);
        try {
          await t.waitFor(shows, ms);
          return;
        } catch {
          // pressed too early: once more
        }
      }
      await t.waitFor(shows, 1);
    };
    await press('2', /#\s+bot\s+points\s+W\/D\/L/);
    await press('3', /optimal\s+·/);
    await press('4', /#\d+ \w+ vs \w+ [01]-[01]/);
    await press('?', 'Keys');
    expect(t.screen()).toMatch(/q\s+close/);
    t.send('?');
    expect(t.exitStatus()).toBeNull();
    expect(t.screen()).toMatch(/q close/);
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('--exit closes the dashboard when the tournament ends (for scripts)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arena-exit-'));
    session = new TmuxSession(`${PATH} node bin/arena.mjs tournament tournaments/quick.json --isolation none --exit --out ${out}`, ROOT, 100, 30);
    expect(await session.exited()).toBe(0);
    expect(session.screen()).toContain('Finished: results in');
  });

  it('a run that fails after the first frame (no results folder can be made) erases the dashboard: its error stands alone, exit 2', async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs tournament --bots random,greedy --games 'subtraction{moves=1,2;n=5}' --deals 2 --isolation none --out /proc/nope`, ROOT, 100, 30);
    expect(await session.exited()).toBe(2);
    const screen = session.screen(true).trim();
    expect(screen).toMatch(/^arena: Cannot create the results folder \/proc\/nope: /);
    expect(screen).not.toMatch(/tournament|standings|q quit/);
  });

  it('Ctrl-C on the results view at 80×24 prints the whole resume command after the dashboard', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arena-resume-with-a-long-folder-name-'));
    session = new TmuxSession(
      `${PATH} node bin/arena.mjs tournament --bots random,greedy,optimal --games "subtraction{moves=1,2,3;n=20..40}" --deals 20000 --seed 9 --concurrency 2 --out ${out}`,
      ROOT,
      80,
      24,
    );
    const t = session;
    await t.waitFor(/\d+\/120,000 /);
    t.send('4');
    await t.waitFor(/#\d+ \w+ vs \w+ [01]-[01]/);
    t.send('C-c');
    expect(await t.exited()).toBe(130);
    const [dir] = readdirSync(out);
    const command = `Resume with: npx arena tournament --resume "${join(out, dir!)}"`;
    expect(command.length).toBeGreaterThan(80); // longer than the terminal is wide
    const lines = t
      .screen(true)
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
    // The last line (the terminal wrapped it; -J joins it back), whole.
    expect(lines[lines.length - 1]!.trimEnd(), lines.join('\n')).toBe(command);
  });

  it('replay lists the games in schedule order, however the log was written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arena-replay-order-'));
    const made = await run('tournament', 'tournaments/quick.json', '--isolation', 'none', '--deals', '1', '--out', out);
    expect(made.code).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    // Concurrent games are logged as they finish: here, last scheduled first, each line sealed with
    // the folder's key as its runner would have written it (a reordered log fails its checksums).
    const log = join(dir, 'games.jsonl');
    const chain = new LogChain(readLogKey(dir));
    const reversed = readFileSync(log, 'utf8').trimEnd().split('\n').reverse();
    writeFileSync(log, reversed.map((l) => `${chain.seal(l.replace(/,"chk":"[0-9a-f]+"\}$/, '}'))}\n`).join(''));
    session = new TmuxSession(`${PATH} node bin/arena.mjs replay ${dir}`, ROOT, 100, 30);
    const screen = await session.waitFor(/Which game\? \(18 in the log\)/);
    const numbers = [...screen.matchAll(/#(\d+) /g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(10);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    session.send('q');
    expect(await session.exited()).toBe(0);
  });

  it('play: the end screen keeps the review on Enter, names each score, and the board says the game is over', async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs play "end-game{length=4;values=-9..9}" --bot random --first me --seed 3`, ROOT, 100, 30);
    const t = session;
    // Four numbers: after each of my moves and random's answer (which may come within one poll of
    // the screen, so no in-between frame is waited for) two fewer are left.
    for (const left of [2, 0]) {
      await t.waitFor('Your move');
      t.send('Enter'); // the first listed move
      await t.waitFor(`${left} left`);
    }
    let screen = await t.waitFor('Game over');
    expect(screen).toMatch(/(you|random) won \(you -?\d+, random -?\d+\)|Draw \(you -?\d+, random -?\d+\)/);
    expect(screen).not.toMatch(/\d–-\d/);
    expect(screen).toMatch(/0 left · game over/);
    expect(screen).not.toMatch(/to move/);
    t.send('Enter'); // pressed as the game ends: the review stays
    await new Promise((r) => setTimeout(r, 500));
    screen = t.screen();
    expect(screen).toContain('Game over');
    expect(screen).toMatch(/Review: \d+ of \d+ moves optimal/);
    t.send('a');
    await t.waitFor('Your move');
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('play: a pile of 0 stones says game over, not whose move it is', async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs play "subtraction{moves=1,5,8,10;n=5}" --bot optimal --first me --seed 1`, ROOT, 100, 30);
    const t = session;
    await t.waitFor('Your move');
    t.send('5', true);
    await t.waitFor('Your move: 5');
    t.send('Enter');
    const screen = await t.waitFor('Game over');
    expect(screen).toMatch(/│ game over\s+│/);
    expect(screen).not.toContain('to move · takes');
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it("the README's play example deals a position won for the first player, as it says", async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs play "subtraction{moves=1,5,8,10;n=50..200}" --bot optimal --first me --seed 2`, ROOT, 100, 30);
    const t = session;
    await t.waitFor('Your move');
    expect(t.screen()).toContain('179 stones');
    t.send('h');
    await t.waitFor('won for you');
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('keys sent in one burst each count, in order: a move typed with Enter in play (the home menu: below)', async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs play "partizan{left=2,5,9;right=3,4,8;n=25}" --bot optimal --first me --seed 1`, ROOT, 100, 30);
    const t = session;
    await t.waitFor('Your move');
    t.burst('9', 'Enter');
    // The typed move (9), not the highlighted one (2), as the move list keeps it: the board's
    // "16 stones" lasts only until optimal answers, which a busy machine's screen read can miss.
    await t.waitFor(/Moves: 1\. you 9(?!\d)/);
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('home menu: keys sent in one burst each count, in order, and an analysis started from it returns to the menu', async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs`, ROOT, 100, 30);
    const t = session;
    await t.waitFor('Run a tournament');
    t.burst('Down', 'Down', 'Down', 'Enter');
    await t.waitFor('Analyse which game?');
    t.send('Enter');
    await t.waitFor('enter alone: arena analyze subtraction');
    t.burst('-', '-', 'u', 'p', 't', 'o', ' ', '2', '0', 'Enter');
    // The analysis is printed, then the menu is back below it and still answers.
    await t.waitFor((s) => /P-positions up to 20/.test(s) && s.lastIndexOf('Run a tournament') > s.indexOf('P-positions up to 20'));
    expect(t.exitStatus()).toBeNull();
    t.send('q');
    expect(await t.exited()).toBe(0);
  });

  it('home menu: "List the bots" lists them wrapped between words, aligned, and returns to the menu', async () => {
    session = new TmuxSession(`${PATH} node bin/arena.mjs`, ROOT, 80, 24);
    const t = session;
    await t.waitFor('Run a tournament');
    t.send('Down');
    await t.waitFor('❯ Play a bot');
    t.send('Down');
    await t.waitFor('❯ List the bots');
    t.send('Enter');
    // The menu is back, below the list, and still answers.
    await t.waitFor((s) => s.includes('Choose a bot with options') && s.includes('Run a tournament'));
    expect(t.exitStatus()).toBeNull();
    const screen = t.screen(false, true); // the whole list, with what scrolled off the top
    const lines = screen.split('\n');
    // No word cut at the terminal's edge: every line ends with a whole word (the list wraps itself).
    for (const line of lines) expect(line.length).toBeLessThan(80);
    expect(screen).toMatch(/an integer from 1 to 10000000/);
    // Continuation lines of an option start under its description, not at the margin.
    // hybrid's `threshold` (112 characters) wraps at 80.
    const at = lines.findIndex((l) => l.startsWith('  :threshold='));
    expect(at).toBeGreaterThan(0);
    const column = lines[at]!.indexOf('largest');
    expect(lines[at + 1]!.length - lines[at + 1]!.trimStart().length).toBe(column);
    expect(lines[at + 1]!.trimStart()).not.toMatch(/^:/);
    t.send('q');
    expect(await t.exited()).toBe(0);
  });
});
