/**
 * The match plays a game of bots that answer synchronously (in-process) within its call: the
 * record comes back as it is, with no promise per game; the first answer that is a promise makes
 * the rest of the game a promise, and the game is the same either way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveTracker } from '../../src/arena/live.ts';
import { playMatch, type GameRecord } from '../../src/arena/match.ts';
import type { GameJob } from '../../src/arena/schedule.ts';
import { defineBot, type AnyBot } from '../../src/core/bot.ts';
import { parseVariant } from '../../src/games/index.ts';
import { createHost, type BotHost, type BotSpec } from '../../src/hosting/index.ts';

const VARIANT = 'subtraction{moves=1,3,4;n=40}';
const spec = (label: string): BotSpec => ({ label, name: label, options: {} });
const job: GameJob = {
  index: 0,
  key: `${VARIANT}|0|a|b|0`,
  variant: VARIANT,
  deal: 0,
  dealSeed: 1,
  seating: 0,
  seats: { first: spec('a'), second: spec('b') },
  botSeeds: { first: 11, second: 12 },
  timePerMoveMs: 60_000,
};

/** A random mover; `asyncFrom`: from that ply of its own on it answers with a promise. */
function mover(name: string, asyncFrom = Infinity): AnyBot {
  let ply = 0;
  return defineBot({
    name,
    description: 'fixture: a random legal move',
    choose: ({ moves, rng }) => {
      const move = rng.pick(moves);
      return ply++ >= asyncFrom ? Promise.resolve(move) : move;
    },
  });
}

const hosts: BotHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function hostsOf(first: AnyBot, second: AnyBot): Promise<{ first: BotHost; second: BotHost }> {
  const make = (bot: AnyBot, label: string): BotHost => createHost({ transport: 'inline', bot }, spec(label), { isolation: 'none', memoryMb: 64 });
  const pair = { first: make(first, 'a'), second: make(second, 'b') };
  hosts.push(pair.first, pair.second);
  await Promise.all([pair.first.start(), pair.second.start()]);
  return pair;
}

/** The parts of a record that make the game (not its times). */
const game = (r: GameRecord): unknown => ({ moves: r.moves, winner: r.winner, termination: r.termination });

describe('playMatch', () => {
  it('returns the record itself when both bots answer synchronously, and a promise of the same game once one answers with a promise', async () => {
    const rules = parseVariant(VARIANT);
    const sync = playMatch(job, rules, await hostsOf(mover('a'), mover('b')));
    expect(sync).not.toBeInstanceOf(Promise);
    const rec = sync as GameRecord;
    expect(rec.termination).toBe('normal');
    expect(rec.moves.length).toBeGreaterThan(4);
    const later = playMatch(job, rules, await hostsOf(mover('a'), mover('b', 2)));
    expect(later).toBeInstanceOf(Promise);
    expect(game(await later)).toEqual(game(rec));
  });

  it('tells a watcher of the live view once the game is dealt, before the first move', async () => {
    const rules = parseVariant(VARIANT);
    const live = new LiveTracker(rules, { first: 'a', second: 'b' });
    const seen: number[] = [];
    const rec = await playMatch(job, rules, await hostsOf(mover('a'), mover('b')), { live, dealt: () => seen.push(live.ply) });
    expect(seen).toEqual([0]);
    expect(live.ply).toBe(rec.moves.length);
    expect(live.over).toBe(true);
  });
});
