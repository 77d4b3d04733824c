import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { sprtConfig, sprtStatus, type Pentanomial } from '../../src/arena/fold/sprt.ts';
import type { SprtResult } from '../../src/arena/summary.ts';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore } from '../../src/tui/dashboard/dashboard-store.ts';
import { SprtBar } from '../../src/tui/dashboard/SprtBar.tsx';
import { sprtBar } from '../../src/tui/dashboard/sprt-text.ts';

const CONFIG = sprtConfig({ elo0: 0, elo1: 20 });
const result = (counts: Pentanomial): SprtResult => ({ a: 'minimax', b: 'mcts', ...sprtStatus(CONFIG, counts) });

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('SPRT bar', () => {
  it('puts the LLR between the bounds: # at its place, | at zero', () => {
    expect(sprtBar({ llr: 0, lower: -3, upper: 3 }, 7)).toBe('H0 [---#---] H1');
    expect(sprtBar({ llr: 3, lower: -3, upper: 3 }, 7)).toBe('H0 [---|--#] H1');
    expect(sprtBar({ llr: -9, lower: -3, upper: 3 }, 7)).toBe('H0 [#--|---] H1');
    expect(sprtBar({ llr: 1.5, lower: -3, upper: 3 }, 9)).toBe('H0 [----|-#--] H1');
  });

  it('renders a running test and a decided one', () => {
    const running = result([2, 5, 9, 6, 3]);
    const r = render(<SprtBar result={running} width={100} />);
    unmount = r.unmount;
    const frame = r.lastFrame()!;
    expect(frame).toMatch(/^SPRT minimax vs mcts H0 \[[-|#]+\] H1 LLR -?\d\.\d\d \(-2\.94, 2\.94\) · 25 pairs · running$/);
    r.rerender(<SprtBar result={result([0, 1, 10, 30, 40])} width={100} />);
    expect(r.lastFrame()).toMatch(/H0 \[-+\|-+#\] H1 LLR \d+\.\d\d \(-2\.94, 2\.94\) · 81 pairs · H1 accepted$/);
  });

  it('shows on the dashboard as the sprt events come', () => {
    const store = new DashboardStore(1e9);
    store.push({ type: 'tournament-started', name: 'match', seed: 1, dir: '/tmp/x', bots: ['minimax', 'mcts'], variants: ['coins'], total: 100, done: 0, concurrency: 2, isolation: 'worker' });
    store.push({ type: 'sprt', result: result([0, 0, 0, 0, 0]) });
    store.flush();
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={110} height={30} />);
    unmount = r.unmount;
    expect(r.lastFrame()).toMatch(/SPRT minimax vs mcts H0 \[-+#-+\] H1 LLR 0\.00 \(-2\.94, 2\.94\) · 0 pairs · running/);
    store.push({ type: 'sprt', result: result([0, 1, 10, 30, 40]) });
    store.flush();
    r.rerender(<Dashboard store={store} controls={{ quit: () => {} }} width={110} height={30} />);
    expect(r.lastFrame()).toMatch(/SPRT minimax vs mcts H0 \[-+\|-+#\] H1 .* 81 pairs · H1 accepted/);
  });
});
