import { describe, expect, it } from 'vitest';
import type { ArenaEvent } from '../../src/arena/events.ts';
import type { TournamentSpecInput } from '../../src/arena/spec.ts';
import { comparableLog, runSpec, tempDir } from './helpers.ts';
import { bracketOrder } from '../../src/arena/staged/knockout.ts';
import { pairRound } from '../../src/arena/staged/swiss.ts';

const never = (): boolean => false;
/** A `met` relation from a list of pairs (either way round). */
const metOf = (pairs: [number, number][]) => (i: number, j: number) => pairs.some(([a, b]) => (a === i && b === j) || (a === j && b === i));

describe('Swiss pairing', () => {
  it('pairs a score group top half against bottom half: 1–5, 2–6, 3–7, 4–8', () => {
    expect(pairRound([0, 1, 2, 3, 4, 5, 6, 7], [0, 0, 0, 0, 0, 0, 0, 0], never)).toEqual([[0, 4], [1, 5], [2, 6], [3, 7]]);
  });

  it('floats the odd bot of a group down to the top of the next', () => {
    // Scores 2, 2, 2 then 1, 1, 1: the third of the top group meets the first of the next.
    expect(pairRound([0, 1, 2, 3, 4, 5], [2, 2, 2, 1, 1, 1], never)).toEqual([[0, 1], [2, 3], [4, 5]]);
  });

  it('backtracks rather than pair two bots again', () => {
    // 0–2 would leave 1–3, who have met: 0–3 and 1–2 instead.
    expect(pairRound([0, 1, 2, 3], [0, 0, 0, 0], metOf([[1, 3]]))).toEqual([[0, 3], [1, 2]]);
  });

  it('pairs everyone in the same order, repeats allowed, when no pairing avoids them', () => {
    const all = metOf([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
    expect(pairRound([0, 1, 2, 3], [0, 0, 0, 0], all)).toEqual([[0, 2], [1, 3]]);
  });
});

describe('knockout bracket', () => {
  it('seeds so that the top seeds can meet only late', () => {
    expect(bracketOrder(2)).toEqual([1, 2]);
    expect(bracketOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(bracketOrder(16)).toEqual([1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]);
  });
});

describe('a staged run stopped at any game resumes to the same end', () => {
  const swiss = { bots: ['random', 'greedy', 'optimal', 'optimal:strength=0.5', 'minimax:depth=1', 'optimal:strength=0.3'], games: ['subtraction{moves=1,3,4;n=15..30}'], deals: 1, isolation: 'none', concurrency: 2, format: 'swiss', rounds: 3 } as const;
  const knockout = { ...swiss, format: 'knockout', rounds: undefined, tiebreakPairs: 1 } as const;

  /** Runs `raw`, stopped once `stopAt` games are folded (null: not stopped), then resumed to the end. */
  async function stoppedAt(raw: Readonly<Record<string, unknown>>, stopAt: number | null) {
    const out = tempDir();
    const abort = new AbortController();
    let seen = 0;
    const sink = { emit: (e: ArenaEvent) => void (e.type === 'game-ended' && ++seen === stopAt && abort.abort()) };
    const spec = { ...raw, out } as TournamentSpecInput;
    const first = await runSpec(spec, { sink, signal: abort.signal });
    if (stopAt === null) return first;
    expect(first.interrupted, `stopped at ${stopAt}`).toBe(true);
    return runSpec(spec, { resumeDir: first.dir });
  }

  it.each([
    // Rounds of 6 games: stopped in the first, at its end, at the first game of the second, at its
    // end (a stop in the last round may see the round finished by games already in flight).
    ['Swiss', swiss, [1, 6, 7, 12]],
    ['knockout', knockout, [1, 4, 5, 8, 9]],
  ] as const)('%s: stopped at a stage boundary or beside one', async (_name, raw, stops) => {
    const whole = await stoppedAt(raw, null);
    for (const stop of stops) {
      const resumed = await stoppedAt(raw, stop);
      expect(resumed.interrupted, `stopped at ${stop}`).toBe(false);
      expect(comparableLog(resumed.dir), `stopped at ${stop}`).toEqual(comparableLog(whole.dir));
      expect(resumed.summary.format).toEqual(whole.summary.format);
      expect(resumed.summary.games).toEqual(whole.summary.games);
    }
  });
});
