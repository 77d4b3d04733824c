/**
 * The standings a tournament folds game by game (per pairing-and-variant aggregates) against the
 * standings recomputed here, naively, from every record of the full log: the same numbers, for a
 * tournament with forfeits (illegal moves and crashes), draws, scored games and a variant whose
 * second seat moves first; also after an interruption and a resume.
 */
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../../src/core/game.ts';
import { createRng } from '../../../src/core/rng.ts';
import { parseVariant } from '../../../src/games/index.ts';
import type { FaultKind } from '../../../src/hosting/index.ts';
import type { GameRecord } from '../../../src/arena/match.ts';
import { fitRatings } from '../../../src/arena/fold/ratings.ts';
import { judgeGame } from '../../../src/arena/fold/accuracy.ts';
import type { Standings, StandingsTable } from '../../../src/arena/fold/standings.ts';
import { readLog, runSpec } from '../helpers.ts';

const SPEC = {
  name: 'fold',
  seed: 7,
  games: [
    'end-game{length=6;values=0..2}', // scored, with many equal totals (draws)
    'partizan{left=1,2;right=1,3;n=5..15;start=right}', // the second seat moves first
    'subtraction{moves=1,2,3;n=10..30}',
  ],
  bots: ['random', 'greedy', 'fx-illegal', 'fx-throws'],
  deals: 4,
  timePerMoveMs: 1000,
  isolation: 'none' as const,
  concurrency: 2,
};

interface Row {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  scoredGames: number;
  marginSum: number;
  forfeits: Record<FaultKind, number>;
  moves: number;
  totalMs: number;
  maxMs: number;
  judged: number;
  accurate: number;
  blunders: number;
  solver: boolean;
}

/** Standings of `records` the long way: every record looked at once per table, nothing folded. */
function recompute(bots: readonly string[], records: readonly GameRecord[]): StandingsTable {
  const rows = new Map<string, Row>();
  const row = (b: string): Row => {
    let r = rows.get(b);
    if (!r) {
      r = { games: 0, wins: 0, draws: 0, losses: 0, points: 0, scoredGames: 0, marginSum: 0, forfeits: { timeout: 0, crash: 0, 'illegal-move': 0 }, moves: 0, totalMs: 0, maxMs: 0, judged: 0, accurate: 0, blunders: 0, solver: false };
      rows.set(b, r);
    }
    return r;
  };
  for (const b of bots) row(b);
  const cross = new Map<string, { points: number; games: number }>();
  const seated = new Map<string, { first: string; second: string; games: number; points: number }>();
  for (const rec of records) {
    const game = parseVariant(rec.variant);
    const start = game.deal(createRng(rec.dealSeed));
    let solver = game.solver?.();
    if (solver?.bestMoveBy) solver = undefined;
    const judged = judgeGame({ game, solver }, rec, start);
    // Who made each move, by replaying the game rather than by parity.
    const movers: Seat[] = [];
    let s = start;
    for (const m of rec.moves) {
      movers.push(game.toMove(s));
      s = game.play(s, game.parseMove(m, s));
    }
    for (const seat of ['first', 'second'] as const) {
      const other = seat === 'first' ? 'second' : 'first';
      const r = row(rec.seats[seat]);
      const w = rec.outcome.winner;
      const pts = w === null ? 0.5 : w === seat ? 1 : 0;
      r.games++;
      r.points += pts;
      if (w === null) r.draws++;
      else if (w === seat) r.wins++;
      else r.losses++;
      if (rec.outcome.scores) {
        r.scoredGames++;
        r.marginSum += seat === 'first' ? rec.outcome.scores[0] - rec.outcome.scores[1] : rec.outcome.scores[1] - rec.outcome.scores[0];
      }
      if (rec.faulty === seat && rec.termination !== 'normal' && rec.termination !== 'interrupted' && rec.termination !== 'adjudicated') r.forfeits[rec.termination]++;
      rec.us.forEach((us, i) => {
        if (movers[i] !== seat) return;
        r.moves++;
        r.totalMs += us / 1000;
        r.maxMs = Math.max(r.maxMs, us / 1000);
      });
      if (solver) r.solver = true;
      if (judged) {
        r.judged += judged[seat].moves;
        r.accurate += judged[seat].accurate;
        r.blunders += judged[seat].blunders;
      }
      const ck = `${rec.seats[seat]}\t${rec.seats[other]}`;
      const c = cross.get(ck) ?? { points: 0, games: 0 };
      c.points += pts;
      c.games++;
      cross.set(ck, c);
    }
    const sk = `${rec.seats.first}\t${rec.seats.second}`;
    const sr = seated.get(sk) ?? { first: rec.seats.first, second: rec.seats.second, games: 0, points: 0 };
    sr.games++;
    sr.points += rec.outcome.winner === null ? 0.5 : rec.outcome.winner === 'first' ? 1 : 0;
    seated.set(sk, sr);
  }
  const names = [...rows.keys()];
  const results = [...seated.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([, v]) => ({ first: names.indexOf(v.first), second: names.indexOf(v.second), games: v.games, points: v.points }));
  const ratings = fitRatings(names, results);
  const elo = new Map(ratings.ratings.map((r) => [r.bot, r.elo]));
  const lines = names.map((bot) => {
    const r = rows.get(bot)!;
    return {
      bot,
      games: r.games,
      wins: r.wins,
      draws: r.draws,
      losses: r.losses,
      points: r.points,
      scoredGames: r.scoredGames,
      marginSum: r.marginSum,
      forfeits: r.forfeits,
      moves: r.moves,
      meanMoveMs: r.moves ? r.totalMs / r.moves : 0,
      maxMoveMs: r.maxMs,
      accuracy: r.solver ? { moves: r.judged, accurate: r.accurate, blunders: r.blunders } : null,
    };
  });
  lines.sort((a, b) => b.points - a.points || elo.get(b.bot)! - elo.get(a.bot)! || a.bot.localeCompare(b.bot));
  const crosstable: Record<string, Record<string, { points: number; games: number }>> = {};
  for (const a of names) {
    crosstable[a] = {};
    for (const b of names) {
      const c = cross.get(`${a}\t${b}`);
      if (c) crosstable[a][b] = c;
    }
  }
  // Game pairs from the keys (`variant|deal|a|b|seating`): a pair counts once both seatings are in.
  const halves = new Map<string, number[]>();
  for (const rec of records) {
    const [variant, deal, a, b] = rec.key.split('|');
    const k = [variant, deal, a, b].join('|');
    const pts = rec.winner === null ? 0.5 : rec.winner === a ? 1 : 0;
    halves.set(k, [...(halves.get(k) ?? []), pts]);
  }
  const pairCounts = new Map<string, number[]>();
  for (const [k, pts] of halves) {
    if (pts.length !== 2) continue;
    const [, , a, b] = k.split('|');
    const pk = `${a}|${b}`;
    const counts = pairCounts.get(pk) ?? [0, 0, 0, 0, 0];
    counts[2 * (pts[0]! + pts[1]!)]!++;
    pairCounts.set(pk, counts);
  }
  const pairs = [...pairCounts.entries()]
    .map(([k, counts]) => ({ a: k.split('|')[0]!, b: k.split('|')[1]!, counts }))
    .sort((x, y) => names.indexOf(x.a) - names.indexOf(y.a) || names.indexOf(x.b) - names.indexOf(y.b));
  return { bots: lines, crosstable, ratings, games: records.length, pairs } as unknown as StandingsTable;
}

/** Mean move times are sums of fractions taken in another order: equal to 1e-9 ms, not to the bit. */
function rounded(t: StandingsTable): unknown {
  return { ...t, bots: t.bots.map((b) => ({ ...b, meanMoveMs: Math.round(b.meanMoveMs * 1e9) / 1e9 })) };
}

function expectEqualToLog(standings: Standings, records: readonly GameRecord[]): void {
  expect(rounded(standings.pooled)).toEqual(rounded(recompute(SPEC.bots, records)));
  expect(Object.keys(standings.variants)).toEqual(SPEC.games.map((v) => parseVariant(v).id));
  for (const [variant, table] of Object.entries(standings.variants)) {
    expect(rounded(table)).toEqual(rounded(recompute(SPEC.bots, records.filter((r) => r.variant === variant))));
  }
}

describe('folded standings', () => {
  it('equal the standings recomputed from the full log (forfeits, draws, scored games)', async () => {
    const { dir, summary } = await runSpec(SPEC);
    const log = readLog(dir);
    expect(log).toHaveLength(6 * 3 * 4 * 2);
    // The tournament has what the comparison is about.
    expect(log.some((r) => r.termination === 'illegal-move')).toBe(true);
    expect(log.some((r) => r.termination === 'crash')).toBe(true);
    expect(log.some((r) => r.termination === 'normal' && r.outcome.winner === null)).toBe(true);
    expect(log.some((r) => r.outcome.scores !== undefined)).toBe(true);
    expect(summary.standings.pooled.bots.some((b) => b.accuracy !== null && b.accuracy.moves > 0)).toBe(true);
    expectEqualToLog(summary.standings, log);
  });

  it('equal them after an interruption and a resume', async () => {
    const controller = new AbortController();
    let seen = 0;
    const part = await runSpec(SPEC, {
      signal: controller.signal,
      sink: { detail: 'live', emit: (e) => void (e.type === 'game-started' && ++seen === 40 && controller.abort()) },
    });
    expect(part.interrupted).toBe(true);
    const resumed = await runSpec(SPEC, { resumeDir: part.dir });
    expect(resumed.interrupted).toBe(false);
    const log = readLog(part.dir);
    expect(log).toHaveLength(6 * 3 * 4 * 2);
    expectEqualToLog(resumed.summary.standings, log);
  });
});
