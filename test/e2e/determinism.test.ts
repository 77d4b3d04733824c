/**
 * Same spec, same seed, same games (issue 17): the built-in bots end each search on a node or
 * iteration budget, not on the clock, so two runs of the classic tournament through the real bin
 * play every game move for move alike (the clock is only a safety net, and a game where it fired
 * would say so in its record).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arena } from '../cli/spawn.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';

/** The games of a results folder in schedule order, without their timings. */
function games(out: string): { key: string; moves: unknown; outcome: unknown; termination: unknown; clockStops?: unknown }[] {
  const dir = join(out, readdirSync(out)[0]!);
  return readFileSync(join(dir, 'games.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { index: number; key: string; moves: unknown; outcome: unknown; termination: unknown; clockStops?: unknown })
    .sort((a, b) => a.index - b.index)
    .map(({ key, moves, outcome, termination, clockStops }) => ({ key, moves, outcome, termination, ...(clockStops ? { clockStops } : {}) }));
}

describe('determinism of the built-in bots (real bin)', () => {
  it('two runs of tournaments/classic.json with the same seed play identical games', async () => {
    // A generous time per move so that even a heavily loaded machine stays within the budgets'
    // time; the budgets, not this time, decide every move.
    const args = ['tournament', 'tournaments/classic.json', '--deals', '1', '--seed', '5', '--time-per-move', '3000', '--plain'];
    const [a, b] = [mkdtempSync(join(tmpdir(), 'arena-det-a-')), mkdtempSync(join(tmpdir(), 'arena-det-b-'))];
    // Different concurrency too: the order in which games finish must not matter.
    const runs = await Promise.all([arena([...args, '--out', a, '--concurrency', '1']), arena([...args, '--out', b, '--concurrency', '2'])]);
    for (const r of runs) expect(r.code, r.err).toBe(0);
    const first = games(a);
    const second = games(b);
    expect(first).toHaveLength(180);
    expect(first.filter((g) => g.clockStops)).toEqual([]);
    expect(second).toEqual(first);
  });

  // Side by side: each run is mostly the start of the bin and of its bots.
  it.concurrent.each(['none', 'worker', ...(sandboxProblem() === null || process.env['CI'] ? ['sandbox'] : [])])('when the clock cuts a search short, the game record says so (clockStops per seat; isolation %s)', async (isolation) => {
    const out = mkdtempSync(join(tmpdir(), 'arena-det-clock-'));
    // A node budget far beyond 40 ms a move: the clock, the safety net, ends the searches.
    const r = await arena(['tournament', '--bots', 'minimax:nodes=100000000,random', '--games', 'coins{board=triangle;rows=8}', '--deals', '1', '--time-per-move', '40', '--isolation', isolation, '--plain', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const stopped = games(out).filter((g) => g.clockStops);
    expect(stopped.length).toBeGreaterThan(0);
    for (const g of stopped) {
      const c = g.clockStops as { first: number; second: number };
      // Only minimax searches; random never depends on the clock.
      expect(g.key.includes('minimax')).toBe(true);
      expect(c.first + c.second).toBeGreaterThan(0);
    }
  });
});
