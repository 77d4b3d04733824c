/**
 * A terminal made too small and then large again gives the screen back as it was: the game in
 * progress, not a new deal or the set-up menus; while it is too small, keys do not play. The
 * dashboard of a finished run, which nothing else redraws, follows a resize by itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FAMILIES, parseVariant } from '../../src/games/index.ts';
import { makeTheme } from '../../src/tui/text/theme.ts';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore } from '../../src/tui/dashboard/dashboard-store.ts';
import { PlayApp } from '../../src/tui/play/PlayApp.tsx';
import { Screen } from '../../src/tui/ui/Screen.tsx';
import { mount, unmountAll } from './fake-terminal.ts';
import { closeTables, playTable, settle, solverOpponent, until } from './play-helpers.ts';
import { recording } from './recorded-stream.ts';

afterEach(async () => {
  unmountAll();
  await closeTables();
});

const theme = makeTheme({});

describe('a resize below the minimum and back', () => {
  it('subtraction: the game goes on where it was, and a key pressed while too small plays nothing', async () => {
    const game = parseVariant('subtraction{moves=1,2,3;n=10}');
    const { tty, screen, frame } = mount(
      <Screen theme={theme}>
        <PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} first="me" seed={1} table={playTable(1000)} />
      </Screen>,
    );
    await until(frame, 'Your move');
    tty.write('1\r'); // 9 left, the solver takes 1: 8
    await until(frame, /solverbot played 1/);
    expect(frame()).toContain('8 stones');
    screen.resize(50, 15);
    await until(frame, 'terminal too small');
    tty.write('3\r');
    await settle(200);
    screen.resize(100, 40);
    const f = await until(frame, 'Your move');
    expect(f).toContain('8 stones');
    expect(f).not.toContain('10 stones');
  });

  it('coins, who moves first chosen in the menu: mid-game it stays mid-game', async () => {
    const game = parseVariant('coins{board=triangle;rows=3}');
    const { tty, screen, frame } = mount(
      <Screen theme={theme}>
        <PlayApp families={FAMILIES} opponents={[solverOpponent]} game={game} opponent={solverOpponent} seed={2} table={playTable(1000)} />
      </Screen>,
    );
    await until(frame, 'Who moves first?');
    tty.write('\r'); // the first entry
    await until(frame, /coins left/);
    const before = /(\d+) of 6 coins left/.exec(frame())![1];
    screen.resize(40, 10);
    await until(frame, 'terminal too small');
    screen.resize(100, 40);
    const f = await until(frame, /coins left/);
    expect(f).not.toContain('Who moves first?');
    expect(/(\d+) of 6 coins left/.exec(f)![1]).toBe(before);
  });
});

describe('the dashboard of a finished run', () => {
  it('answers a resize at once: from "too small" back to the standings without a key', async () => {
    const store = new DashboardStore(5);
    const { screen, frame } = mount(<Dashboard store={store} controls={{ quit: () => {} }} />);
    const { steps, play } = recording();
    for (const e of steps) play(e, (ev) => store.push(ev));
    await until(frame, 'Finished: results in');
    screen.resize(50, 15);
    await until(frame, 'terminal too small');
    screen.resize(100, 40);
    await until(frame, 'Finished: results in');
  });
});
