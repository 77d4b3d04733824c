/** `e` on the play screen and in the review; the opponent menu's strength levels. */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES, parseVariant } from '../../src/games/index.ts';
import { discoverBots } from '../../src/hosting/index.ts';
import { opponentName, opponentsOf, plays } from '../../src/play/index.ts';
import { PlayApp } from '../../src/tui/play/PlayApp.tsx';
import { closeTables, playTable, solverOpponent, typeMove, until, untilGone } from './play-helpers.ts';

const ENTER = '\r';
const DOWN = '\u001B[B';

let unmount: (() => void) | undefined;
afterEach(async () => {
  unmount?.();
  await closeTables();
});

describe('explain (e)', () => {
  it('on the play screen: the period and where n falls in it, toggled by e', async () => {
    const game = parseVariant('subtraction{moves=1,5,8,10;n=50}');
    const r = render(<PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} first="me" seed={1} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    expect(r.lastFrame()).toContain('e why');
    r.stdin.write('e');
    const f = await until(r.lastFrame, 'why (your position)');
    expect(f).toContain('won for you · play 5');
    expect(f).toContain('outcomes repeat with period 13');
    expect(f).toContain('n = 50 mod 13 = 11: an N-position');
    expect(f).toContain('take 5: leaves 45 mod 13 = 6, a P-position for the opponent');
    r.stdin.write('e');
    await untilGone(r.lastFrame, 'why (your position)');
  });

  it('Nim in binary, and the review explains the position before your first mistake', async () => {
    const game = parseVariant('piles{rule=nim;piles=1,2}');
    const r = render(<PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} first="me" seed={1} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    r.stdin.write('e');
    let f = await until(r.lastFrame, 'why (your position)');
    expect(f).toContain('pile 1: 1 = 01');
    expect(f).toContain('pile 2: 2 = 10');
    expect(f).toMatch(/nim-sum +=  ?11/);
    expect(f).toContain('take 1 from pile 2 (2 → 1) and the nim-sum becomes 0');
    r.stdin.write('e');
    await untilGone(r.lastFrame, 'why (your position)');
    await typeMove(r, '2:2'); // a mistake: leaves 1 0, the bot takes the last stone
    f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('mistake');
    r.stdin.write('e');
    f = await until(r.lastFrame, 'why (before your move 1, your first mistake)');
    expect(f).toContain('won for you · play 2:1');
    expect(f).toContain('nim-sum 3 ≠ 0');
  });

  it('End Game: parity sums and the DP value', async () => {
    const game = parseVariant('end-game{row=-1,3,9,4}');
    const r = render(<PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} first="me" seed={1} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    r.stdin.write('e');
    const f = await until(r.lastFrame, 'why (your position)');
    expect(f).toContain('the 1st, 3rd, … sum to 8, the 2nd, 4th, … to 7');
    expect(f).toContain('final margin +1');
  });
});

describe('strength levels', () => {
  it('the opponent menu offers optimal at easy, medium and perfect', async () => {
    const opponents = opponentsOf(await discoverBots([]));
    const labels = opponents.map((o) => o.label);
    expect(labels).toEqual(expect.arrayContaining(['optimal', 'optimal:strength=easy', 'optimal:strength=medium']));
    expect(opponents.find((o) => o.label === 'optimal:strength=easy')!.options['strength']).toBe(0.3);
    const game = parseVariant('subtraction{moves=1,2,3;n=10}');
    const r = render(<PlayApp families={FAMILIES} opponents={opponents} game={game} seed={3} table={playTable(1000)} />);
    unmount = r.unmount;
    const f = await until(r.lastFrame, 'Which bot do you play?');
    expect(f).toContain('optimal (easy)');
    expect(f).toContain('the best move 30% of the time, else a random legal one');
    expect(f).toContain('optimal (medium)   the best move 70% of the time');
    // Choose easy: the second entry after optimal.
    const listed = opponents.filter((o) => plays(o, game)).map((o) => opponentName(o));
    const at = listed.indexOf('optimal (easy)');
    expect(at).toBeGreaterThan(0);
    for (let i = 1; i <= at; i++) {
      r.stdin.write(DOWN);
      // The highlight has moved before the next key (a wrapped menu may draw `❯` without its space).
      await until(r.lastFrame, new RegExp(`❯\\s*${listed[i]!.replace(/[()]/g, '\\$&')}\\s`));
    }
    r.stdin.write(ENTER);
    await until(r.lastFrame, 'Who moves first?');
    r.stdin.write(ENTER);
    const g = await until(r.lastFrame, 'Your move');
    expect(g.replace(/\s+/g, ' ')).toContain('against optimal (easy)');
  });
});
