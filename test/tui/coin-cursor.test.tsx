import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { FAMILIES, parseVariant } from '../../src/games/index.ts';
import type { CoinsView } from '../../src/tui/boards/board-view.ts';
import type { CoinCursor } from '../../src/tui/boards/coin-grid.ts';
import { previewTake, stepCursor } from '../../src/tui/play/coin-cursor.ts';
import { CoinsBoard } from '../../src/tui/boards/CoinsBoard.tsx';
import { PlayApp } from '../../src/tui/play/PlayApp.tsx';
import { makeTheme, ThemeContext } from '../../src/tui/text/theme.ts';
import { closeTables, press, settle, playTable, solverOpponent, until } from './play-helpers.ts';

const ENTER = '\r';
const ESC = '\u001B';
const UP = '\u001B[A';
const DOWN = '\u001B[B';
const RIGHT = '\u001B[C';
const LEFT = '\u001B[D';
const SPACE = ' ';

const opponent = solverOpponent;
const names = { first: 'you', second: 'optimal' } as const;

let unmount: (() => void) | undefined;
afterEach(async () => {
  unmount?.();
  unmount = undefined;
  await closeTables();
});


describe('cursor steps over the board picture', () => {
  it('triangle: left/right in the row, down to the lower-left coin, up back; edges stay', () => {
    // 1 / 2 3 / 4 5 6
    expect(stepCursor('triangle', 3, 1, 'down')).toBe(2);
    expect(stepCursor('triangle', 3, 2, 'down')).toBe(4);
    expect(stepCursor('triangle', 3, 4, 'right')).toBe(5);
    expect(stepCursor('triangle', 3, 5, 'up')).toBe(3);
    expect(stepCursor('triangle', 3, 6, 'up')).toBe(3); // the row above is shorter: its last coin
    expect(stepCursor('triangle', 3, 3, 'up')).toBe(1);
    for (const [coin, dir] of [[1, 'up'], [1, 'left'], [1, 'right'], [4, 'left'], [6, 'right'], [5, 'down']] as const) {
      expect(stepCursor('triangle', 3, coin, dir)).toBe(coin);
    }
    // Up undoes down everywhere on the 6-row triangle, so the cursor never gets lost.
    for (let c = 1; c <= 15; c++) expect(stepCursor('triangle', 6, stepCursor('triangle', 6, c, 'down'), 'up')).toBe(c);
  });
  it('square: up and down keep the column', () => {
    // 1 2 3 / 4 5 6 / 7 8 9
    expect(stepCursor('square', 3, 2, 'down')).toBe(5);
    expect(stepCursor('square', 3, 5, 'down')).toBe(8);
    expect(stepCursor('square', 3, 8, 'down')).toBe(8);
    expect(stepCursor('square', 3, 9, 'up')).toBe(6);
    expect(stepCursor('square', 3, 4, 'left')).toBe(4);
    expect(stepCursor('square', 3, 4, 'right')).toBe(5);
    expect(stepCursor('square', 3, 3, 'right')).toBe(3);
  });
});

describe('previewTake asks the rules', () => {
  const game = parseVariant('coins{board=triangle;rows=3}');
  const s0 = game.deal(createRng(1));
  it('a line in either order is the canonical take, with the coins it removes', () => {
    const moves = game.moves(s0);
    expect(previewTake(game, s0, moves, 4, 6)).toMatchObject({ text: '4-6', error: null, line: [4, 5, 6] });
    expect(previewTake(game, s0, moves, 6, 4)).toMatchObject({ text: '4-6', error: null, line: [4, 5, 6] });
    expect(previewTake(game, s0, moves, 1, 6)).toMatchObject({ text: '1-6', error: null, line: [1, 3, 6] });
    expect(previewTake(game, s0, moves, 2, 2)).toMatchObject({ text: '2', error: null, line: [2] });
  });
  it('not a line, or a coin already gone: the game’s reason, no move', () => {
    const moves = game.moves(s0);
    expect(previewTake(game, s0, moves, 4, 3)).toEqual({ text: '4-3', move: null, error: 'Coins 4 and 3 are not on one line', line: [] });
    const s1 = game.play(s0, game.parseMove('5', s0));
    const m1 = game.moves(s1);
    expect(previewTake(game, s1, m1, 5, 5)).toMatchObject({ text: '5', move: null, error: 'Coin 5 is already taken' });
    expect(previewTake(game, s1, m1, 4, 6)).toMatchObject({ move: null, error: 'Coin 5 is already taken' });
  });
});

describe('coins board with a cursor', () => {
  const tri: CoinsView = { kind: 'coins', shape: 'triangle', size: 3, present: Array(6).fill(true), lastTaken: [], toMove: 'first' };
  const frame = (view: CoinsView, cursor: CoinCursor, width = 40, noColor = false): string =>
    render(
      <ThemeContext.Provider value={makeTheme(noColor ? { NO_COLOR: '1' } : {})}>
        <CoinsBoard view={view} width={width} names={names} cursor={cursor} />
      </ThemeContext.Provider>,
    ).lastFrame() ?? '';
  it('brackets the cursor, braces the mark and parenthesises a legal line between them', () => {
    const f = frame(tri, { at: 6, mark: 4, legal: true, line: [4, 5, 6] });
    expect(f.split('\n')[2]).toBe('{4}(5)[6]');
    expect(f.split('\n')[0]).toBe('    1');
  });
  it('an illegal preview shows only the mark and the cursor; NO_COLOR keeps the brackets', () => {
    for (const noColor of [false, true]) {
      const lines = frame(tri, { at: 3, mark: 4, legal: false, line: [] }, 40, noColor).split('\n');
      expect(lines[1]).toBe('  2 [3]');
      expect(lines[2]).toBe('{4} 5  6');
    }
  });
  it('square, numbered and one-glyph cells: the cursor on a gap still shows', () => {
    const sq: CoinsView = { kind: 'coins', shape: 'square', size: 6, present: Array.from({ length: 36 }, (_, i) => i !== 7), lastTaken: [], toMove: 'first' };
    const wide = frame(sq, { at: 8, mark: null, legal: false, line: [] }, 60).split('\n');
    expect(wide[1]).toBe('  7 [ ·]  9  10  11  12');
    const narrow = frame(sq, { at: 8, mark: null, legal: false, line: [] }, 16).split('\n');
    expect(narrow[1]).toBe(' ●[· ● ● ● ●');
    expect(narrow[0]).toBe(' ● ● ● ● ● ●'); // gaps and coins share the columns
  });
});

describe('playing with the cursor', () => {
  const coins = parseVariant('coins{board=triangle;rows=3}'); // 1 / 2 3 / 4 5 6

  it('moves, marks, previews, refuses an illegal line, plays a legal one, then a single coin', async () => {
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} game={coins} opponent={opponent} first="me" seed={5} table={playTable(1000)} />);
    unmount = r.unmount;
    let f = await until(r.lastFrame, 'Your move');
    expect(f).toContain('c cursor · h hints');
    r.stdin.write('c');
    f = await until(r.lastFrame, 'Your move: 1 ✓ takes 1');
    expect(f).toContain('←↑↓→ move · space mark · enter take · esc move list');
    expect(f).not.toContain('(↑↓ enter, or type it)'); // the arrows are the cursor's now, not the list's
    expect(f).toMatch(/│\s+\[1\]\s+│/);

    await press(r, DOWN, DOWN, SPACE);
    f = await until(r.lastFrame, 'line from 4');
    await press(r, RIGHT, RIGHT);
    f = await until(r.lastFrame, 'Your move: 4-6 ✓ takes 4, 5, 6');
    expect(f).toContain('{4}(5)[6]');

    await press(r, UP); // 3: not on a line with 4
    f = await until(r.lastFrame, 'Your move: 4-3 ✗ Coins 4 and 3 are not on one line');
    expect(f).toMatch(/\{4\} 5  6/);
    const refusal = /^Coins 4 and 3 are not on one line$/m; // the error line, apart from the preview
    expect(f).not.toMatch(refusal);
    r.stdin.write(ENTER);
    f = await until(r.lastFrame, refusal);
    expect(f).toContain('6 of 6 coins left'); // refused: nothing was taken

    await press(r, DOWN, RIGHT); // 3 → 5 → 6
    await until(r.lastFrame, 'Your move: 4-6 ✓');
    r.stdin.write(ENTER);
    f = await until(r.lastFrame, /solverbot played (\d-\d) in/);
    expect(f).toContain('1 of 6 coins left'); // 4-6 went, and two more coins with the reply
    expect(f).toMatch(/│\s+·\s+·\s+\[·\]\s+│/);
    // The mark went with the take; the cursor stayed on 6, now a gap.
    expect(f).toContain('Your move: 6 ✗ Coin 6 is already taken');

    // The bot took two of 1, 2, 3: walk to the last one, mark it and take it (mark = cursor: one coin).
    const taken = /solverbot played (\d)-(\d) in/.exec(f)!.slice(1).map(Number);
    const coin = [1, 2, 3].find((c) => !taken.includes(c))!;
    const path: Record<number, string[]> = { 1: [UP, UP], 2: [UP, LEFT], 3: [UP] };
    await press(r, ...path[coin]!);
    await until(r.lastFrame, `Your move: ${coin} ✓ takes ${coin}`);
    await press(r, SPACE);
    await until(r.lastFrame, `line from ${coin}`);
    r.stdin.write(ENTER);
    f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('Game over: solverbot won'); // misère: whoever takes the last coin loses
  });

  it('enter without a mark takes the coin under the cursor; esc clears the mark, then leaves the cursor', async () => {
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} game={coins} opponent={opponent} first="me" seed={5} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    await press(r, 'c', DOWN, SPACE, DOWN);
    let f = await until(r.lastFrame, 'Your move: 2-4 ✓ takes 2, 4');
    await press(r, ESC); // clears the mark: the preview is the coin under the cursor
    f = await until(r.lastFrame, 'Your move: 4 ✓ takes 4');
    expect(f).toContain('esc move list');
    await press(r, ESC); // back to the move list, whose arrows work again
    f = await until(r.lastFrame, '(↑↓ enter, or type it)');
    await press(r, 'c'); // the cursor comes back where it was
    f = await until(r.lastFrame, 'Your move: 4 ✓ takes 4');
    r.stdin.write(ENTER);
    f = await until(r.lastFrame, /solverbot played \S+ in/);
    expect(f).toContain('4 of 6 coins left'); // coin 4, then one coin of the reply
    expect(f).toMatch(/│ \[·\] 5  6\s+│/);
  });

  it('other families have no cursor: c does nothing', async () => {
    const game = parseVariant('subtraction{moves=1,2,3;n=10}');
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} game={game} opponent={opponent} first="me" seed={1} table={playTable(1000)} />);
    unmount = r.unmount;
    let f = await until(r.lastFrame, 'Your move');
    expect(f).not.toContain('c cursor');
    r.stdin.write('c'); // nothing to wait for: the frame stays as it was
    await settle();
    await press(r, DOWN);
    f = await until(r.lastFrame, '❯ 2');
    expect(f).toContain('(↑↓ enter, or type it)');
  });
});
