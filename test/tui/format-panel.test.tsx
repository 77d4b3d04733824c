import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore } from '../../src/tui/dashboard/dashboard-store.ts';
import { runSpec } from '../arena/helpers.ts';
import { until } from './frames.ts';

const GAME = 'subtraction{moves=1,3,4;n=15..30}';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** Plays a tournament in-process into a dashboard store, renders the dashboard at 80 columns, and shows its standings view once it `shows` the text. */
async function dashboardOf(raw: Parameters<typeof runSpec>[0], shows: string) {
  const store = new DashboardStore(5);
  const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={80} height={24} />);
  unmount = r.unmount;
  const result = await runSpec(raw, { sink: { emit: (e) => store.push(e) } });
  await until(r.lastFrame, 'Finished');
  r.stdin.write('2'); // the standings view
  return { frame: await until(r.lastFrame, shows), result };
}

/** The dashboard's own lines: from its header down (the game log printed once above it is not part of it). */
function dashboardLines(frame: string): string[] {
  const lines = frame.split('\n');
  return lines.slice(lines.findIndex((l) => l.startsWith('tournament ')));
}

describe('dashboard of the staged formats at 80 columns', () => {
  it('shows 64 bots in a Swiss of 7 rounds: the leaders by score with their tie-breaks, the rest counted', async () => {
    // 64 distinct entrants: optimal at 64 strengths.
    const bots = Array.from({ length: 64 }, (_, i) => `optimal:strength=${((i + 1) / 64).toFixed(4)}`);
    const { frame, result } = await dashboardOf({ bots, games: [GAME], deals: 1, format: 'swiss', rounds: 7, isolation: 'none', concurrency: 2 }, 'Swiss, round 7 of 7');
    expect(result.summary.complete).toBe(true);
    expect(result.summary.games.played).toBe(7 * 32 * 2);
    const lines = dashboardLines(frame);
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(frame).toContain('Swiss, round 7 of 7: by score, then Buchholz');
    expect(frame).toMatch(/#\s+bot\s+score\s+Buchholz\s+S-B\s+game pts\s+rounds/);
    const swiss = result.summary.format;
    if (swiss?.format !== 'swiss') throw new Error('not a Swiss');
    // The leader's row as the summary has it, and the bots that do not fit are counted.
    const top = swiss.lines[0]!;
    expect(lines.some((l) => l.includes(top.bot) && /^\s*1\s/.test(l))).toBe(true);
    expect(frame).toMatch(/… \d+ more bots/);
  });

  it('draws a knockout of 8 as its bracket, round by round, and the champion', async () => {
    const bots = ['random', 'greedy', 'optimal', 'optimal:strength=0.5', 'optimal:strength=0.7', 'minimax:depth=1', 'minimax:depth=2', 'optimal:strength=0.3'];
    const { frame, result } = await dashboardOf({ bots, games: [GAME], deals: 1, format: 'knockout', isolation: 'none', concurrency: 2 }, 'Champion: ');
    const ko = result.summary.format;
    if (ko?.format !== 'knockout') throw new Error('not a knockout');
    for (const l of dashboardLines(frame)) expect(l.length).toBeLessThanOrEqual(80);
    expect(frame).toMatch(/^Quarterfinals:/m);
    expect(frame).toMatch(/^Semifinals:/m);
    expect(frame).toMatch(/^Final:/m);
    expect(frame).toMatch(/^ {2}\[1\] random .*\[8\] optimal:strength=0\.3/m);
    expect(frame).toContain(`Champion: ${ko.champion}`);
    // Progress counts the extra pairs no match needed as done with: the bar is full at the end.
    expect(frame).toContain(`${result.summary.games.played}/${result.summary.games.played} 100%`);
  });
});
