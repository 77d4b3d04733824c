import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArenaEvent, LiveGame, LiveSnapshot } from '../../src/arena/events.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import type { StandingsTable as Table } from '../../src/arena/fold/standings.ts';
import { Dashboard } from '../../src/tui/dashboard/Dashboard.tsx';
import { DashboardStore, gamesPerSecond, LOG_EACH_UPTO } from '../../src/tui/dashboard/dashboard-store.ts';
import { StandingsTable } from '../../src/tui/dashboard/StandingsTable.tsx';
import { settle, until, untilGone } from './frames.ts';
import { recordedEvents, recording } from './recorded-stream.ts';

/** A real event stream: optimal, random and greedy on three variants (recorded from `arena tournament`). */
const EVENTS = recordedEvents();
const FINISHED = recording().finished;
const POOLED: Table = FINISHED.summary.standings.pooled;

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

describe('dashboard store', () => {
  it('folds the stream: live games come and go, progress and one log line per game when they come slowly', () => {
    let now = 0;
    const store = new DashboardStore(1e9, () => now);
    const { steps, play } = recording();
    let maxLive = 0;
    for (const step of steps) {
      now += 10;
      play(step, (e) => store.push(e));
      store.flush(); // a render after every event and move: games finish one at a time
      maxLive = Math.max(maxLive, store.getSnapshot().live.length);
    }
    const m = store.getSnapshot();
    expect(maxLive).toBeGreaterThanOrEqual(1);
    expect(maxLive).toBeLessThanOrEqual(2); // concurrency 2
    expect(m.live).toHaveLength(0);
    expect(m.done).toBe(18);
    expect(m.total).toBe(18);
    expect(m.log).toHaveLength(18);
    expect(m.log[0]!.text).toMatch(/^\[ 1\/18\] subtraction.*: optimal vs random 1-0, \d+ moves$/);
    expect(m.finished?.interrupted).toBe(false);
    expect(m.seed).toBe(11);
    expect(gamesPerSecond(m)).toBeCloseTo(18 / ((steps.length - 1) * 0.01), 5);
  });
  it('reads live positions only when it renders, and serialises a game again only once it has moved', () => {
    const store = new DashboardStore(1e9);
    const start = EVENTS.find((e) => e.type === 'game-started')!;
    if (start.type !== 'game-started') throw new Error('no game-started in the recording');
    let snapshots = 0;
    let ply = 0;
    const pile = (n: number, toMove: 'first' | 'second' | null): LiveSnapshot['position'] => ({
      state: { pile: n },
      text: `pile ${n}`,
      toMove,
      toMoveBot: toMove ? start.seats[toMove] : null,
    });
    const live: LiveGame = {
      get ply() {
        return ply;
      },
      get over() {
        return ply === 17;
      },
      snapshot: () => {
        snapshots++;
        return ply === 0
          ? { ply, position: pile(17, 'first'), prevState: null, last: null }
          : { ply, position: pile(17 - ply, ply === 17 ? null : ply % 2 ? 'second' : 'first'), prevState: { pile: 18 - ply }, last: { seat: 'first', bot: start.seats.first, move: '1', ms: 0.5 } };
      },
    };
    store.push(EVENTS[0]!);
    store.push({ ...start, live });
    expect(snapshots).toBe(0); // nothing is read per event
    store.flush();
    expect(snapshots).toBe(1);
    const board = store.getSnapshot().live[0]!;
    expect(board).toMatchObject({ key: start.key, seats: start.seats, ply: 0, last: null, position: { text: 'pile 17' } });
    store.flush();
    expect(snapshots).toBe(1); // unchanged: the last board is reused
    expect(store.getSnapshot().live[0]).toBe(board);
    ply = 5; // five moves between two renders: one read
    store.flush();
    expect(snapshots).toBe(2);
    expect(store.getSnapshot().live[0]).toMatchObject({ ply: 5, position: { text: 'pile 12', toMove: 'second' }, prevState: { pile: 13 }, last: { move: '1' } });
    ply = 17; // over on the board: it leaves the view before its game-ended arrives
    store.flush();
    expect(store.getSnapshot().live).toHaveLength(0);
  });

  it('leaves time spent paused out of the rate', () => {
    let now = 0;
    const store = new DashboardStore(1e9, () => now);
    store.push(EVENTS[0]!);
    const ended = EVENTS.filter((e) => e.type === 'game-ended');
    for (const e of ended.slice(0, 5)) store.push(e);
    now = 1000;
    store.setPaused(true);
    expect(store.getSnapshot().paused).toBe(true);
    now = 61_000;
    store.flush();
    expect(store.getSnapshot().pausedMs).toBe(60_000);
    store.setPaused(false);
    now = 62_000;
    store.flush();
    const m = store.getSnapshot();
    expect(m.paused).toBe(false);
    expect(gamesPerSecond(m)).toBeCloseTo(5 / 2, 5); // 2 s of play, not 62
  });

  it('logs a burst of finished games as one line (and each forfeit), so fast tournaments stay cheap', () => {
    const store = new DashboardStore(1e9);
    const ended = EVENTS.filter((e) => e.type === 'game-ended');
    const forfeit = { ...ended[3]!, record: { ...(ended[3] as { record: GameRecord }).record, termination: 'timeout', faulty: 'second', reason: 'no move within 5 ms' } } as ArenaEvent;
    for (const e of [EVENTS[0]!, ...ended.slice(0, 3), forfeit, ...ended.slice(4)]) store.push(e);
    expect(ended.length).toBeGreaterThan(LOG_EACH_UPTO);
    store.flush();
    const log = store.getSnapshot().log.map((e) => e.text);
    expect(log).toHaveLength(2);
    expect(log[0]).toBe('[ 1–18/18] 18 games finished, 1 by forfeit:');
    expect(log[1]).toMatch(/^\[ 4\/18\] .* optimal forfeits: timeout \(no move within 5 ms\)$|^\[ 4\/18\] .* \w+ forfeits: timeout \(no move within 5 ms\)$/);
  });

  it('keeps a long burst of forfeits to a bounded log: the first ones, then how many more', () => {
    const store = new DashboardStore(1e9);
    const ended = EVENTS.filter((e): e is Extract<ArenaEvent, { type: 'game-ended' }> => e.type === 'game-ended');
    store.push(EVENTS[0]!);
    for (const [i, e] of ended.entries()) {
      store.push(i < 16 ? { ...e, record: { ...e.record, termination: 'crash', faulty: 'first', reason: `boom ${i}` } } : e);
    }
    store.flush();
    const log = store.getSnapshot().log.map((e) => e.text);
    expect(log[0]).toBe('[ 1–18/18] 18 games finished, 16 by forfeit:');
    expect(log.slice(1, 1 + LOG_EACH_UPTO).every((l, i) => l.endsWith(`forfeits: crash (boom ${i})`))).toBe(true);
    expect(log[1 + LOG_EACH_UPTO]).toBe(`  … and ${16 - LOG_EACH_UPTO} more forfeits (see the results view and games.jsonl)`);
    expect(log).toHaveLength(LOG_EACH_UPTO + 2);
  });
});

describe('standings table', () => {
  it('lists rank, bot, points, W/D/L, rating ± interval, accuracy and forfeits', () => {
    const f = render(<StandingsTable table={POOLED} width={100} />).lastFrame()!;
    const lines = f.split('\n');
    expect(lines[0]).toMatch(/#\s+bot\s+points\s+W\/D\/L\s+rating\s+accuracy\s+forfeits/);
    expect(lines[1]).toMatch(/^1\s+optimal\s+12\/12\s+12\/0\/0\s+\+\d+ ±\d+\s+100\.0% 0✗\s+0$/);
    expect(f).toContain('18 games · first-seat advantage');
  });
  it('drops the least important columns on a narrow terminal and cuts nothing it keeps', () => {
    const f = render(<StandingsTable table={POOLED} width={32} />).lastFrame()!;
    const lines = f.split('\n');
    expect(lines[0]).toMatch(/#\s+bot\s+points\s+W\/D\/L$/);
    expect(lines[1]).toMatch(/^1\s+optimal\s+12\/12\s+12\/0\/0$/);
    for (const l of lines.slice(0, 4)) expect(l.length).toBeLessThanOrEqual(32);
  });
});

describe('dashboard fed with a recorded event stream', () => {
  it('shows live boards, logs finished games, switches views by key and ends with the results folder', async () => {
    const store = new DashboardStore(5);
    let quits = 0;
    const r = render(<Dashboard store={store} controls={{ quit: () => void quits++ }} width={100} height={40} />);
    unmount = r.unmount;
    const { steps, play } = recording();
    const push = (e: ArenaEvent): void => store.push(e);
    // Up to the first move of the first game.
    const firstMove = steps.findIndex((e) => e.type === 'move');
    for (const e of steps.slice(0, firstMove + 1)) play(e, push);
    let f = await until(r.lastFrame, /ply 1: optimal played \d in/);
    expect(f).toContain('tournament');
    expect(f).toMatch(/0\/18 0\.0%/);
    expect(f).toMatch(/#1 optimal vs random · subtraction\{moves=1,2,3;n=12\.\.20\}/);
    expect(f).toMatch(/ply 1: optimal played \d in/);
    expect(f).toContain('○'); // the stones just taken

    // Up to the first finished game: it is logged above the dashboard.
    const firstEnd = steps.findIndex((e) => e.type === 'game-ended');
    for (const e of steps.slice(firstMove + 1, firstEnd + 1)) play(e, push);
    await until(r.lastFrame, /1\/18 5\.6%/);
    expect(r.frames.join('\n')).toMatch(/\[ 1\/18\] subtraction/);

    r.stdin.write('4');
    await until(r.lastFrame, /#\d+ \w+ vs \w+ [01]-[01] · subtraction.* · \d+ moves/);
    r.stdin.write('?');
    await until(r.lastFrame, 'freeze or unfreeze the display');
    r.stdin.write('?');
    await untilGone(r.lastFrame, 'freeze or unfreeze the display');

    for (const e of steps.slice(firstEnd + 1)) play(e, push);
    f = await until(r.lastFrame, 'Finished: results in tournaments/results/recorded');
    expect(f).toContain('18/18 100%');
    r.stdin.write('2');
    await until(r.lastFrame, /1\s+optimal\s+12\/12/);
    r.stdin.write('\t');
    await until(r.lastFrame, /1 optimal\s+·\s+6\/6\s+6\/6/); // crosstable row: optimal beat both others in all 6 games
    r.stdin.write('q');
    await settle(); // nothing on screen changes: q after the end stops nothing
    expect(quits).toBe(0); // already finished: nothing to stop
  });

  it('p pauses and resumes the run itself; the display stays live while paused', async () => {
    const store = new DashboardStore(5);
    const calls: string[] = [];
    const controls = { quit: () => void calls.push('quit'), pause: () => void calls.push('pause'), resume: () => void calls.push('resume') };
    const r = render(<Dashboard store={store} controls={controls} width={100} height={40} />);
    unmount = r.unmount;
    const { steps, play } = recording();
    const push = (e: ArenaEvent): void => store.push(e);
    const firstEnd = steps.findIndex((e) => e.type === 'game-ended');
    for (const e of steps.slice(0, firstEnd + 1)) play(e, push);
    await until(r.lastFrame, /variants? · running/);
    r.stdin.write('p');
    let f = await until(r.lastFrame, /variants? · paused/);
    expect(calls).toEqual(['pause']);
    expect(f).toContain('paused: games in flight finish, no new game starts');
    // Games in flight still finish on screen while paused.
    const secondEnd = steps.findIndex((e, i) => i > firstEnd && e.type === 'game-ended');
    for (const e of steps.slice(firstEnd + 1, secondEnd + 1)) play(e, push);
    await until(r.lastFrame, /2\/18 11\.1%/);
    r.stdin.write('?');
    await until(r.lastFrame, 'pause or resume the tournament');
    r.stdin.write('?');
    await untilGone(r.lastFrame, 'pause or resume the tournament');
    r.stdin.write('p');
    f = await until(r.lastFrame, /variants? · running/);
    expect(calls).toEqual(['pause', 'resume']);
    expect(f).not.toContain('paused:');
  });

  it('q asks the run to stop; an interrupted finish says where the results are (the resume command follows the torn-down dashboard)', async () => {
    const store = new DashboardStore(5);
    let quits = 0;
    const resumeCommand = (dir: string): string => `arena tournament --resume ${JSON.stringify(dir)}`;
    const r = render(<Dashboard store={store} controls={{ quit: () => void quits++, resumeCommand }} width={80} height={24} />);
    unmount = r.unmount;
    const { steps, play } = recording();
    const half = steps.findIndex((e) => e.type === 'game-ended' && e.done === 9);
    for (const e of steps.slice(0, half + 1)) play(e, (ev) => store.push(ev));
    await until(r.lastFrame, '9/18');
    r.stdin.write('q');
    await until(r.lastFrame, 'stopping');
    expect(quits).toBe(1);
    store.push({ ...FINISHED, interrupted: true });
    const f = await until(r.lastFrame, 'Stopped after 9 of 18 games; results saved in tournaments/results/recorded');
    expect(f).toContain('interrupted');
  });
});

describe('dashboard of a queued tournament', () => {
  it('shows the link to Redis and the workers (count, games each, last heartbeat), and logs an outage', async () => {
    const store = new DashboardStore(5);
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={140} height={40} />);
    unmount = r.unmount;
    const { steps, play } = recording();
    play(steps[0]!, (e) => store.push(e)); // tournament-started
    const url = 'redis://127.0.0.1:6379';
    store.push({ type: 'queue-link', state: 'connected', detail: '', url });
    store.push({
      type: 'queue-status',
      link: 'connected',
      detail: '',
      queued: 12,
      workers: [
        { id: 'w1', host: 'a', state: 'working', games: 8, lastBeatS: 1 },
        { id: 'w2', host: 'b', state: 'stopping', games: 4, lastBeatS: 3 },
      ],
    });
    await until(r.lastFrame, /Redis connected · 2 workers: w1 8 games \(1 s\) · w2 4 games \(3 s, stopping\) · 12 pairs queued/);
    store.push({ type: 'queue-link', state: 'reconnecting', detail: 'connect ECONNREFUSED', url });
    store.push({ type: 'queue-problem', worker: 'w2', reason: 'refused bundle 0123…' });
    await until(r.lastFrame, /Redis reconnecting/);
    expect(r.frames.join('\n')).toMatch(/Redis redis:\/\/127\.0\.0\.1:6379: reconnecting \(connect ECONNREFUSED\); nothing already logged is lost/);
    expect(r.frames.join('\n')).toMatch(/! worker w2: refused bundle/);
  });

  it('draws the games in flight on workers like local ones, each labelled with its worker', async () => {
    const store = new DashboardStore(5);
    const r = render(<Dashboard store={store} controls={{ quit: () => {} }} width={100} height={40} />);
    unmount = r.unmount;
    const { steps, play } = recording();
    // The coordinator's events for a queued game: the same `game-started`, with the worker's name.
    const push = (e: ArenaEvent): void => store.push(e.type === 'game-started' ? { ...e, worker: 'w1' } : e);
    const firstMove = steps.findIndex((e) => e.type === 'move');
    for (const e of steps.slice(0, firstMove + 1)) play(e, push);
    const f = await until(r.lastFrame, /ply 1: optimal played \d in/);
    expect(f).toMatch(/#1 optimal vs random · subtraction\{moves=1,2,3;n=12\.\.20\} · on w1/);
    expect(f).toMatch(/ply 1: optimal played \d in/);
    expect(f).not.toContain('no games in flight');
  });
});
