/**
 * The two clocks (`clock: "cpu" | "wall"`): under the CPU clock a move is charged the CPU time its
 * bot used, so waiting (what a busy machine does to a bot) costs nothing, while a bot that computes
 * past its limit, or sleeps past the wall-clock cap, still loses on time; under the wall clock the
 * time that passed is charged. Both for bots in processes (`worker`) and on the runner's thread.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wallCapReason } from '../../src/hosting/host.ts';
import { readLog, runSpec } from './helpers.ts';

const LIMIT = 100;
/** fx-blocks waiting twice the limit at every move. */
const BLOCKS = `fx-blocks:ms=${2 * LIMIT}`;
const base = (bots: string[], clock: 'cpu' | 'wall', isolation: 'worker' | 'none' = 'worker') => ({
  name: 'clock',
  seed: 5,
  games: ['subtraction{n=12..30}'],
  deals: 1,
  timePerMoveMs: LIMIT,
  memoryMb: 64,
  clock,
  isolation,
  concurrency: 2,
  bots,
});

/** The terminations and reasons of the games a bot had to move in, as it was charged. */
function faultsOf(dir: string, bot: string): string[] {
  return readLog(dir)
    .filter((r) => r.faulty !== null && r.seats[r.faulty] === bot)
    .map((r) => `${r.termination}: ${r.reason}`);
}

describe('clock', () => {
  it('a bot that computes past its limit loses on time under both clocks; one that sleeps, at the CPU clock’s wall-clock cap', async () => {
    const [cpu, wall] = await Promise.all([runSpec(base(['fx-random', 'fx-loops', 'fx-sleeps'], 'cpu')), runSpec(base(['fx-random', 'fx-loops', 'fx-sleeps'], 'wall'))]);
    // Each loses at its first move: both games against fx-random, and the one against the other where it moves first.
    expect(faultsOf(cpu.dir, 'fx-loops')).toEqual(Array(3).fill(`timeout: no move within ${LIMIT} ms of CPU time`));
    expect(faultsOf(cpu.dir, 'fx-sleeps')).toEqual(Array(3).fill(`timeout: ${wallCapReason(LIMIT)}`));
    expect(faultsOf(wall.dir, 'fx-loops')).toEqual(Array(3).fill(`timeout: no move within ${LIMIT} ms`));
    expect(faultsOf(wall.dir, 'fx-sleeps')).toEqual(Array(3).fill(`timeout: no move within ${LIMIT} ms`));
  });

  for (const isolation of ['worker', 'none'] as const) {
    it(`waiting is charged by the wall clock and not by the CPU clock (isolation ${isolation})`, async () => {
      const [cpu, wall] = await Promise.all([runSpec(base(['fx-random', BLOCKS], 'cpu', isolation)), runSpec(base(['fx-random', BLOCKS], 'wall', isolation))]);
      // Under the CPU clock its moves (each a wait of twice the limit) are legal and charged next to nothing.
      const cpuLog = readLog(cpu.dir);
      expect(faultsOf(cpu.dir, 'fx-blocks')).toEqual([]);
      expect(cpuLog.every((r) => r.termination === 'normal')).toBe(true);
      for (const r of cpuLog) {
        // Both times are recorded, move by move: the charged CPU time (`us`) and the wall time (`wus`).
        expect(r.wus).toHaveLength(r.moves.length);
        const blocker = r.seats.first === 'fx-blocks' ? 0 : 1;
        for (let i = blocker; i < r.moves.length; i += 2) {
          expect(r.us[i]!).toBeLessThan(LIMIT * 1000);
          expect(r.wus![i]!).toBeGreaterThanOrEqual(2 * LIMIT * 1000 - 5000);
        }
      }
      expect(faultsOf(wall.dir, 'fx-blocks')).toHaveLength(2);
      expect(faultsOf(wall.dir, 'fx-blocks')[0]).toMatch(/^timeout: /);
      expect(readLog(wall.dir).every((r) => r.wus === undefined)).toBe(true);
      // The saved spec names the clock.
      expect(JSON.parse(readFileSync(join(cpu.dir, 'spec.json'), 'utf8'))).toMatchObject({ clock: 'cpu' });
    });
  }
});
