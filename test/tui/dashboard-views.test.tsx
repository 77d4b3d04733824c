import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../src/arena/events.ts';
import type { StandingsTable as Table } from '../../src/arena/fold/standings.ts';
import { Crosstable } from '../../src/tui/dashboard/Crosstable.tsx';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardHeader } from '../../src/tui/dashboard/DashboardHeader.tsx';
import { DashboardStore, type DashboardModel } from '../../src/tui/dashboard/dashboard-store.ts';
import { StandingsTable } from '../../src/tui/dashboard/StandingsTable.tsx';
import { shortNames } from '../../src/tui/text/table.ts';
import { parseRecordLine } from '../../src/arena/results/index.ts';
import { runSpec } from '../arena/helpers.ts';
import { press as pressKeys, until } from './frames.ts';
import { recordedEvents, recording } from './recorded-stream.ts';

const GAME = 'subtraction{moves=1,3,4;n=15..30}';
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

/** A finished recorded tournament in a store, drawn by the dashboard (100×height). */
async function finishedDashboard(height = 40) {
  const store = new DashboardStore(5);
  const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={100} height={height} />);
  unmount = r.unmount;
  // The recording predates the compact record: its games read through the log's own parser.
  for (const e of recordedEvents()) store.push(e.type === 'game-ended' ? { ...e, record: parseRecordLine(JSON.stringify(e.record))! } : e);
  await until(r.lastFrame, 'arena replay tournaments/results/recorded');
  return r;
}

/** Writes a key, waits for the frame to change, and returns it. */
async function press(r: { stdin: { write(s: string): void }; lastFrame(): string | undefined }, key: string): Promise<string> {
  await pressKeys(r, key);
  return r.lastFrame() ?? '';
}

describe('dashboard counts', () => {
  it('standings count exactly the games the header counts, at every render', async () => {
    const store = new DashboardStore(1e9);
    const seen: [number, number | undefined][] = [];
    // Standings events throttled out of reach: the store reads the run's standings when it draws.
    await runSpec(
      { bots: ['optimal', 'random', 'greedy'], games: [GAME], deals: 4, isolation: 'none', concurrency: 2 },
      {
        standingsEveryMs: 1e9,
        sink: {
          emit: (e: ArenaEvent) => {
            store.push(e);
            if (e.type !== 'game-ended') return;
            store.flush();
            const m = store.getSnapshot();
            seen.push([m.done, m.standings?.pooled.games]);
          },
        },
      },
    );
    expect(seen).toHaveLength(24);
    for (const [done, games] of seen) expect(games).toBe(done);
  });

  it('shows the games in flight the pool keeps', async () => {
    const store = new DashboardStore(1e9);
    let running: DashboardModel | null = null;
    await runSpec(
      { bots: ['optimal', 'random'], games: [GAME], deals: 3, isolation: 'none', concurrency: 3 },
      {
        sink: {
          detail: 'live',
          emit: (e: ArenaEvent) => {
            store.push(e);
            if (e.type === 'game-ended' && running === null) {
              store.flush();
              running = store.getSnapshot();
            }
          },
        },
      },
    );
    expect(running!.inFlight).toBe(3);
    const r = render(<DashboardHeader model={running!} width={100} paused={false} />);
    unmount = r.unmount;
    expect(r.lastFrame()).toMatch(/games\/s · 3 in flight/);
  });

  it('a run its sequential tests ended shows a full bar and the games they made needless, not a fraction', async () => {
    const store = new DashboardStore(5);
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={120} height={30} />);
    unmount = r.unmount;
    const { summary } = await runSpec(
      {
        games: ['subtraction{moves=1,2,3;n=20..40}'],
        bots: ['optimal', 'random'],
        format: 'gauntlet',
        champion: 'optimal',
        sprt: { elo0: 0, elo1: 50 },
        deals: 4000,
        isolation: 'none',
      },
      { sink: { emit: (e: ArenaEvent) => store.push(e) } },
    );
    expect(summary.games.skipped).toBeGreaterThan(0);
    const played = summary.games.played.toLocaleString('en-US');
    const f = await until(r.lastFrame, `${played}/${played} 100%`);
    expect(f).toContain(`${summary.games.skipped.toLocaleString('en-US')} not played: the sequential test had decided`);
    expect(f).not.toMatch(/\/8,000 \d/);
  });
});

describe('dashboard views', () => {
  it('orders the crosstable as the standings view lists the bots (a Swiss by its score table)', async () => {
    const store = new DashboardStore(5);
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={100} height={40} />);
    unmount = r.unmount;
    const events = recordedEvents();
    const finished = recording().finished;
    const pooled = finished.summary.standings.pooled;
    // A score table that ranks the bots otherwise than the pooled points do.
    const order = pooled.bots.map((b) => b.bot).reverse();
    const lines = order.map((bot, i) => ({ bot, score: 3 - i, buchholz: 0, sonnebornBerger: 0, gamePoints: 0, rounds: 3, byes: 0 }));
    for (const e of events.filter((x) => x.type !== 'finished')) store.push(e);
    store.push({ type: 'standings', standings: finished.summary.standings, format: { format: 'swiss', round: 3, rounds: 3, lines }, done: 18, total: 18 });
    store.flush();
    await until(r.lastFrame, '18/18');
    const f = await press(r, '3');
    const rows = f.split('\n').flatMap((l) => /^(\d) (\w+)/.exec(l)?.slice(1, 3) ?? []);
    expect(rows).toEqual(order.flatMap((b, i) => [String(i + 1), b]));
  });

  it('explains the standings’ colours and marks, under the table and under ?', async () => {
    const r = await finishedDashboard();
    r.stdin.write('2'); // the standings view (a finished dashboard may show it already)
    await until(r.lastFrame, 'n✗: moves that threw a won position away');
    const f = await press(r, '?');
    expect(f).toContain('Marks');
    expect(f).toContain('✗ a forfeit');
  });

  it('ends naming the commands that read the results: arena report DIR and arena replay DIR', async () => {
    const f = (await finishedDashboard()).lastFrame()!;
    expect(f).toContain('arena report tournaments/results/recorded');
    expect(f).toContain('arena replay tournaments/results/recorded');
  });

  it('scrolls the results and opens the highlighted game in the replay view, then comes back to it', async () => {
    const r = await finishedDashboard(20);
    let f = await press(r, '4');
    expect(f).toMatch(/❯ #18 /);
    expect(f).toContain('arena replay tournaments/results/recorded --game 18');
    for (let i = 0; i < 12; i++) f = await press(r, '\u001B[B');
    expect(f).toMatch(/❯ #6 /);
    expect(f).toMatch(/↑ \d+ newer/); // scrolled: the newest are above the window
    expect(f).not.toContain('#18 ');
    expect(f).toContain('--game 6');
    f = await press(r, 'G');
    expect(f).toMatch(/❯ #1 /);
    f = await press(r, '\u001B[5~'); // pgup
    expect(f).not.toMatch(/❯ #1 /);
    f = await press(r, 'g');
    f = await press(r, '\u001B[B');
    expect(f).toMatch(/❯ #17 /);
    f = await press(r, '\r');
    expect(f).toMatch(/^#17 .* · subtraction|^#17 /m);
    expect(f).toContain('ply 0/');
    f = await press(r, '\u001B[C');
    expect(f).toContain('ply 1/');
    f = await press(r, 'l');
    expect(f).toMatch(/❯ #17 /);
  });
});

describe('names cut to fit stay distinct', () => {
  it('keeps the ends of names that would read the same', () => {
    const names = ['optimal:strength=easy', 'optimal:strength=medium', 'optimal:strength=perfect', 'optimal', 'greedy'];
    const cut = shortNames(names, 7);
    expect(cut).toEqual(['optim…y', 'optim…m', 'optim…t', 'optimal', 'greedy']);
    expect(shortNames(['optimal:a=1', 'optimal:b=1'], 8)).toEqual(['opti…a=1', 'opti…b=1']);
    for (const w of [3, 5, 8, 12]) {
      const s = shortNames(names, w);
      expect(new Set(s).size).toBe(names.length);
      for (const x of s) expect(x.length).toBeLessThanOrEqual(w);
    }
  });

  it('at 80 columns, 9 bots whose names differ only at the end read as 9 names in the standings and the crosstable', () => {
    const pooled = recording().finished.summary.standings.pooled;
    const names = Array.from({ length: 9 }, (_, i) => `optimal:strength=0.${i + 1}-with-a-label-too-long-for-80-columns-${'abcdefghi'[i]}`);
    const base = pooled.bots[0]!;
    const table: Table = {
      ...pooled,
      bots: names.map((bot) => ({ ...base, bot })),
      crosstable: Object.fromEntries(names.map((a) => [a, Object.fromEntries(names.filter((b) => b !== a).map((b) => [b, { points: 10.5, games: 12 }]))])),
      ratings: { ...pooled.ratings, ratings: names.map((bot) => ({ ...pooled.ratings.ratings[0]!, bot })) },
    };
    for (const el of [<StandingsTable table={table} width={80} />, <Crosstable table={table} width={80} />]) {
      const r = render(el);
      const rows = r.lastFrame()!.split('\n').filter((l) => /^\s*\d+ +opti/.test(l));
      const shown = rows.map((l) => /^\s*\d+ +(\S+)/.exec(l)![1]);
      expect(shown).toHaveLength(9);
      expect(new Set(shown).size).toBe(9);
      if (el.type === Crosstable) expect(shown.every((s) => s!.includes('…'))).toBe(true);
      r.unmount();
    }
  });
});
