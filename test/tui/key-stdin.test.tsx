/**
 * Keys that arrive together (one write to the terminal, as a paste, a fast typist or a busy machine
 * delivers them) each count, in order: the screens read the terminal through KeyStdin, which hands
 * Ink one key at a time. Ink's `render` with a fake terminal, the way the CLI mounts its screens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES, parseVariant } from '../../src/games/index.ts';
import { HomeApp } from '../../src/tui/home/HomeApp.tsx';
import { PlayApp } from '../../src/tui/play/PlayApp.tsx';
import { KeyStdin, splitKeys } from '../../src/tui/ui/key-stdin.ts';
import { FakeTty, mount, unmountAll } from './fake-terminal.ts';
import { closeTables, playTable, solverOpponent, until } from './play-helpers.ts';

const DOWN = '\u001b[B';

afterEach(async () => {
  unmountAll();
  await closeTables();
});

describe('splitKeys', () => {
  it('splits text into characters and keeps escape sequences whole', () => {
    expect(splitKeys(`9\r${DOWN}${DOWN}\u001b[5~\u001bOPab\u001b\u001b[A\u001bx🎲`)).toEqual({
      keys: ['9', '\r', DOWN, DOWN, '\u001b[5~', '\u001bOP', 'a', 'b', '\u001b\u001b[A', '\u001bx', '🎲'],
      rest: '',
    });
  });
  it('keeps a sequence cut off at the end for the next chunk', () => {
    expect(splitKeys('q\u001b[')).toEqual({ keys: ['q'], rest: '\u001b[' });
    expect(splitKeys('\u001b')).toEqual({ keys: [], rest: '\u001b' });
  });
});

describe('keys written in one burst', () => {
  it('home menu: ↓ ↓ ↓ Enter opens "Analyse a position", and the rest of the burst picks the family and types the flags', async () => {
    let chosen: readonly string[] | null | undefined;
    const { tty, frame } = mount(<HomeApp specs={['tournaments/classic.json']} families={FAMILIES} onChoose={(a) => void (chosen = a)} />);
    await until(frame, 'Run a tournament');
    tty.write(`${DOWN}${DOWN}${DOWN}\r`);
    await until(frame, 'Analyse which game?');
    tty.write('\r--n 1764 --moves "15,19,20"\r');
    for (let i = 0; i < 500 && chosen === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(chosen).toEqual(['analyze', 'subtraction', '--n', '1764', '--moves', '15,19,20']);
  });

  it('play: a move typed and Enter in one write plays that move, not the highlighted one', async () => {
    const game = parseVariant('subtraction{moves=1,2,3;n=10}');
    const { tty, frame } = mount(<PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} first="me" seed={1} table={playTable(1000)} />);
    await until(frame, 'Your move');
    tty.write('3\r');
    // 10 − 3 = 7, and the solver takes 3 more (the highlighted move, 1, would have left 9 and then 8).
    const f = await until(frame, /solverbot played 3/);
    expect(f).toContain('4 stones');
  });

  it('keys typed before a screen reads input wait for it (and the terminal does not echo them meanwhile)', async () => {
    const tty = new FakeTty();
    const keys = new KeyStdin(tty as unknown as NodeJS.ReadStream);
    expect(tty.raw).toBe(true); // no echo while the screen loads
    tty.write(`${DOWN}\r`);
    let chosen: readonly string[] | null | undefined;
    mount(<HomeApp specs={[]} families={FAMILIES} onChoose={(a) => void (chosen = a)} />, { tty, keys });
    for (let i = 0; i < 500 && chosen === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(chosen).toEqual(['play']);
  });
});

describe('the play set-up menus', () => {
  it('esc goes back a step, q leaves, and the keys are shown', async () => {
    const { tty, frame, exited } = mount(<PlayApp families={FAMILIES} opponents={[solverOpponent]} seed={1} table={playTable(1000)} />);
    let f = await until(frame, 'Which game?');
    expect(f).toContain('↑↓ choose · enter pick · q or esc quit');
    tty.write('\r'); // the first family: its first parameter
    f = await until(frame, 'esc back · q quit');
    expect(f).not.toContain('Which game?');
    tty.write('\u001b');
    await until(frame, 'Which game?');
    tty.write('q');
    await exited;
  });

  it('Ctrl-C quits the screen and is remembered as an interrupt (the command exits 130)', async () => {
    const { tty, keys, frame, exited } = mount(<PlayApp families={FAMILIES} opponents={[solverOpponent]} seed={1} table={playTable(1000)} />);
    await until(frame, 'Which game?');
    expect(keys.interrupted).toBe(false);
    tty.write('\u0003');
    await exited;
    expect(keys.interrupted).toBe(true);
  });
});
