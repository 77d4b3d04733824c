/**
 * How the local pool learns its games in flight (`InFlight`), against a simulated machine: a clock
 * that moves as a pool with that many games in flight would, so nothing here depends on the real
 * machine's speed or load.
 */
import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/arena/in-flight.ts';

/**
 * Drives `flight` over `games` finished games on a machine where `target` games in flight finish
 * `perSec(target)` games a second at `cpuUs(target)` µs of the runner's CPU each; `thinking` is
 * the bots' share of their processes' time at each game. The targets it chose, game by game.
 */
function simulate(base: number, max: number, games: number, perSec: (target: number) => number, cpuUs: (target: number) => number, thinking: (game: number) => number = () => 0): number[] {
  let now = 0;
  let cpu = 0;
  const flight = new InFlight(base, max, { now: () => now, cpuUs: () => cpu });
  const targets: number[] = [];
  let target = base;
  for (let g = 0; g < games; g++) {
    now += 1000 / perSec(target);
    cpu += cpuUs(target);
    target = flight.finished(thinking(g));
    targets.push(target);
  }
  expect(flight.peak).toBe(Math.max(...targets, base));
  return targets;
}

describe('InFlight: games in flight learned from the games', () => {
  it('steps up to the most while each step pays, leaping while the gains are large (bots that answer in microseconds)', () => {
    // Batching: twice the games in flight halve the runner's cost a game and double the rate.
    const targets = simulate(2, 256, 20_000, (t) => 300 * t, (t) => 2000 / t);
    expect(targets.at(-1)).toBe(256);
    // Twice as many at first, then four times as many while a step nearly doubles the rate.
    expect([...new Set(targets)]).toEqual([2, 4, 16, 64, 256]);
  });

  it('stops where a step no longer pays, and goes back to the level below', () => {
    // Gains up to 32 in flight, nothing past it.
    const targets = simulate(2, 256, 20_000, (t) => 300 * Math.min(t, 32), (t) => 2000 / Math.min(t, 32));
    expect(Math.max(...targets)).toBe(256);
    expect(targets.at(-1)).toBe(64);
    expect(targets.slice(-5_000).every((t) => t === 64)).toBe(true);
  });

  it('tries again after a while at the level kept: a change of load or of bots is seen', () => {
    let cap = 8;
    let now = 0;
    let cpu = 0;
    const flight = new InFlight(2, 256, { now: () => now, cpuUs: () => cpu });
    let target = 2;
    const play = (games: number): void => {
      for (let g = 0; g < games; g++) {
        now += 1000 / (300 * Math.min(target, cap));
        cpu += 2000 / Math.min(target, cap);
        target = flight.finished(0);
      }
    };
    play(20_000);
    expect(target).toBe(16);
    cap = 128;
    play(100_000);
    expect(target).toBe(128);
  });

  it('keeps one game per core while the bots think for most of their processes’ time', () => {
    const targets = simulate(2, 256, 5_000, (t) => 300 * t, (t) => 2000 / t, () => 0.9);
    expect(new Set(targets)).toEqual(new Set([2]));
  });

  it('goes back to one game per core as soon as bots that think play', () => {
    const targets = simulate(2, 256, 20_000, (t) => 300 * t, (t) => 2000 / t, (g) => (g >= 10_000 ? 0.9 : 0.01));
    expect(targets[9_999]).toBeGreaterThanOrEqual(64);
    expect(targets[10_000]).toBe(2);
    expect(targets.at(-1)).toBe(2);
  });
});
