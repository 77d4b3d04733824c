/**
 * The play screen explains itself: each game's goal and scoring on the screen and in full under
 * `?`, the rule that decided the game on its game-over line, both sides' moves as a history and in
 * the review, End Game's numbers beside `L`/`R`, and the terms the explanations use glossed.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyGame, Seat } from '../../src/core/game.ts';
import { createVariant, eraseGame } from '../../src/core/params.ts';
import { FAMILIES, parseVariant } from '../../src/games/index.ts';
import { defineGame, userFamily } from '../../src/games/user.ts';
import { PlayApp } from '../../src/tui/play/PlayApp.tsx';
import { discoverBots } from '../../src/hosting/index.ts';
import { opponentsOf } from '../../src/play/index.ts';
import { Screen } from '../../src/tui/ui/Screen.tsx';
import { makeTheme } from '../../src/tui/text/theme.ts';
import { mount, unmountAll } from './fake-terminal.ts';
import { closeTables, playTable, settle, solverOpponent, typeMove, until } from './play-helpers.ts';

let unmount: (() => void) | undefined;
afterEach(async () => {
  unmount?.();
  unmountAll();
  await closeTables();
});

/** A frame's text on one line: box borders dropped, runs of blanks made one (wrapped lines read as one). */
const flat = (frame: string): string => frame.replace(/[│╭╮╰╯─]/g, ' ').replace(/\s+/g, ' ');

/** The play screen of `game` against the solver's bot, the player moving first unless told. */
function playScreen(game: AnyGame, first: 'me' | 'bot' = 'me') {
  const r = render(<PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} first={first} seed={1} table={playTable(1000)} />);
  unmount = r.unmount;
  return r;
}

describe('the play screen says how to win', () => {
  it('coins on last-coin: the goal on screen, and the game-over line names the rule that decided it', async () => {
    const r = playScreen(parseVariant('coins{board=triangle;rows=1}'));
    let f = await until(r.lastFrame, 'Your move');
    expect(f).toContain('Goal: do not take the last coin. Who takes the last coin loses.');
    await typeMove(r, '1');
    f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('Game over: solverbot won');
    expect(f).toContain('You took the last coin: who takes the last coin loses.');
  });

  it('coins on points: the bonus is explained, and the final line adds it up', async () => {
    const r = playScreen(parseVariant('coins{board=triangle;rows=1;scoring=points;bonus=3}'));
    let f = await until(r.lastFrame, 'Your move');
    expect(f).toMatch(/Each coin you take is 1 point; whoever does not take the last coin gets a\s+bonus of 3/);
    await typeMove(r, '1');
    f = await until(r.lastFrame, 'Game over');
    expect(flat(f)).toContain('You took the last coin, so solverbot scored the bonus 3: you 1, solverbot 3; the higher total wins.');
  });

  it('? shows the rules of winning in full and what P-position and N-position mean', async () => {
    const r = playScreen(parseVariant('partizan{left=2,5,9;right=3,4,8;n=25}'));
    let f = await until(r.lastFrame, 'Your move');
    expect(f).toContain('Left takes {2,5,9}, Right takes {3,4,8}');
    r.stdin.write('?');
    f = flat(await until(r.lastFrame, 'How to win'));
    expect(f).toContain('The first seat plays Left and may take only {2,5,9}; the second seat plays Right and may take only {3,4,8}.');
    expect(f).toContain('L (Left wins whoever moves first)');
    expect(f).toContain('P-position: the player to move loses against perfect play');
    expect(f).toContain('N-position: the player to move wins with perfect play');
  });

  it('the explanation glosses the terms it uses', async () => {
    const r = playScreen(parseVariant('subtraction{moves=1,2,3;n=10}'));
    await until(r.lastFrame, 'Your move');
    r.stdin.write('e');
    const f = flat(await until(r.lastFrame, 'why (your position)'));
    expect(f).toContain('a P-position for the opponent');
    expect(f).toContain('P-position: the player to move loses against perfect play');
  });

  it("no-repeat: the game-over line says the last take is forbidden, and the board still shows it", async () => {
    // Take 2 from 4: the bot may take 2 or 3 but not the 2 just taken, and 3 does not fit.
    const r = playScreen(parseVariant('no-repeat{moves=2,3;n=4}'));
    await until(r.lastFrame, 'Your move');
    await typeMove(r, '2');
    const f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('Game over: you won');
    expect(f).toContain('Solverbot cannot move (pile 2; may not take 2, the amount just taken): who cannot move loses.');
    expect(f).toContain('may not take 2');
  });

  it("octal games read their code out under ?, and Grundy's game speaks of splits, not of taking", async () => {
    const r = playScreen(parseVariant('octal{code=0.07;n=5}'));
    expect(flat(await until(r.lastFrame, 'Your move'))).toContain('Goal: take the last token, leaving your opponent no move.');
    r.stdin.write('?');
    expect(flat(await until(r.lastFrame, 'How to win'))).toContain('A move takes from one heap: 2 tokens (a heap of exactly that many; or leaving the rest as one heap; or leaving the rest as two heaps).');
    r.unmount();
    const g = playScreen(parseVariant('grundy{n=7}'));
    expect(flat(await until(g.lastFrame, 'Your move'))).toContain('Goal: make the last split, leaving only heaps of 1 and 2.');
    g.stdin.write('?');
    expect(flat(await until(g.lastFrame, 'How to win'))).toContain('A move splits one heap into two heaps of different sizes.');
  });

  it("a user's game shows its own goal, and a generic one when it gives none", async () => {
    const r = playScreen(takeOne('Goal: take the last stone.'));
    expect(await until(r.lastFrame, 'Your move')).toContain('Goal: take the last stone.');
    r.unmount();
    const plain = playScreen(takeOne(undefined));
    expect(await until(plain.lastFrame, 'Your move')).toContain('Goal: win by this game’s own rules');
  });
});

describe('both sides’ moves', () => {
  it('End Game: the list says which number each end takes; the history and the review name both sides’ moves with the numbers', async () => {
    // Row −1 3 9 4: optimal play gives the first player 8 and the second 7.
    const r = playScreen(parseVariant('end-game{row=-1,3,9,4}'));
    let f = await until(r.lastFrame, 'Your move');
    expect(f).toContain('L takes -1');
    expect(f).toContain('R takes 4');
    expect(f).toContain('Goal: the larger sum.');
    await typeMove(r, 'R'); // a mistake: L (−1) is the optimal first move
    await until(r.lastFrame, 'Moves: 1. you R (4) · 2. solverbot R (9)'); // 9: the bot's best take from −1 3 9
    for (let i = 0; i < 3; i++) {
      f = await until(r.lastFrame, /Your move|Game over/);
      if (f.includes('Game over')) break;
      await typeMove(r, 'R'); // from −1 3: R (3) is optimal
    }
    f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('The row is empty: you 7, solverbot 8; the larger sum wins.');
    // The review lists the bot's moves too, by name, with the numbers taken.
    expect(f).toMatch(/Review: \d of 2 moves optimal, 1 mistake · solverbot: 2 of 2 moves optimal/);
    expect(f).toMatch(/1\. you\s+R \(4\)\s+✗ mistake/);
    expect(f).toMatch(/2\. solverbot [LR] \(\d+\)\s+✓ optimal/);
  });

  it('the history keeps the newest moves whole when the line is full', async () => {
    const r = playScreen(parseVariant('subtraction{moves=1;n=40}'));
    for (let i = 0; i < 14; i++) {
      await until(r.lastFrame, 'Your move');
      await typeMove(r, '1');
      await until(r.lastFrame, `${38 - 2 * i} stones`);
    }
    const f = await until(r.lastFrame, 'Your move');
    const line = f.split('\n').find((l) => l.startsWith('Moves: '))!;
    expect(line).toMatch(/^Moves: … \d+\. (you|solverbot) 1( · \d+\. (you|solverbot) 1)* · 28\. solverbot 1$/);
    expect(line.length).toBeLessThanOrEqual(100);
  });
});

type TakeState = { readonly pile: number; readonly turn: Seat };

/** A user's game (take one stone from a pile of 3), with the goal given or left out. */
function takeOne(goal: string | undefined): AnyGame {
  const other = (s: Seat): Seat => (s === 'first' ? 'second' : 'first');
  const definition = defineGame({
    name: 'take-one',
    params: {},
    ...(goal !== undefined ? { goal } : {}),
    deal: () => ({ pile: 3, turn: 'first' as Seat }),
    toMove: (s: TakeState) => s.turn,
    moves: (s: TakeState) => (s.pile > 0 ? [1] : []),
    play: (s: TakeState): TakeState => ({ pile: s.pile - 1, turn: other(s.turn) }),
    outcome: (s: TakeState) => (s.pile === 0 ? { winner: other(s.turn) } : null),
    key: (s: TakeState) => `${s.turn}|${s.pile}`,
    formatMove: () => '1',
    parseMove: () => 1,
  });
  return eraseGame(createVariant(userFamily(definition as never, 'take-one.ts'), {}));
}

describe('the set-up menus', () => {
  it('name the bots as easy / medium / perfect and say what each does in plain words, in a straight column at 100 and at 80 columns', async () => {
    const opponents = opponentsOf(await discoverBots([]));
    const game = parseVariant('subtraction{moves=1,2,3;n=10}');
    const t = mount(<Screen theme={makeTheme({}, { theme: 'dark' })}><PlayApp families={FAMILIES} opponents={opponents} game={game} seed={3} table={playTable(1000)} /></Screen>);
    for (const columns of [100, 80]) {
      t.screen.resize(columns, 40);
      // The menu drawn for this width: every line fits it (the 100-column menu has longer lines).
      let f = await until(t.frame, 'Which bot do you play?');
      for (let tries = 0; f.split('\n').some((l) => l.trimEnd().length > columns); tries++) {
        expect(tries, `never redrawn for ${columns} columns:\n${f}`).toBeLessThan(500);
        await settle(20);
        f = t.frame();
      }
      const lines = f.split('\n');
      const easy = lines.findIndex((l) => /^ *optimal \(easy\) +the best move 30% of the time, else a random legal one$/.test(l.trimEnd()));
      expect(easy, f).toBeGreaterThanOrEqual(0);
      expect(f).toMatch(/optimal \(perfect\) +perfect play: wins every position that can be won/);
      expect(f).toMatch(/optimal \(medium\) +the best move 70% of the time/);
      expect(f).toMatch(/random +picks any legal move at random/);
      // The words start in one column, wrapped lines too.
      const menu = lines.slice(lines.findIndex((l) => l.includes('Which bot do you play?')) + 1, lines.findIndex((l) => l.includes('esc back')));
      const column = lines[easy]!.indexOf('the best move');
      for (const l of menu) expect(l.length > column && l[column - 1] === ' ' && l[column] !== ' ', `${columns} columns:\n${f}`).toBe(true);
    }
  });
});
