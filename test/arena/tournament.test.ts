import { existsSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArenaEvent, LiveGame, LiveSnapshot, TournamentStartedEvent } from '../../src/arena/events.ts';
import { LogChain, readLogKey } from '../../src/arena/results/index.ts';
import type { Executor } from '../../src/arena/executor.ts';
import { localExecutor, PauseGate, type PreparedTournament } from '../../src/arena/tournament.ts';
import { comparableLog, readLog, runSpec, timeless } from './helpers.ts';

const SPEC = {
  name: 'unit',
  seed: 42,
  games: ['subtraction{n=20..60}', { family: 'end-game', params: { length: 6 } }],
  bots: ['fx-random', 'fx-first', 'random'],
  deals: 3,
  timePerMoveMs: 1000,
  isolation: 'none' as const,
  concurrency: 2,
};

describe('tournament (in-process)', () => {
  it('plays the whole schedule, writes the log, summary and standings', async () => {
    const events: ArenaEvent[] = [];
    const { dir, summary, interrupted } = await runSpec(SPEC, { sink: { emit: (e) => events.push(e) } });
    expect(interrupted).toBe(false);
    const log = readLog(dir);
    expect(log).toHaveLength(3 * 2 * 3 * 2); // pairs × variants × deals × seatings
    expect(new Set(log.map((r) => r.key)).size).toBe(log.length);
    expect(summary.games).toMatchObject({ total: 36, played: 36, byTermination: { normal: 36 } });
    expect(existsSync(join(dir, 'summary.json'))).toBe(true);
    const csv = readFileSync(join(dir, 'standings.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^scope,rank,bot,games,wins/);
    expect(csv).toHaveLength(1 + 3 + 2 * 3);
    // Every game reported once, after its line was written; standings and finished at the end.
    expect(events.filter((e) => e.type === 'game-ended')).toHaveLength(36);
    expect(events.at(-1)?.type).toBe('finished');
    // Scored variant: end-game games carry scores; the bots' points add up to the games played.
    const eg = log.filter((r) => r.variant.startsWith('end-game'));
    expect(eg.every((r) => r.outcome.scores !== undefined)).toBe(true);
    const pooled = summary.standings.pooled;
    expect(pooled.bots.reduce((s, b) => s + b.points, 0)).toBe(36);
    // Both seatings of a deal start from the same position.
    const byDeal = new Map<string, unknown[]>();
    for (const r of log) byDeal.set(`${r.variant}|${r.deal}`, [...(byDeal.get(`${r.variant}|${r.deal}`) ?? []), JSON.stringify(r.start)]);
    for (const starts of byDeal.values()) expect(new Set(starts).size).toBe(1);
  });

  it('is deterministic: the same seed gives the same games move for move, at any concurrency', async () => {
    const a = await runSpec(SPEC);
    const b = await runSpec({ ...SPEC, concurrency: 1 });
    expect(comparableLog(b.dir)).toEqual(comparableLog(a.dir));
    expect(timeless(b.summary.standings)).toEqual(timeless(a.summary.standings));
    const c = await runSpec({ ...SPEC, seed: 43 });
    expect(comparableLog(c.dir)).not.toEqual(comparableLog(a.dir));
  });

  it('resumes an interrupted run (truncated last line included) to the same log and standings', async () => {
    const whole = await runSpec(SPEC);
    const controller = new AbortController();
    let seen = 0;
    const part = await runSpec(SPEC, {
      signal: controller.signal,
      sink: {
        detail: 'live',
        emit: (e) => {
          // In-process games outrun the group commit, so stop on the 12th start rather than an end.
          if (e.type === 'game-started' && ++seen === 12) controller.abort();
        },
      },
    });
    expect(part.interrupted).toBe(true);
    expect(existsSync(join(part.dir, 'summary.json'))).toBe(false);
    const partial = readLog(part.dir);
    expect(partial.length).toBeGreaterThanOrEqual(10);
    expect(partial.every((r) => r.termination === 'normal')).toBe(true);
    expect(partial.length).toBeLessThan(36);
    // A crash in the middle of a write leaves a partial line: it is dropped and the game replayed.
    const line = JSON.stringify(whole.summary).slice(0, 40);
    appendFileSync(join(part.dir, 'games.jsonl'), line);
    const resumed = await runSpec(SPEC, { resumeDir: part.dir });
    expect(resumed.interrupted).toBe(false);
    expect(resumed.dir).toBe(part.dir);
    expect(comparableLog(resumed.dir)).toEqual(comparableLog(whole.dir));
    expect(timeless(resumed.summary.standings)).toEqual(timeless(whole.summary.standings));
    // Resuming a finished folder plays nothing more.
    const again = await runSpec(SPEC, { resumeDir: part.dir });
    expect(readLog(again.dir)).toHaveLength(36);
    writeFileSync(join(part.dir, 'x'), ''); // the folder is still ours to write in
  });

  it('resumes from the set of games done: a repeated line counts once, a line of another schedule is dropped and counted', async () => {
    const whole = await runSpec(SPEC);
    const lines = readFileSync(join(whole.dir, 'games.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    /** Lines re-sealed with a folder's own key, as its runner would have written them. */
    const sealed = (dir: string, texts: string[]): string => {
      const chain = new LogChain(readLogKey(dir));
      return texts.map((l) => `${chain.seal(l.replace(/,"chk":"[0-9a-f]+"\}$/, '}'))}\n`).join('');
    };
    // A log whose first ten lines were written twice (say by two workers of a queue).
    const twice = await runSpec(SPEC, { signal: AbortSignal.abort() });
    writeFileSync(join(twice.dir, 'games.jsonl'), sealed(twice.dir, [...lines.slice(0, 10), ...lines.slice(0, 10)]));
    const events: ArenaEvent[] = [];
    const resumed = await runSpec(SPEC, { resumeDir: twice.dir, sink: { emit: (e) => events.push(e) } });
    expect(resumed.summary.games.played).toBe(36);
    expect(timeless(resumed.summary.standings)).toEqual(timeless(whole.summary.standings));
    const started = events.find((e): e is TournamentStartedEvent => e.type === 'tournament-started');
    expect(started?.done).toBe(10);
    expect(started?.repaired?.dropped).toEqual({ duplicate: 10 });
    // A game of another tournament (another variant at that index) is not this tournament's result.
    const other = await runSpec({ ...SPEC, games: ['subtraction{n=21..60}'] });
    const foreign = await runSpec(SPEC, { signal: AbortSignal.abort() });
    const otherLine = readFileSync(join(other.dir, 'games.jsonl'), 'utf8').split('\n')[1]!;
    writeFileSync(join(foreign.dir, 'games.jsonl'), sealed(foreign.dir, [lines[0]!, otherLine]));
    const seen: ArenaEvent[] = [];
    const again = await runSpec(SPEC, { resumeDir: foreign.dir, sink: { emit: (e) => seen.push(e) } });
    const s2 = seen.find((e): e is TournamentStartedEvent => e.type === 'tournament-started');
    expect(s2?.done).toBe(1);
    expect(s2?.repaired?.dropped).toEqual({ unscheduled: 1 });
    expect(timeless(again.summary.standings)).toEqual(timeless(whole.summary.standings));
  });

  it('pauses between games: nothing starts while paused, games in flight finish, the log is that of an unpaused run', async () => {
    const whole = await runSpec(SPEC);
    const gate = new PauseGate();
    gate.pause(); // paused before the first game
    let started = 0;
    let ended = 0;
    let pausedAgain = false;
    const run = runSpec(SPEC, {
      pause: gate,
      sink: {
        detail: 'live',
        emit: (e) => {
          if (e.type === 'game-started' && ++started === 7) {
            gate.pause(); // mid-run: this game (and any other in flight) still plays to its end
            pausedAgain = true;
          }
          if (e.type === 'game-ended') ended++;
        },
      },
    });
    const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await settle(120);
    expect(started).toBe(0);
    expect(gate.paused).toBe(true);
    gate.resume();
    while (!pausedAgain) await settle(5);
    // The games in flight finish (however long a busy machine takes); then none starts while paused.
    while (ended < started) await settle(5);
    await settle(120);
    const held = started;
    expect(held).toBeGreaterThanOrEqual(7);
    expect(held).toBeLessThan(36);
    expect(ended).toBe(held);
    await settle(120);
    expect(started).toBe(held); // still nothing new
    gate.resume();
    const result = await run;
    expect(result.interrupted).toBe(false);
    expect(started).toBe(36);
    expect(comparableLog(result.dir)).toEqual(comparableLog(whole.dir));
    expect(timeless(result.summary.standings)).toEqual(timeless(whole.summary.standings));
  });

  it('stops a paused run at once when it is aborted', async () => {
    const gate = new PauseGate();
    gate.pause();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const result = await runSpec(SPEC, { pause: gate, signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(readLog(result.dir)).toHaveLength(0);
  });

  it('gives sinks that ask for live games a view of each game that follows its moves', async () => {
    const events: ArenaEvent[] = [];
    const seen = new Map<string, LiveSnapshot[]>();
    const views: { key: string; live: LiveGame }[] = [];
    // Polls like a dashboard (fx-slow thinks 4 ms a move, so there are positions mid-game to see).
    const poll = setInterval(() => {
      for (const v of views) seen.get(v.key)!.push(v.live.snapshot());
    }, 1);
    let run;
    try {
      run = await runSpec({ ...SPEC, games: ['subtraction{n=20}'], bots: ['fx-first', 'fx-slow'], deals: 1 }, {
        sink: {
          detail: 'live',
          emit: (e) => {
            events.push(e);
            if (e.type === 'game-started') {
              views.push({ key: e.key, live: e.live });
              seen.set(e.key, [e.live.snapshot()]);
            }
          },
        },
      });
    } finally {
      clearInterval(poll);
    }
    expect(run.interrupted).toBe(false);
    const started = events.filter((e) => e.type === 'game-started');
    const ended = events.flatMap((e) => (e.type === 'game-ended' ? [e.record] : []));
    expect(started).toHaveLength(2);
    expect(ended).toHaveLength(2);
    expect(events.some((e) => (e.type as string) === 'move')).toBe(false); // moves are never events
    for (const rec of ended) {
      const snaps = seen.get(rec.key)!;
      // The first look: at most the moves fx-first made before fx-slow's first reply.
      const first = snaps[0]!;
      expect(first.ply).toBeLessThanOrEqual(1);
      expect(first.position.state).toEqual({ pile: 20 - first.ply });
      // Mid-game looks: the position after `ply` moves, the last of those moves, whose turn it is.
      const mid = snaps.filter((s) => s.ply > 0 && s.position.toMove !== null);
      expect(mid.length).toBeGreaterThan(0);
      for (const s of mid) {
        const last = rec.moves[s.ply - 1]!;
        expect(s.last).toMatchObject({ move: last, bot: rec.seats[s.last!.seat] });
        expect(s.last!.seat).toBe(s.ply % 2 === 1 ? 'first' : 'second');
        expect(s.position.text).toMatch(/^pile \d+, (first|second) to move$/);
        expect(s.position.toMoveBot).toBe(rec.seats[s.position.toMove!]);
        expect(s.prevState).toEqual({ pile: (s.position.state as { pile: number }).pile + Number(last) });
      }
      // After the end: the final position, nobody to move.
      const view = views.find((v) => v.key === rec.key)!.live;
      expect(view.over).toBe(true);
      const final = view.snapshot();
      expect(final.ply).toBe(rec.moves.length);
      expect(final.position).toMatchObject({ state: { pile: 0 }, toMove: null, toMoveBot: null });
      expect(final.last?.move).toBe(rec.moves.at(-1));
    }
  });

  it('gives in-process bots a read-only state: a bot that writes to it crashes, the runner is untouched', async () => {
    const { dir } = await runSpec({ ...SPEC, games: ['subtraction{n=20..40}'], bots: ['fx-mutates', 'fx-first', 'fx-illegal'], deals: 2 });
    const log = readLog(dir);
    expect(log).toHaveLength(12);
    for (const r of log.filter((x) => x.seats.first === 'fx-mutates' || x.seats.second === 'fx-mutates')) {
      if (r.faulty && r.seats[r.faulty] === 'fx-illegal') continue; // fx-illegal moved first and lost
      expect(r.termination).toBe('crash');
      expect(r.seats[r.faulty!]).toBe('fx-mutates');
      expect(r.reason).toMatch(/read.only|Cannot assign/);
    }
    const fair = log.filter((x) => x.seats.first !== 'fx-mutates' && x.seats.second !== 'fx-mutates');
    expect(fair.every((r) => r.termination === 'illegal-move' && r.reason?.startsWith('returned 9999'))).toBe(true);
  });

  it('folds every result once by its key, however often an executor hands it over', async () => {
    const whole = await runSpec(SPEC);
    const events: ArenaEvent[] = [];
    // An executor that delivers every finished game twice (as a retried remote job would).
    const twice = (t: PreparedTournament, dir: string): Executor => {
      const pool = localExecutor(t, dir);
      return {
        concurrency: pool.concurrency,
        run: (ctx) => pool.run({ ...ctx, finish: (rec) => ctx.finish(rec) ?? ctx.finish(structuredClone(rec)) }),
        close: () => pool.close(),
      };
    };
    const again = await runSpec(SPEC, { executor: twice, sink: { emit: (e) => events.push(e) } });
    expect(readLog(again.dir)).toHaveLength(36);
    expect(comparableLog(again.dir)).toEqual(comparableLog(whole.dir));
    expect(events.filter((e) => e.type === 'game-ended')).toHaveLength(36);
    expect(timeless(again.summary.standings)).toEqual(timeless(whole.summary.standings));
  });
});
