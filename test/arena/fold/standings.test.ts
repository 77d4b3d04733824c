import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../../src/arena/match.ts';
import { StandingsBuilder } from '../../../src/arena/fold/standings.ts';
import { standingsCsv } from '../../../src/arena/summary.ts';

const VARIANT = 'subtraction{moves=1,2;n=4}'; // P-positions: multiples of 3

function rec(first: string, second: string, moves: string[], winner: 'first' | 'second' | null, extra: Partial<GameRecord> = {}): GameRecord {
  return {
    index: 0,
    key: `${first}-${second}-${moves.join('')}`,
    variant: VARIANT,
    deal: 0,
    dealSeed: 1,
    seating: 0,
    seats: { first, second },
    botSeeds: { first: 1, second: 2 },
    start: { pile: 4 },
    moves,
    us: moves.map((_, i) => (i + 1) * 1000),
    outcome: { winner },
    winner: winner === null ? null : winner === 'first' ? first : second,
    termination: 'normal',
    faulty: null,
    reason: null,
    ...extra,
  };
}

describe('standings', () => {
  it('counts results, points, forfeits, move times and solver accuracy', () => {
    const b = new StandingsBuilder(['a', 'b'], [VARIANT]);
    b.add(rec('a', 'b', ['1', '2', '1'], 'first')); // a: 1 → 3 (best), b from 3 (lost anyway), a: 1 → 0
    b.add(rec('b', 'a', ['2', '2'], 'second')); // b: 2 → 2 is a blunder; a takes the last two
    b.add(rec('a', 'b', [], 'second', { termination: 'timeout', faulty: 'first', reason: 'no move within 5 ms', key: 'x' }));
    const { pooled, variants } = b.snapshot();
    const a = pooled.bots.find((r) => r.bot === 'a')!;
    const bb = pooled.bots.find((r) => r.bot === 'b')!;
    expect(a).toMatchObject({ games: 3, wins: 2, losses: 1, points: 2, forfeits: { timeout: 1, crash: 0, 'illegal-move': 0 } });
    expect(bb).toMatchObject({ games: 3, wins: 1, losses: 2, points: 1 });
    expect(a.accuracy).toEqual({ moves: 3, accurate: 3, blunders: 0 });
    expect(bb.accuracy).toEqual({ moves: 2, accurate: 1, blunders: 1 });
    // a moved at plies 1 and 3 of game one (1 ms, 3 ms) and ply 2 of game two (2 ms).
    expect(a.moves).toBe(3);
    expect(a.meanMoveMs).toBeCloseTo(2);
    expect(a.maxMoveMs).toBe(3);
    expect(pooled.crosstable['a']!['b']).toEqual({ points: 2, games: 3 });
    expect(pooled.bots[0]!.bot).toBe('a');
    expect(variants[VARIANT]!.games).toBe(3);
    const csv = standingsCsv(b.snapshot()).split('\n');
    expect(csv[1]).toMatch(/^all,1,a,3,2,0,1,2,66\.667,,1,0,0,2,3,/);
    expect(csv[1]).toMatch(/,100,0$/);
  });

  it('is independent of the order games are added in', () => {
    const games = [rec('a', 'b', ['1', '2', '1'], 'first'), rec('b', 'a', ['2', '2'], 'second'), rec('b', 'a', ['1', '2', '1'], 'first')];
    const x = new StandingsBuilder(['a', 'b']);
    const y = new StandingsBuilder(['a', 'b']);
    for (const g of games) x.add(g);
    for (const g of [...games].reverse()) y.add(g);
    expect(y.snapshot()).toEqual(x.snapshot());
  });
});
