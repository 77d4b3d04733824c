import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore } from '../../src/tui/dashboard/dashboard-store.ts';
import { gameRecord } from '../arena/helpers.ts';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** A finished game under a time control, with its think times (`us`) and overheads (`ovh`). */
function record(index: number, us: number[], ovh: number[]): GameRecord {
  return gameRecord({
    index,
    key: `subtraction|0|a|b|${index}`,
    variant: 'subtraction{moves=1,2;n=4}',
    deal: 0,
    seating: 0,
    seats: { first: 'a', second: 'b' },
    start: { pile: 4 },
    moves: us.map(() => '1'),
    us,
    ovh,
    timeControl: { baseMs: 2000, incMs: 50 },
    winner: 'a',
  });
}

describe('think time and arena overhead on the dashboard', () => {
  it('shows both, apart, summed over the games finished so far', () => {
    const store = new DashboardStore(1e9);
    store.push({ type: 'tournament-started', name: 'match', seed: 1, dir: '/tmp/x', bots: ['a', 'b'], variants: ['subtraction{moves=1,2;n=4}'], total: 4, done: 0, concurrency: 2, isolation: 'worker' });
    store.flush();
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={120} height={30} />);
    unmount = r.unmount;
    expect(r.lastFrame()).not.toMatch(/arena overhead/);
    store.push({ type: 'game-ended', record: record(0, [1500, 2500], [40, 60]), done: 1, total: 4 });
    store.push({ type: 'game-ended', record: record(1, [1_000_000, 500], [3100, 0]), done: 2, total: 4 });
    store.flush();
    r.rerender(<Dashboard store={store} controls={{ quit: () => {} }} width={120} height={30} />);
    expect(r.lastFrame()).toMatch(/Time: think 1\.00 s, arena overhead 3\.2 ms over 4 moves \(800 µs a move on average, at most 3\.1 ms\)/);
  });
});
