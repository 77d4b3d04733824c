/**
 * Time banks (`--tc base+inc`): the notation, each seat's bank in the match (think time taken,
 * increment added, a move past the bank plus the margin lost on time), the clock every host shows
 * its bot (`ctx.clock`, the protocol's `timeLeftMs`), and the arena's overhead kept apart from the
 * think time. Sleeps are generous against the banks: nothing here depends on a quiet machine.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { validateSpec } from '../../src/arena/spec.ts';
import { formatTimeControl, parseTimeControl, timeControlProblem } from '../../src/arena/time-control.ts';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import { prepareTournament, resumeSpec, runTournament } from '../../src/arena/tournament.ts';
import { discoverBots } from '../../src/hosting/index.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';
import { FIXTURE_BOTS, readLog, runSpec } from './helpers.ts';

describe('time control notation', () => {
  it('reads base+inc and base alone, in seconds, as cutechess writes them', () => {
    expect(parseTimeControl('10+0.1')).toEqual({ baseMs: 10_000, incMs: 100 });
    expect(parseTimeControl('2+0.05')).toEqual({ baseMs: 2000, incMs: 50 });
    expect(parseTimeControl('60')).toEqual({ baseMs: 60_000, incMs: 0 });
    expect(parseTimeControl(' 0.5+0 ')).toEqual({ baseMs: 500, incMs: 0 });
    expect(formatTimeControl({ baseMs: 10_000, incMs: 100 })).toBe('10+0.1');
    expect(formatTimeControl({ baseMs: 60_000, incMs: 0 })).toBe('60');
  });

  it('refuses anything else, saying what was expected', () => {
    for (const bad of ['10+', '+1', '-5', '10+-1', '1e3', 'ten', '', '10 + 1', '0', '0.0001', '100000', '10+4000']) {
      expect(timeControlProblem(bad), bad).not.toBeNull();
      expect(() => parseTimeControl(bad), bad).toThrow(/^expected a time control/);
    }
    expect(timeControlProblem('40/60+0.5')).toMatch(/moves per period.*not supported/);
  });

  it('in a spec: `timeControl` and `timeMarginMs`; the per-move default only without a time control', () => {
    const plain = validateSpec({ games: ['piles'] });
    expect(plain.timePerMoveMs).toBe(1000);
    const banked = validateSpec({ games: ['piles'], timeControl: '5+0.05', timeMarginMs: 80 });
    expect(banked).toMatchObject({ timeControl: '5+0.05', timeMarginMs: 80 });
    expect(banked.timePerMoveMs).toBeUndefined();
    expect(validateSpec({ games: ['piles'], timeControl: '5', timePerMoveMs: 200 }).timePerMoveMs).toBe(200);
    expect(() => validateSpec({ games: ['piles'], timeControl: '10+' })).toThrow(/`timeControl`: expected a time control like 10\+0.1 .*got "10\+"/);
    expect(() => validateSpec({ games: ['piles'], timeMarginMs: -1 })).toThrow(/`timeMarginMs`/);
  });
});

/** The seat that moved at each ply of a record, replayed from its deal. */
function movers(rec: GameRecord): ('first' | 'second')[] {
  const game = parseVariant(rec.variant);
  let s = game.deal(createRng(rec.dealSeed));
  return rec.moves.map((m) => {
    const seat = game.toMove(s);
    s = game.play(s, game.parseMove(m, s));
    return seat;
  });
}

/** Replays a seat's bank (µs) from the record: before each of its moves, and after its last. */
function banks(rec: GameRecord, seat: 'first' | 'second'): number[] {
  const tc = rec.timeControl!;
  let bank = tc.baseMs * 1000;
  const out = [bank];
  movers(rec).forEach((s, i) => {
    if (s !== seat) return;
    bank = Math.max(0, bank - rec.us[i]!) + tc.incMs * 1000;
    out.push(bank);
  });
  return out;
}

describe('time banks in the match', () => {
  it('a bot that sleeps past its bank loses on time, and the record says why', async () => {
    // 1 s for the game and 400 ms a move: the third move overruns the 200 ms left, by far.
    const { dir, summary } = await runSpec({
      bots: ['fx-clock:ms=400', 'fx-first'],
      games: ['subtraction{moves=1,2;n=30..40}'],
      deals: 1,
      timeControl: '1',
      isolation: 'none',
      concurrency: 2,
    });
    const log = readLog(dir);
    expect(log).toHaveLength(2);
    for (const rec of log) {
      const slow = rec.seats.first === 'fx-clock:ms=400' ? 'first' : 'second';
      expect(rec.termination, rec.reason ?? '').toBe('timeout');
      expect(rec.faulty).toBe(slow);
      expect(rec.reason).toMatch(/^time bank exhausted \(\d+\.\d ms left \+ 50 ms margin\): /);
      expect(rec.timeControl).toEqual({ baseMs: 1000, incMs: 0 });
      // The moves it did play were charged and fit in the bank; the one that overran is not in the record.
      const spent = rec.us.filter((_u, i) => movers(rec)[i] === slow);
      expect(spent.length).toBeLessThanOrEqual(2);
      expect(spent.reduce((a, b) => a + b, 0)).toBeLessThan(1_000_000);
      expect(rec.ovh).toHaveLength(rec.moves.length);
    }
    expect(summary.games.byTermination.timeout).toBe(2);
  });

  it('a bot within its bank plus increments plays many moves, more think time than the base alone', async () => {
    // 1 s + 50 ms a move, 30 ms a move over 40 moves: 1.2 s of thinking, paid by the increments.
    const { dir } = await runSpec({
      bots: ['fx-clock:ms=30', 'fx-first'],
      games: ['subtraction{moves=1;n=80}'],
      deals: 1,
      timeControl: '1+0.05',
      isolation: 'none',
      concurrency: 2,
    });
    for (const rec of readLog(dir)) {
      expect(rec.termination, rec.reason ?? '').toBe('normal');
      expect(rec.moves).toHaveLength(80);
      const seat = rec.seats.first === 'fx-clock:ms=30' ? 'first' : 'second';
      const spent = rec.us.filter((_u, i) => movers(rec)[i] === seat).reduce((a, b) => a + b, 0);
      expect(spent).toBeGreaterThan(1_000_000);
      expect(Math.min(...banks(rec, seat))).toBeGreaterThan(0);
    }
  });
});

// Skipped only on a machine without bubblewrap (CI has it, and fails without it).
describe.skipIf(sandboxProblem() !== null && !process.env['CI'])('the clock in the sandbox', () => {
  it('a sandboxed module bot gets its clock, and its runner reports the think time the bank is charged', async () => {
    // check=1: the bot throws (a crash) unless it has a clock that its deadline does not exceed.
    const { dir, summary } = await runSpec({ bots: ['fx-clock:check=1', 'fx-first'], games: ['subtraction{moves=1,2;n=12}'], deals: 1, timeControl: '5', isolation: 'sandbox', concurrency: 2 });
    for (const rec of readLog(dir)) {
      expect(rec.termination, rec.reason ?? '').toBe('normal');
      const seat = rec.seats.first === 'fx-clock:check=1' ? 'first' : 'second';
      movers(rec).forEach((s, i) => {
        if (s === seat) expect(rec.us[i]).toBeGreaterThanOrEqual(14_000); // its 15 ms pause, charged
      });
      expect(rec.ovh).toHaveLength(rec.moves.length);
    }
    // A process costs a pipe both ways on every move: overhead the bank was not charged.
    expect(summary.time!.overheadMs).toBeGreaterThan(0);
  });
});

describe('time banks and resume', () => {
  it('a resumed run plays on the saved time control and sums the whole log', async () => {
    const spec = { bots: ['fx-slow', 'fx-first'], games: ['subtraction{n=15..25}'], deals: 6, timeControl: '3+0.01', timeMarginMs: 70, isolation: 'worker' as const, concurrency: 2 };
    const controller = new AbortController();
    let ended = 0;
    const part = await runSpec(spec, { signal: controller.signal, sink: { emit: (e) => void (e.type === 'game-ended' && ++ended === 4 && controller.abort()) } });
    expect(part.interrupted).toBe(true);
    const saved = resumeSpec(part.dir);
    expect(saved).toMatchObject({ timeControl: '3+0.01', timeMarginMs: 70 });
    const resumed = await runTournament(prepareTournament(saved, await discoverBots([FIXTURE_BOTS])), { resumeDir: part.dir });
    expect(resumed.interrupted).toBe(false);
    const log = readLog(part.dir);
    expect(log).toHaveLength(12);
    for (const rec of log) {
      expect(rec.timeControl).toEqual({ baseMs: 3000, incMs: 10 });
      expect(rec.ovh).toHaveLength(rec.moves.length);
    }
    expect(resumed.summary.time!.moves).toBe(log.reduce((n, r) => n + r.moves.length, 0));
  });
});

/** A bot program for the external protocol: plays the first move after 15 ms and logs the clock fields of each request. */
const EXTERNAL_CLOCK_BOT = `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const log = process.env.FX_CLOCK_LOG;
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.type === 'hello') console.log('{"type":"ready"}');
  else if (m.type === 'move-request') {
    const t0 = performance.now();
    const clock = m.timeLeftMs === undefined ? null : { remainingMs: m.timeLeftMs, incrementMs: m.incrementMs, opponentRemainingMs: m.opponentTimeLeftMs };
    if (log) appendFileSync(log, JSON.stringify({ clock, left: m.timeMs }) + '\\n');
    // 15 ms of CPU time (what the arena reads) and of its own clock (what it reports): other threads can make the one outrun the other.
    const c0 = process.cpuUsage();
    for (let c = process.cpuUsage(c0); (c.user + c.system) / 1000 < 15 || performance.now() - t0 < 15; c = process.cpuUsage(c0));
    console.log(JSON.stringify({ move: m.moves[0], id: m.id, thinkMs: performance.now() - t0 }));
  } else if (m.type === 'quit') process.exit(0);
}
`;

interface Seen {
  readonly clock: { remainingMs: number; incrementMs: number; opponentRemainingMs: number } | null;
  readonly left: number;
}

describe('the clock each host shows its bot', () => {
  const saved = process.env['FX_CLOCK_LOG'];
  afterEach(() => {
    if (saved === undefined) delete process.env['FX_CLOCK_LOG'];
    else process.env['FX_CLOCK_LOG'] = saved;
  });

  it.each([
    ['none', 'fx-clock'],
    ['worker', 'fx-clock'],
    ['external', 'fx-ext-clock'],
  ] as const)('isolation %s: a decreasing bank, exactly the base minus the think time the record charged', async (isolation, bot) => {
    const folder = mkdtempSync(join(tmpdir(), 'arena-tc-'));
    const file = join(folder, 'clock.jsonl');
    writeFileSync(file, '');
    process.env['FX_CLOCK_LOG'] = file;
    if (isolation === 'external') {
      // The program in a sub-folder: discovery would load a module beside the manifest as a bot.
      mkdirSync(join(folder, 'prog'));
      writeFileSync(join(folder, 'prog', 'clock.mjs'), EXTERNAL_CLOCK_BOT);
      writeFileSync(join(folder, 'fx-ext-clock.bot.json'), JSON.stringify({ name: 'fx-ext-clock', description: 'fixture: logs its clock', command: ['node', 'prog/clock.mjs'] }));
    }
    // One game at a time, so the log's lines follow the schedule; no increment, so the bank only falls.
    const spec = validateSpec({
      bots: [bot, 'fx-first'],
      games: ['subtraction{moves=1,2;n=16}'],
      deals: 1,
      timeControl: '5',
      isolation: isolation === 'external' ? 'worker' : isolation,
      concurrency: 1,
      out: folder,
    });
    const { dir, summary } = await runTournament(prepareTournament(spec, await discoverBots([FIXTURE_BOTS, folder])));
    const seen = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Seen);
    const log = readLog(dir).sort((a, b) => a.index - b.index);
    let at = 0;
    for (const rec of log) {
      expect(rec.termination, rec.reason ?? '').toBe('normal');
      const seat = rec.seats.first === bot ? 'first' : 'second';
      const other = seat === 'first' ? 'second' : 'first';
      const mine = banks(rec, seat);
      const theirs = banks(rec, other);
      const who = movers(rec);
      let k = 0;
      let j = 0;
      let last = Infinity;
      for (let i = 0; i < rec.moves.length; i++) {
        if (who[i] !== seat) {
          j++;
          continue;
        }
        const s = seen[at++]!;
        expect(s.clock, `move ${i} of game ${rec.index}`).not.toBeNull();
        // The bank shown is the base minus every earlier move's charged think time, to the µs.
        expect(s.clock!.remainingMs).toBeCloseTo(mine[k]! / 1000, 6);
        expect(s.clock!.opponentRemainingMs).toBeCloseTo(theirs[j]! / 1000, 6);
        expect(s.clock!.incrementMs).toBe(0);
        expect(s.clock!.remainingMs).toBeLessThan(last);
        // The deadline never leaves more than the bank.
        expect(s.left).toBeLessThanOrEqual(s.clock!.remainingMs + 1);
        last = s.clock!.remainingMs;
        k++;
      }
      // The bot computed 15 ms a move: that is charged (not lost in the overhead), and the overhead is kept per move.
      for (let i = 0; i < rec.moves.length; i++) if (who[i] === seat) expect(rec.us[i]).toBeGreaterThanOrEqual(14_000);
      expect(rec.ovh).toHaveLength(rec.moves.length);
      expect(rec.ovh!.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
    }
    expect(at).toBe(seen.length);
    // The summary sums both apart: every timed move, think time and overhead to the µs.
    const ovh = log.flatMap((r) => r.ovh!);
    const us = log.flatMap((r) => r.us);
    expect(summary.time).toEqual({
      moves: ovh.length,
      thinkMs: us.reduce((a, b) => a + b, 0) / 1000,
      overheadMs: ovh.reduce((a, b) => a + b, 0) / 1000,
      meanOverheadUs: Math.round(ovh.reduce((a, b) => a + b, 0) / ovh.length),
      maxOverheadUs: Math.max(...ovh),
    });
    // A thread or a process costs messages on every move; an in-process bot has no transport.
    if (isolation === 'none') expect(summary.time!.overheadMs).toBe(0);
    else expect(summary.time!.overheadMs).toBeGreaterThan(0);
  });
});
