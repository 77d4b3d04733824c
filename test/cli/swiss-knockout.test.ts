import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FormatStandings } from '../../src/arena/staged/format.ts';
import { comparableLog, readLog, tempDir, timeless } from '../arena/helpers.ts';
import { run } from './run.ts';
import { BIN, ROOT } from './spawn.ts';

/** 16 distinct cheap entrants: settings of the built-in bots. */
const SIXTEEN = [
  'random',
  'greedy',
  'optimal',
  ...[0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((s) => `optimal:strength=${s}`),
  'minimax:depth=1',
  'minimax:depth=2',
  'minimax:depth=3',
  'mcts:iterations=50',
  'mcts:iterations=100',
];
const GAME = 'subtraction{moves=1,3,4;n=15..30}';
const SWISS = ['tournament', '--bots', SIXTEEN.join(','), '--format', 'swiss', '--rounds', '5', '--games', GAME, '--deals', '1', '--seed', '7', '--isolation', 'none', '--concurrency', '2', '--plain'];
const KNOCKOUT = ['tournament', '--bots', SIXTEEN.slice(0, 8).join(','), '--format', 'knockout', '--games', GAME, '--deals', '1', '--seed', '3', '--isolation', 'none', '--concurrency', '2', '--plain'];

type Summary = { format: FormatStandings; standings: unknown; games: { total: number; played: number; skipped: number }; complete: boolean };

/** The one results folder under `out`, and its summary. */
function resultOf(out: string): { dir: string; summary: Summary } {
  const [name] = readdirSync(out).filter((n) => !n.endsWith('.json'));
  const dir = join(out, name!);
  return { dir, summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary };
}

/**
 * Runs the real CLI in a process and kills it with SIGKILL once `lines` game lines are out: the
 * log keeps what was durable, the runner gets no chance to tidy up.
 */
function killAfter(args: readonly string[], lines: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = 0;
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      seen = (text.match(/^\[\s*\d+\/\d+\]/gm) ?? []).length;
      if (seen >= lines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`ended before the kill (code ${code}): ${text.slice(-400)}`))));
  });
}

type Result = ReturnType<typeof resultOf>;

/**
 * The same tournament twice: uninterrupted, and killed with SIGKILL once `lines` game lines are
 * out, then resumed (`--resume`). Returns both results and how many games the killed run had logged.
 */
async function killedAndResumed(args: readonly string[], lines: number): Promise<{ whole: Result; resumed: Result; cutAt: number }> {
  const whole = tempDir();
  expect((await run(...args, '--out', whole)).code).toBe(0);
  const cut = tempDir();
  await killAfter([...args, '--out', cut], lines);
  const dir = join(cut, readdirSync(cut)[0]!);
  const cutAt = readLog(dir).length;
  expect((await run('tournament', '--resume', dir, '--plain')).code).toBe(0);
  return { whole: resultOf(whole), resumed: resultOf(cut), cutAt };
}

/** The same log, game for game in schedule order, and the same table or bracket. */
function expectSameEnd(resumed: Result, whole: Result): void {
  expect(comparableLog(resumed.dir)).toEqual(comparableLog(whole.dir));
  expect(resumed.summary.format).toEqual(whole.summary.format);
}

describe('arena tournament --format swiss (CLI)', () => {
  it('plays 16 bots × 5 rounds paired by score: no repeats, everyone once a round, tie-breaks from the games', async () => {
    const out = tempDir();
    const r = await run(...SWISS, '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Swiss standings \(5 of 5 rounds;/m);
    expect(r.out).toMatch(/^ *#\s+bot\s+score\s+Buchholz\s+S-B\s+game pts\s+rounds$/m);
    const { dir, summary } = resultOf(out);
    expect(summary.complete).toBe(true);
    expect(summary.games).toMatchObject({ total: 5 * 8 * 2, played: 80, skipped: 0 });
    // Round r plays deal r: each bot once a round, and no pair twice.
    const pairsByRound = new Map<number, Set<string>>();
    const met = new Set<string>();
    for (const rec of readLog(dir)) {
      const [a, b] = rec.seating === 0 ? [rec.seats.first, rec.seats.second] : [rec.seats.second, rec.seats.first];
      const round = pairsByRound.get(rec.deal) ?? new Set();
      round.add(`${a}\t${b}`);
      pairsByRound.set(rec.deal, round);
    }
    expect([...pairsByRound.keys()].sort()).toEqual([0, 1, 2, 3, 4]);
    const score = new Map<string, number>();
    const perRound: { a: string; b: string; pa: number; pb: number }[][] = [];
    for (const [deal, pairs] of [...pairsByRound].sort((x, y) => x[0] - y[0])) {
      const bots = [...pairs].flatMap((p) => p.split('\t'));
      expect(new Set(bots).size).toBe(16);
      const games = readLog(dir).filter((g) => g.deal === deal);
      perRound.push(
        [...pairs].map((p) => {
          expect(met.has(p)).toBe(false);
          const [a, b] = p.split('\t') as [string, string];
          met.add(p).add(`${b}\t${a}`);
          const mine = games.filter((g) => (g.seats.first === a && g.seats.second === b) || (g.seats.first === b && g.seats.second === a));
          expect(mine).toHaveLength(2);
          const pts = (bot: string): number => mine.reduce((s, g) => s + (g.winner === null ? 0.5 : g.winner === bot ? 1 : 0), 0);
          return { a, b, pa: pts(a), pb: pts(b) };
        }),
      );
    }
    // Match points and Buchholz recomputed from the log agree with the table.
    for (const round of perRound) {
      for (const m of round) {
        score.set(m.a, (score.get(m.a) ?? 0) + (m.pa > m.pb ? 1 : m.pa === m.pb ? 0.5 : 0));
        score.set(m.b, (score.get(m.b) ?? 0) + (m.pb > m.pa ? 1 : m.pa === m.pb ? 0.5 : 0));
      }
    }
    const buchholz = new Map<string, number>();
    for (const round of perRound) for (const m of round) {
      buchholz.set(m.a, (buchholz.get(m.a) ?? 0) + score.get(m.b)!);
      buchholz.set(m.b, (buchholz.get(m.b) ?? 0) + score.get(m.a)!);
    }
    expect(summary.format.format).toBe('swiss');
    if (summary.format.format !== 'swiss') return;
    for (const line of summary.format.lines) {
      expect(line.score).toBe(score.get(line.bot));
      expect(line.buchholz).toBe(buchholz.get(line.bot));
    }
    const ranked = summary.format.lines.map((l) => [l.score, l.buchholz, l.sonnebornBerger] as const);
    for (let i = 1; i < ranked.length; i++) {
      const [s0, b0, sb0] = ranked[i - 1]!;
      const [s1, b1, sb1] = ranked[i]!;
      expect(s0 > s1 || (s0 === s1 && (b0 > b1 || (b0 === b1 && sb0 >= sb1)))).toBe(true);
    }
  });

  it('resumed after kill -9 ends exactly as an uninterrupted run', async () => {
    const { whole, resumed, cutAt } = await killedAndResumed(SWISS, 20);
    // Killed past the first round (16 games), paired from its results, short of the end.
    expect(cutAt).toBeGreaterThanOrEqual(20);
    expect(cutAt).toBeLessThan(80);
    expectSameEnd(resumed, whole);
    expect(timeless(resumed.summary.standings)).toEqual(timeless(whole.summary.standings));
  });

  it('refuses a Swiss without rounds, or with as many rounds as bots, in one line', async () => {
    const none = await run('tournament', '--bots', 'random,greedy,optimal', '--format', 'swiss', '--games', GAME);
    expect(none.code).toBe(2);
    expect(none.err.trim()).toBe('arena: arguments: `rounds`: a Swiss needs a number of rounds (--rounds)');
    const many = await run('tournament', '--bots', 'random,greedy,optimal', '--format', 'swiss', '--rounds', '3', '--games', GAME);
    expect(many.err.trim()).toBe('arena: arguments: `rounds`: expected at most 2 rounds for 3 bots (nobody meets a bot twice), got 3');
    const unplayable = await run('tournament', '--bots', 'random,greedy,parity', '--format', 'swiss', '--rounds', '1', '--games', GAME);
    expect(unplayable.err.trim()).toBe(`arena: arguments: \`games\`: in a Swiss every bot plays every variant, but parity does not play ${GAME}`);
    const queued = await run('tournament', '--bots', 'random,greedy', '--format', 'knockout', '--games', GAME, '--queue', 'redis://127.0.0.1:6379');
    expect(queued.err.trim()).toBe('arena: arguments: `queue`: a knockout is played on this machine (its rounds wait for each other); drop --queue');
    const pairs = await run('tournament', '--bots', 'random,greedy', '--format', 'knockout', '--tiebreak-pairs', '-1', '--games', GAME);
    expect(pairs.err.trim()).toBe('arena: Expected --tiebreak-pairs to be an integer from 0 to 100, got "-1"');
    const anchor = await run('tournament', '--bots', 'random,greedy', '--anchor', 'random', '--games', GAME);
    expect(anchor.err.trim()).toBe('arena: Expected --anchor to be bot=elo, like "random=0", got "random"');
    const notSwiss = await run('tournament', '--bots', 'random,greedy', '--rounds', '1', '--games', GAME);
    expect(notSwiss.err.trim()).toBe('arena: arguments: `rounds`: only a Swiss has rounds (set `format` to "swiss")');
  });

  it('with an odd field gives the bye to the lowest-ranked bot without one', async () => {
    const out = tempDir();
    const r = await run('tournament', '--bots', SIXTEEN.slice(0, 5).join(','), '--format', 'swiss', '--rounds', '4', '--games', GAME, '--deals', '1', '--isolation', 'none', '--out', out, '--plain');
    expect(r.code).toBe(0);
    const { summary } = resultOf(out);
    if (summary.format.format !== 'swiss') throw new Error('not a Swiss');
    // Four rounds, one bye each: four different bots sat out once.
    expect(summary.format.lines.filter((l) => l.byes === 1)).toHaveLength(4);
    expect(summary.format.lines.every((l) => l.rounds === 4 && l.byes <= 1)).toBe(true);
  });
});

describe('arena tournament --format knockout (CLI)', () => {
  it('plays a seeded bracket of 8: 1 meets 8, winners go on, one champion', async () => {
    const out = tempDir();
    const r = await run(...KNOCKOUT, '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Bracket:$/m);
    expect(r.out).toMatch(/^Quarterfinals:$/m);
    expect(r.out).toMatch(/^ {2}\[1\] random .*\[8\] optimal:strength=0\.6/m);
    const { summary } = resultOf(out);
    if (summary.format.format !== 'knockout') throw new Error('not a knockout');
    const rounds = summary.format.rounds;
    expect(rounds.map((x) => x.length)).toEqual([4, 2, 1]);
    expect(rounds[0]!.map((m) => [m.seedA, m.seedB])).toEqual([[1, 8], [4, 5], [2, 7], [3, 6]]);
    for (let k = 1; k < rounds.length; k++) {
      rounds[k]!.forEach((m, q) => {
        expect(m.a).toBe(rounds[k - 1]![2 * q]!.winner);
        expect(m.b).toBe(rounds[k - 1]![2 * q + 1]!.winner);
      });
    }
    for (const m of rounds.flat()) {
      expect(m.winner).not.toBeNull();
      if (m.pointsA !== m.pointsB) expect(m.winner).toBe(m.pointsA > m.pointsB ? m.a : m.b);
      else expect(m.winner).toBe(m.seedA < m.seedB! ? m.a : m.b);
    }
    expect(summary.format.champion).toBe(rounds[2]![0]!.winner);
    expect(summary.games.played + summary.games.skipped).toBe(summary.games.total);
  });

  it('seeds by a ratings file and gives byes to the top seeds when the field is not a power of two', async () => {
    const out = tempDir();
    const ratings = join(out, 'ratings.json');
    writeFileSync(ratings, JSON.stringify({ version: 1, tournaments: [{ name: 'old', dir: 'x', finishedAt: '2026-01-01T00:00:00Z', ratings: { greedy: { elo: 300, ci95: 50, games: 10 }, random: { elo: -100, ci95: 50, games: 10 } } }] }));
    const r = await run('tournament', '--bots', 'random,optimal,greedy,minimax:depth=2,optimal:strength=0.5', '--format', 'knockout', '--ratings-in', ratings, '--games', GAME, '--deals', '1', '--isolation', 'none', '--out', out, '--plain');
    expect(r.code).toBe(0);
    // greedy (300) is seed 1, random (-100) 2, then the unrated in spec order; 8 places: seeds 1–3 get byes.
    expect(r.out).toMatch(/^ {2}\[1\] greedy: bye$/m);
    expect(r.out).toMatch(/^ {2}\[2\] random: bye$/m);
    expect(r.out).toMatch(/^ {2}\[3\] optimal: bye$/m);
    expect(r.out).toMatch(/^ {2}\[4\] minimax:depth=2 .*\[5\] optimal:strength=0\.5/m);
  });

  it('resumed after kill -9 ends exactly as an uninterrupted run', async () => {
    const { whole, resumed, cutAt } = await killedAndResumed(KNOCKOUT, 9);
    // Past the first round's main games (8), short of the end.
    expect(cutAt).toBeGreaterThanOrEqual(9);
    expect(cutAt).toBeLessThan(whole.summary.games.played);
    expectSameEnd(resumed, whole);
    expect(resumed.summary.games).toEqual(whole.summary.games);
  });
});

describe('ratings across tournaments (CLI)', () => {
  it('--anchor pins a bot; --ratings-out appends each tournament; a bad file is one line', async () => {
    const out = tempDir();
    const file = join(out, 'ratings.json');
    const args = ['tournament', '--bots', 'random,greedy,optimal', '--games', GAME, '--deals', '2', '--isolation', 'none', '--out', out, '--plain', '--anchor', 'random=100', '--ratings-out', file];
    const first = await run(...args);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^ratings anchored: random = 100 Elo$/m);
    expect(first.out).toMatch(/^\d\s+random\s+(\d+\s+){4}\S+\s+\S+\s+100\s/m);
    expect((await run(...args, '--seed', '2')).code).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: number; tournaments: { anchor: unknown; ratings: Record<string, { elo: number }> }[] };
    expect(saved.version).toBe(1);
    expect(saved.tournaments).toHaveLength(2);
    for (const t of saved.tournaments) {
      expect(t.anchor).toEqual({ bot: 'random', elo: 100 });
      expect(t.ratings['random']!.elo).toBeCloseTo(100, 9);
      expect(t.ratings['optimal']!.elo).toBeGreaterThan(100);
    }
    writeFileSync(file, '{"version": 2, "tournaments": []}');
    const bad = await run(...args);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/^arena: --ratings-out .*ratings\.json: not a ratings file at version: .*expected \{"version": 1/);
    const missing = await run(...args.slice(0, -2), '--ratings-in', join(out, 'nope.json'));
    expect(missing.err.trim()).toBe(`arena: --ratings-in ${join(out, 'nope.json')}: no such file`);
    writeFileSync(join(out, 'garbage.json'), '{bad');
    const garbage = await run(...args.slice(0, -2), '--ratings-in', join(out, 'garbage.json'));
    expect(garbage.err.trim()).toBe(`arena: --ratings-in ${join(out, 'garbage.json')}: not valid JSON (expected a ratings file written by --ratings-out)`);
    const stranger = await run(...args.slice(0, -4), '--anchor', 'minimax=0');
    expect(stranger.code).toBe(2);
    expect(stranger.err).toMatch(/^arena: arguments: `anchor`: expected one of the bots \(random, greedy, optimal\), got "minimax"$/m);
  });
});
