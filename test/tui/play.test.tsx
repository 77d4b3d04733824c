import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { defineBot, type AnyBot } from '../../src/core/bot.ts';
import { FAMILIES, parseVariant } from '../../src/games/index.ts';
import { PlayApp } from '../../src/tui/play/PlayApp.tsx';
import type { Opponent } from '../../src/play/index.ts';
import { discoverBots } from '../../src/hosting/index.ts';
import { join } from 'node:path';
import { closeTables, settle, playTable, solverOpponent, typeMove, until } from './play-helpers.ts';

const ENTER = '\r';
const DOWN = '\u001B[B';

const opponent = solverOpponent;
const cheat: Opponent = { label: 'cheat', name: 'cheat', bot: defineBot({ name: 'cheat', description: 'takes 99', choose: () => 99 }) as AnyBot, options: {} };

let unmount: (() => void) | undefined;
afterEach(async () => {
  unmount?.();
  await closeTables();
});

describe('play loop', () => {
  const game = parseVariant('subtraction{moves=1,2,3;n=10}');

  it('plays a won game to the end against the solver, with hints, undo and a review', async () => {
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} game={game} opponent={opponent} first="me" seed={1} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    expect(r.lastFrame()).toContain('10 stones');

    r.stdin.write('h');
    let f = await until(r.lastFrame, 'hint:');
    expect(f).toContain('won for you · winning moves: 2');
    expect(f).toMatch(/2 ✓ wins/);

    await typeMove(r, '1'); // a mistake: 9 is an N-position for the bot
    f = await until(r.lastFrame, /solverbot played 1/);
    expect(f).toContain('8 stones');
    expect(f).toContain('lost for you');

    r.stdin.write('u');
    f = await until(r.lastFrame, '10 stones');
    expect(f).toContain('won for you');

    await typeMove(r, '2'); // 8: lost for the bot, which takes the smallest
    await until(r.lastFrame, '7 stones (1 just taken)'); // (not "played 1": the screen said so before the undo)
    await typeMove(r, '3'); // 4
    f = await until(r.lastFrame, '3 stones (1 just taken)');
    await typeMove(r, '3');
    f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('Game over: you won');
    expect(f).toContain('Review: 3 of 3 moves optimal');
    expect(f).toContain('a play again');
  });

  it('the review marks a mistake with the move that kept the win; play again deals a new game', async () => {
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} game={game} opponent={opponent} first="me" seed={1} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    // Down-arrow + enter picks from the list: moves are 1, 2, 3, so two downs is 3 (leaves 7, won for the bot).
    r.stdin.write(DOWN);
    await until(r.lastFrame, '❯ 2');
    r.stdin.write(DOWN);
    await until(r.lastFrame, '❯ 3');
    r.stdin.write(ENTER);
    for (let i = 0; i < 6; i++) {
      const f = await until(r.lastFrame, /Your move|Game over/);
      if (f.includes('Game over')) break;
      await typeMove(r, '1');
    }
    const f = await until(r.lastFrame, 'Game over');
    expect(f).toContain('solverbot won');
    expect(f).toMatch(/1\. you\s+3\s+✗ mistake: threw away the win \(2 kept it\)/);
    r.stdin.write(ENTER); // a stray Enter keeps the review on screen
    await settle();
    expect(r.lastFrame()).toContain('threw away the win');
    r.stdin.write('a'); // play again
    await until(r.lastFrame, 'Your move');
    expect(r.lastFrame()).toContain('10 stones');
  });

  it('a bot that answers an illegal move forfeits, and typed nonsense is refused with the reason', async () => {
    const r = render(<PlayApp families={FAMILIES} opponents={[cheat]} game={game} opponent={cheat} first="me" seed={1} table={playTable(500)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Your move');
    await typeMove(r, '9');
    await until(r.lastFrame, /not legal|Expected/);
    await typeMove(r, '1');
    const f = await until(r.lastFrame, 'you won');
    expect(f).toContain('cheat forfeits: illegal-move (returned 99, not one of the legal moves: ');
    expect(f).toContain('you won');
  });

  it('the bot can move first; coins can be typed as a line in either order', async () => {
    const coins = parseVariant('coins{board=triangle;rows=3}'); // 1 / 2 3 / 4 5 6
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} game={coins} opponent={opponent} first="bot" seed={2} table={playTable(1000)} />);
    unmount = r.unmount;
    let f = await until(r.lastFrame, 'solverbot played 2 in');
    expect(f).toContain('you play second against solverbot');
    expect(f).toContain('5 of 6 coins left');
    r.stdin.write('6-4'); // the bottom row, typed backwards: the list holds it as 4-6
    await until(r.lastFrame, 'no listed move starts with "6-4"');
    r.stdin.write(ENTER);
    f = await until(r.lastFrame, '1 of 6 coins left'); // coins 4-6 went, then the bot took coin 1
    expect(f).toMatch(/│\s+·\s+·\s+·\s+│/);
    expect(f).toContain('solverbot played 1 in');
  });

  it('plays an external bot (the Python example) through its process', async () => {
    const registry = await discoverBots([join(import.meta.dirname, '../../examples/python-bot')]);
    const entry = registry.bots.find((b) => b.name === 'python-bot')!;
    const python: Opponent = { label: entry.name, name: entry.name, bot: entry.bot, options: {}, entry };
    const game = parseVariant('subtraction{moves=1,5,8,10;n=50}');
    const r = render(<PlayApp families={FAMILIES} opponents={[python]} game={game} opponent={python} first="bot" seed={4} table={playTable(5000)} />);
    unmount = r.unmount;
    // 50 is an N-position of {1,5,8,10}; the example's largest winning take is 5 (45 is cold).
    const f = await until(r.lastFrame, 'python-bot played 5 in');
    expect(f).toContain('45 stones');
  });

  it('menus choose the family, parameters, opponent and first mover', async () => {
    const r = render(<PlayApp families={FAMILIES} opponents={[opponent]} seed={3} table={playTable(1000)} />);
    unmount = r.unmount;
    await until(r.lastFrame, 'Which game?');
    r.stdin.write(ENTER); // subtraction
    await until(r.lastFrame, 'moves: the subtraction set');
    r.stdin.write(ENTER); // default moves
    await until(r.lastFrame, /n: the starting pile/);
    r.stdin.write(DOWN);
    await until(r.lastFrame, '❯ type a value');
    r.stdin.write(ENTER); // type a value…
    await until(r.lastFrame, 'n: a non-negative integer');
    expect(r.lastFrame()).not.toContain('13');
    r.stdin.write('13');
    // Enter only once the field shows the value: at load 19 an enter after a fixed pause was taken
    // before the field had re-rendered with it, and submitted the empty field (the default pile).
    await until(r.lastFrame, '13');
    r.stdin.write(ENTER);
    await until(r.lastFrame, 'misere: misère play');
    r.stdin.write(ENTER); // false: normal play
    await until(r.lastFrame, 'Which bot do you play?');
    r.stdin.write(ENTER);
    await until(r.lastFrame, 'Who moves first?');
    r.stdin.write(ENTER);
    const f = await until(r.lastFrame, 'Your move');
    expect(f).toContain('13 stones');
    expect(f).toContain('takes 1, 5, 8, 10');
  });
});

describe('arena play command', () => {
  it('needs a terminal: one line, exit code 2', async () => {
    const { run } = await import('../cli/run.ts');
    const r = await run('play', 'subtraction{moves=1,2,3;n=10}', '--bot', 'optimal');
    expect(r.code).toBe(2);
    expect(r.err.trim()).toBe('arena play is interactive and needs a terminal (stdin and stdout must be a TTY)');
  });
  it('reports a bad variant, bot, seed or isolation in one line before asking for a terminal', async () => {
    const { run } = await import('../cli/run.ts');
    const bad = await run('play', 'subtraction{moves=3,0}');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^arena: Expected `moves` to be/);
    const bot = await run('play', '--bot', 'optimall');
    expect(bot.err).toMatch(/Unknown bot `optimall` \(did you mean `optimal`\?\)/);
    const seed = await run('play', '--seed', 'x');
    expect(seed.err).toContain('Expected `--seed` to be an integer');
    const isolation = await run('play', '--isolation', 'thread');
    expect(isolation.code).toBe(2);
    expect(isolation.err).toContain('Expected --isolation to be worker, sandbox or none, got "thread"');
  });
});
