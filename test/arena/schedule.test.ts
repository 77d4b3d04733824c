import { describe, expect, it } from 'vitest';
import type { BotSpec } from '../../src/hosting/index.ts';
import { botSeed, gameKey, schedule, scheduleCount, scheduleKeyAt, schedulePairs, scheduleSize } from '../../src/arena/schedule.ts';
import { deriveSeed } from '../../src/core/rng.ts';

const bot = (label: string): BotSpec => ({ label, name: label.split(':')[0]!, options: {} });
const BOTS = ['a', 'b', 'c', 'd', 'e'].map(bot);
const VARIANTS = ['subtraction{n=10}', 'piles'];

describe('schedule', () => {
  it('plays every unordered pair × variant × deal in both seatings', () => {
    const jobs = [...schedule({ seed: 1, variants: VARIANTS, bots: BOTS, deals: 3, timePerMoveMs: 100 })];
    expect(jobs).toHaveLength(scheduleSize({ variants: VARIANTS, bots: BOTS, deals: 3 }));
    expect(scheduleCount({ variants: VARIANTS, bots: BOTS, deals: 3 })).toBe(jobs.length);
    expect(jobs).toHaveLength(10 * 2 * 3 * 2);
    expect(jobs.map((j) => j.index)).toEqual(jobs.map((_, i) => i));
    expect(new Set(jobs.map((j) => j.key)).size).toBe(jobs.length);
    // Seat balance: every bot sits first exactly as often as second, against every opponent.
    for (const a of BOTS) {
      for (const b of BOTS) {
        if (a === b) continue;
        const asFirst = jobs.filter((j) => j.seats.first.label === a.label && j.seats.second.label === b.label).length;
        const asSecond = jobs.filter((j) => j.seats.first.label === b.label && j.seats.second.label === a.label).length;
        expect(asFirst).toBe(3 * 2);
        expect(asSecond).toBe(asFirst);
      }
    }
    // The two seatings of a deal are back to back, on the same deal seed.
    for (let i = 0; i < jobs.length; i += 2) {
      const [x, y] = [jobs[i]!, jobs[i + 1]!];
      expect([x.seating, y.seating]).toEqual([0, 1]);
      expect(y.dealSeed).toBe(x.dealSeed);
      expect(y.seats.first).toEqual(x.seats.second);
    }
  });

  it('computes the key at any index without generating the schedule', () => {
    for (const bots of [BOTS.slice(0, 2), BOTS.slice(0, 3), BOTS]) {
      const input = { seed: 1, variants: VARIANTS, bots, deals: 3, timePerMoveMs: 100 };
      const supports = (b: BotSpec, v: string): boolean => !(b.label === 'b' && v === 'piles');
      for (const job of schedule({ ...input, supports })) expect(scheduleKeyAt(input, job.index)).toBe(job.key);
      const size = scheduleSize(input);
      expect([...schedule(input)].map((j) => scheduleKeyAt(input, j.index))).toHaveLength(size);
      for (const bad of [-1, size, size + 5, 1.5, Number.NaN]) expect(scheduleKeyAt(input, bad)).toBeNull();
    }
  });

  it('interleaved, goes deal by deal over the variants: the same games, keys and seeds, in that order', () => {
    const variants = [...VARIANTS, 'end-game'];
    for (const bots of [BOTS.slice(0, 2), BOTS.slice(0, 3)]) {
      const input = { seed: 1, variants, bots, deals: 3, timePerMoveMs: 100 };
      const supports = (b: BotSpec, v: string): boolean => !(b.label === 'b' && v === 'piles');
      const plain = [...schedule({ ...input, supports })];
      const interleaved = [...schedule({ ...input, supports, interleave: true })];
      // Deal d of every variant played, in the spec's order, before deal d + 1 of any.
      const played = variants.filter((v) => bots.length > 2 || v !== 'piles');
      expect([...new Set(interleaved.map((j) => `${j.deal}:${j.variant}`))]).toEqual([0, 1, 2].flatMap((d) => played.map((v) => `${d}:${v}`)));
      const strip = ({ index: _, ...rest }: (typeof plain)[number]) => rest;
      const byKey = (jobs: typeof plain) => new Map(jobs.map((j) => [j.key, strip(j)]));
      expect(byKey(interleaved)).toEqual(byKey(plain));
      for (const job of interleaved) expect(scheduleKeyAt({ ...input, interleave: true }, job.index)).toBe(job.key);
      expect(scheduleCount({ ...input, supports })).toBe(interleaved.length);
    }
  });

  it('passes over the pairs it is told to skip, the others unchanged', () => {
    const input = { seed: 1, variants: VARIANTS, bots: BOTS, deals: 3, timePerMoveMs: 100 };
    const all = [...schedule(input)];
    const skip = (p: number): boolean => p % 3 !== 1;
    expect([...schedule(input, skip)]).toEqual(all.filter((j) => !skip(Math.floor(j.index / 2))));
    expect([...schedulePairs(input, skip)].map((p) => p.index)).toEqual([...schedulePairs(input)].map((p) => p.index).filter((p) => !skip(p)));
  });

  it('derives seeds from the place in the schedule only', () => {
    const full = [...schedule({ seed: 5, variants: VARIANTS, bots: BOTS, deals: 2, timePerMoveMs: 100 })];
    const fewer = [...schedule({ seed: 5, variants: VARIANTS, bots: [BOTS[1]!, BOTS[3]!], deals: 2, timePerMoveMs: 100 })];
    for (const j of fewer) {
      const same = full.find((f) => f.key === j.key)!;
      expect({ ...same, index: 0 }).toEqual({ ...j, index: 0 });
    }
    // Every pair sees the same deals of a variant; different deals and seeds differ.
    const deals = new Set(full.filter((j) => j.variant === 'piles' && j.deal === 0).map((j) => j.dealSeed));
    expect(deals.size).toBe(1);
    const other = [...schedule({ seed: 6, variants: VARIANTS, bots: BOTS, deals: 2, timePerMoveMs: 100 })];
    expect(other[0]!.dealSeed).not.toBe(full[0]!.dealSeed);
    // A bot's seed is its own: one per (variant, deal, seat, bot) whoever it meets, distinct otherwise.
    const seatSeeds = new Map<string, number>();
    for (const j of full) {
      for (const seat of ['first', 'second'] as const) {
        const mine = `${j.variant}|${j.deal}|${seat}|${j.seats[seat].label}`;
        expect(seatSeeds.get(mine) ?? j.botSeeds[seat], mine).toBe(j.botSeeds[seat]);
        seatSeeds.set(mine, j.botSeeds[seat]);
      }
    }
    expect(seatSeeds.size).toBe(VARIANTS.length * 2 * 2 * BOTS.length);
    expect(new Set(seatSeeds.values()).size).toBe(seatSeeds.size);
  });

  it("derives no bot's seed from its opponent: the same bot, deal and seat against anyone get the same seed", () => {
    const jobs = [...schedule({ seed: 5, variants: VARIANTS, bots: BOTS, deals: 1, timePerMoveMs: 100 })];
    const against = (me: string, seat: 'first' | 'second'): Set<number> =>
      new Set(jobs.filter((j) => j.variant === VARIANTS[0] && j.seats[seat].label === me).map((j) => j.botSeeds[seat]));
    for (const me of ['a', 'c', 'e']) for (const seat of ['first', 'second'] as const) expect(against(me, seat).size).toBe(1);
  });

  it('gives the keys and seeds of their definitions (gameKey, dealSeed and botSeed over deriveSeed) though it hashes shared labels once', () => {
    const bots = [bot('a'), bot('b:x=1'), bot('greedy')];
    let n = 0;
    for (const seed of [0, 1, 123456789, -5]) {
      for (const j of schedule({ seed, variants: VARIANTS, bots, deals: 12, timePerMoveMs: 10 })) {
        const [a, b] = j.seating === 0 ? [j.seats.first, j.seats.second] : [j.seats.second, j.seats.first];
        expect(j.key).toBe(gameKey(j.variant, j.deal, a.label, b.label, j.seating));
        expect(j.dealSeed).toBe(deriveSeed(seed, 'deal', j.variant, j.deal));
        expect(j.botSeeds).toEqual({ first: botSeed(seed, j.variant, j.deal, 'first', j.seats.first.label), second: botSeed(seed, j.variant, j.deal, 'second', j.seats.second.label) });
        expect(j.botSeeds.first).toBe(deriveSeed(seed, 'bot', j.variant, j.deal, 'first', j.seats.first.label));
        n++;
      }
    }
    expect(n).toBe(4 * 2 * 12 * 3 * 2);
  });

  it('skips pairs where a bot does not support the variant', () => {
    const jobs = [
      ...schedule({ seed: 1, variants: VARIANTS, bots: BOTS, deals: 1, timePerMoveMs: 100, supports: (b, v) => !(b.label === 'a' && v === 'piles') }),
    ];
    expect(jobs).toHaveLength(10 * 2 * 2 - 4 * 2);
    expect(scheduleCount({ variants: VARIANTS, bots: BOTS, deals: 1, supports: (b, v) => !(b.label === 'a' && v === 'piles') })).toBe(jobs.length);
    expect(jobs.some((j) => j.variant === 'piles' && (j.seats.first.label === 'a' || j.seats.second.label === 'a'))).toBe(false);
  });

  it('counts exactly the games the schedule yields, for any supports', () => {
    // Every subset of (bot, variant) pairs a bot may refuse, over 4 bots × 2 variants.
    const bots = BOTS.slice(0, 4);
    for (let mask = 0; mask < 1 << 8; mask++) {
      const supports = (b: BotSpec, v: string): boolean => (mask & (1 << (bots.indexOf(b) * 2 + VARIANTS.indexOf(v)))) === 0;
      const input = { seed: 3, variants: VARIANTS, bots, deals: 2, timePerMoveMs: 10, supports };
      expect(scheduleCount(input)).toBe([...schedule(input)].length);
    }
  });

  it('groups the schedule into game pairs with stable ids, skipped pairs keeping their place', () => {
    const input = { seed: 1, variants: VARIANTS, bots: BOTS, deals: 2, timePerMoveMs: 100, supports: (b: BotSpec, v: string) => !(b.label === 'c' && v === 'piles') };
    const games = [...schedule(input)];
    const pairs = [...schedulePairs(input)];
    expect(pairs.flatMap((p) => p.games)).toEqual(games);
    for (const p of pairs) {
      const [x, y] = p.games;
      expect(p.index * 2).toBe(x.index);
      expect(x.key).toBe(`${p.id}|0`);
      expect(y.key).toBe(`${p.id}|1`);
    }
    expect(new Set(pairs.map((p) => p.id)).size).toBe(pairs.length);
    // Pairs with `c` on piles are skipped, but later pairs keep their schedule index.
    expect(pairs.length).toBe(10 * 2 * 2 - 4 * 2);
    expect(pairs.at(-1)!.index).toBe(10 * 2 * 2 - 1);
  });
});
