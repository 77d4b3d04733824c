import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { makeGame } from '../../src/games/index.ts';
import type { CoinsView, EndGameView, PileView, PilesView } from '../../src/tui/boards/board-view.ts';
import { Board } from '../../src/tui/boards/Board.tsx';
import { CoinsBoard } from '../../src/tui/boards/CoinsBoard.tsx';
import { EndGameBoard } from '../../src/tui/boards/EndGameBoard.tsx';
import { layoutStones } from '../../src/tui/text/layout.ts';
import { NoRepeatBoard } from '../../src/tui/boards/NoRepeatBoard.tsx';
import { PartizanBoard } from '../../src/tui/boards/PartizanBoard.tsx';
import { PilesBoard } from '../../src/tui/boards/PilesBoard.tsx';
import { SubtractionBoard } from '../../src/tui/boards/SubtractionBoard.tsx';
import { makeTheme } from '../../src/tui/text/theme.ts';

const names = { first: 'you', second: 'optimal' } as const;
const frame = (el: React.ReactElement): string => render(el).lastFrame() ?? '';
const count = (text: string, ch: string): number => text.split(ch).length - 1;
const maxLineWidth = (text: string): number => Math.max(...text.split('\n').map((l) => [...l].length));

describe('stone layout', () => {
  it('draws one glyph per stone when the pile fits, grouped in fives', () => {
    const l = layoutStones(12, 3, 40);
    expect(l.scale).toBe(1);
    expect(l.lines).toEqual([{ stones: 12, taken: 3 }]);
  });
  it('scales a huge pile to a 1-2-5 number of stones per glyph within the line budget', () => {
    for (const n of [1000, 123_456, 1e12]) {
      const l = layoutStones(n, 7, 30, 3);
      expect(l.lines.length).toBeLessThanOrEqual(3);
      expect(String(l.scale)).toMatch(/^[125]0*$/);
      const glyphs = l.lines.reduce((s, x) => s + x.stones, 0);
      expect(Math.abs(glyphs * l.scale - n)).toBeLessThan(l.scale);
      expect(l.lines.reduce((s, x) => s + x.taken, 0)).toBe(1); // a take always shows
    }
  });
});

describe('one-pile boards', () => {
  const view: PileView = { kind: 'pile', family: 'subtraction', pile: 7, taken: 3, toMove: 'first', takes: [1, 2, 3] };
  it('subtraction: stones, hollow just-taken stones, count and who moves', () => {
    const f = frame(<SubtractionBoard view={view} width={40} names={names} />);
    expect(count(f, '●')).toBe(7);
    expect(count(f, '○')).toBe(3);
    expect(f).toContain('7 stones (3 just taken)');
    expect(f).toContain('you to move · takes 1, 2, 3');
  });
  it('subtraction: a large pile wraps, shrinks to fit the width and says the scale', () => {
    const f = frame(<SubtractionBoard view={{ ...view, pile: 5000, taken: 0 }} width={24} names={names} />);
    expect(f).toContain('5,000 stones');
    expect(f).toMatch(/each ● ≈ \d+ stones/);
    expect(maxLineWidth(f.split('\n').slice(0, 3).join('\n'))).toBeLessThanOrEqual(24);
  });
  it('no-repeat: shows the forbidden amount', () => {
    const f = frame(<NoRepeatBoard view={{ ...view, family: 'no-repeat', forbidden: 3 }} width={40} names={names} />);
    expect(f).toContain('may not take 3');
    const free = frame(<NoRepeatBoard view={{ ...view, family: 'no-repeat', forbidden: null }} width={40} names={names} />);
    expect(free).toContain('nothing forbidden');
  });
  it('partizan: shows whose side moves and that side’s takes', () => {
    const f = frame(
      <PartizanBoard view={{ ...view, family: 'partizan', side: 'Right', takes: [3, 4, 8], toMove: 'second' }} width={40} names={names} />,
    );
    expect(f).toContain('Right ◀ (optimal) to move · takes 3, 4, 8');
  });
  it('Board draws a real subtraction position, with the last take from the previous state', () => {
    const game = makeGame('subtraction', { moves: '1,2,3', n: '10' });
    const s0 = { pile: 10, turn: 'first' };
    const s1 = game.play(s0, 3);
    const f = frame(<Board game={game} state={s1} prev={s0} width={60} names={names} />);
    expect(count(f, '●')).toBe(7);
    expect(count(f, '○')).toBe(3);
    expect(f).toContain('optimal to move');
  });
});

describe('piles board', () => {
  const view: PilesView = { kind: 'piles', piles: [3, 4, 5], last: { pile: 1, amount: 2 }, rule: 'nim', toMove: 'second' };
  it('one numbered row of stones per pile with its count, the last take hollow', () => {
    const f = frame(<PilesBoard view={view} width={50} names={names} />);
    const lines = f.split('\n');
    expect(lines[0]).toMatch(/^1\s+3 ●●●$/);
    expect(lines[1]).toMatch(/^2\s+4 ●●●●○ ○$/);
    expect(lines[2]).toMatch(/^3\s+5 ●●●●●$/);
    expect(f).toContain('last took 2 from pile 2');
  });
  it('large piles share one scale and stay within the width', () => {
    const f = frame(<PilesBoard view={{ ...view, piles: [1000, 250, 9], last: null }} width={30} names={names} />);
    expect(maxLineWidth(f.split('\n').slice(0, 3).join('\n'))).toBeLessThanOrEqual(30);
    expect(f).toMatch(/each ● ≈ \d+ stones/);
  });
});

describe('coins board', () => {
  const present = Array.from({ length: 21 }, (_, i) => ![12, 13, 14, 0].includes(i));
  const view: CoinsView = { kind: 'coins', shape: 'triangle', size: 6, present, lastTaken: [13, 14, 15], toMove: 'first' };
  it('triangle: numbered coins, centred rows, the last line taken marked ×', () => {
    const f = frame(<CoinsBoard view={view} width={60} names={names} />);
    const lines = f.split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[1]).toMatch(/ 2 {3}3$/);
    expect(lines[4]).toMatch(/11\s+12\s+×\s+×\s+×/);
    expect(lines[0]).toContain('·'); // coin 1 taken earlier: a plain gap
    expect(f).toContain('17 of 21 coins left');
    expect(f).toContain('last took 13-15');
    expect(lines[0]!.indexOf('·')).toBeGreaterThan(lines[5]!.indexOf('16')); // centred
  });
  it('square: a side × side grid; narrow widths drop the numbers for glyphs', () => {
    const sq: CoinsView = { kind: 'coins', shape: 'square', size: 6, present: Array(36).fill(true), lastTaken: [], toMove: 'second' };
    const wide = frame(<CoinsBoard view={sq} width={60} names={names} />);
    expect(wide.split('\n')[5]).toMatch(/31\s+32\s+33\s+34\s+35\s+36/);
    const narrow = frame(<CoinsBoard view={sq} width={16} names={names} />);
    expect(narrow.split('\n')[0]!.trim()).toBe('● ● ● ● ● ●');
  });
});

describe('end-game board', () => {
  const view: EndGameView = { kind: 'end-game', row: [7, -1, 3, 9, 4], lo: 1, hi: 5, scores: [7, 0], toMove: 'second', lastIndex: 0 };
  it('marks both ends, shows the number just taken and the scores', () => {
    const f = frame(<EndGameBoard view={view} width={60} names={names} />);
    expect(f).toMatch(/×7 L ▶\s+-1\s+3\s+9\s+4 ◀ R/);
    expect(f).toContain('you 7 · optimal 0 · 4 left · optimal to move');
  });
  it('a long row keeps both ends and counts the hidden middle', () => {
    const row = Array.from({ length: 1000 }, (_, i) => i);
    const f = frame(<EndGameBoard view={{ ...view, row, lo: 0, hi: 1000, lastIndex: null }} width={40} names={names} />);
    expect(f.split('\n')[0]).toMatch(/L ▶\s+0\s+1 .*…\d+….* 999 ◀ R/);
    expect(maxLineWidth(f.split('\n')[0]!)).toBeLessThanOrEqual(40);
  });
});

describe('Board on real positions of every family', () => {
  const play = (game: ReturnType<typeof makeGame>, state: unknown, text: string): unknown => game.play(state, game.parseMove(text, state));
  const seeded = { int: (lo: number) => lo, float: () => 0, pick: <T,>(xs: readonly T[]) => xs[0]!, shuffle: <T,>(xs: readonly T[]) => [...xs], seed: 1 };

  it('no-repeat: the opponent’s last take is forbidden', () => {
    const game = makeGame('no-repeat', { moves: '1,2,3,4,5', n: '20' });
    const s0 = game.deal(seeded);
    const s1 = play(game, s0, '4');
    const f = frame(<Board game={game} state={s1} prev={s0} width={60} names={names} />);
    expect(f).toContain('16 stones (4 just taken)');
    expect(f).toContain('may not take 4');
  });
  it('partizan: Right moves after Left, with Right’s takes', () => {
    const game = makeGame('partizan', { left: '2,5,9', right: '3,4,8', n: '20' });
    const s0 = game.deal(seeded);
    expect(frame(<Board game={game} state={s0} width={60} names={names} />)).toContain('▶ Left (you) to move · takes 2, 5, 9');
    const s1 = play(game, s0, '5');
    expect(frame(<Board game={game} state={s1} prev={s0} width={60} names={names} />)).toContain('Right ◀ (optimal) to move · takes 3, 4, 8');
  });
  it('piles: the pile a move took from', () => {
    const game = makeGame('piles', { rule: 'nim', piles: '3,4,5' });
    const s0 = game.deal(seeded);
    const s1 = play(game, s0, '2:3');
    const f = frame(<Board game={game} state={s1} prev={s0} width={60} names={names} />);
    expect(f.split('\n')[1]).toMatch(/^2\s+1 ●○○○$/);
    expect(f).toContain('last took 3 from pile 2');
  });
  it('coins: the line just taken is marked on the triangle', () => {
    const game = makeGame('coins', { board: 'triangle', rows: '6' });
    const s0 = game.deal(seeded);
    const s1 = play(game, s0, '15-13');
    const f = frame(<Board game={game} state={s1} prev={s0} width={60} names={names} />);
    expect(f.split('\n')[4]).toMatch(/11\s+12\s+×\s+×\s+×/);
    expect(f).toContain('18 of 21 coins left');
    expect(f).toContain('last took 13-15');
  });
  it('end-game: both ends, the number just taken and the scores', () => {
    const game = makeGame('end-game', { row: '-1 3 9 4' });
    const s0 = game.deal(seeded);
    const s1 = play(game, s0, 'L');
    const f = frame(<Board game={game} state={s1} prev={s0} width={60} names={names} />);
    expect(f).toMatch(/×-1 L ▶\s+3\s+9\s+4 ◀ R/);
    expect(f).toContain('you -1 · optimal 0 · 3 left · optimal to move');
    const s2 = play(game, s1, 'R');
    expect(frame(<Board game={game} state={s2} prev={s1} width={60} names={names} />)).toMatch(/L ▶\s+3\s+9 ◀ R ×4/);
  });
});

describe('theme', () => {
  it('NO_COLOR removes every colour and keeps the glyphs that carry meaning', () => {
    const plain = makeTheme({ NO_COLOR: '1' });
    expect(plain.color).toBe(false);
    for (const k of ['accent', 'muted', 'stone', 'taken', 'coin', 'good', 'bad', 'warn', 'you', 'them'] as const) expect(plain[k]).toEqual({});
    expect(plain.glyph.takenStone).not.toBe(plain.glyph.stone);
    expect(plain.glyph.takenCoin).not.toBe(plain.glyph.emptyCell);
    expect(makeTheme({ NO_COLOR: '' }).color).toBe(true); // an empty NO_COLOR does not count (no-color.org)
    expect(makeTheme({}).stone).toEqual({ color: 'yellow' });
  });
});
