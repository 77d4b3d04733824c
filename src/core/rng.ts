import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * A seeded random generator. Every random choice in dealing and in bots goes through one of these
 * (never Math.random), so a tournament replays move for move from its master seed.
 */
export interface Rng {
  /** The seed this generator was made from. */
  readonly seed: number;
  /** A uniform float in [0, 1). */
  float(): number;
  /** A uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  /** A uniformly chosen element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy of a list (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * The generator behind `createRng`: a class rather than an object of closures, so making one per
 * game and per bot costs one allocation (tournaments make millions) and its methods stay monomorphic.
 */
class XoroshiroRng implements Rng {
  readonly seed: number;
  readonly #gen: RandomGenerator;

  constructor(seed: number, gen: RandomGenerator = xoroshiro128plus(seed | 0)) {
    this.seed = seed;
    this.#gen = gen;
  }

  /** Writes the generator's state (4 words) into `into` from `at`: what `rngFromState` resumes from. */
  static saveState(rng: XoroshiroRng, into: Int32Array, at: number): void {
    const words = rng.#gen.getState();
    for (let i = 0; i < 4; i++) into[at + i] = words[i]!;
  }

  float(): number {
    return uniformFloat64(this.#gen);
  }

  int(lo: number, hi: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo) {
      throw new RangeError(`Expected integers lo <= hi, got ${lo} and ${hi}`);
    }
    return uniformInt(this.#gen, lo, hi);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Expected a non-empty list to pick from');
    // The same draw as `int(0, length - 1)`, minus its argument checks (a length is always a safe
    // integer): random bots pick once per move.
    return items[uniformInt(this.#gen, 0, items.length - 1)]!;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = out[i]!;
      out[i] = out[j]!;
      out[j] = t;
    }
    return out;
  }
}

/** Makes a generator (xoroshiro128+ from pure-rand) from a 32-bit seed. */
export function createRng(seed: number): Rng {
  return new XoroshiroRng(seed);
}

/**
 * Writes where a generator made by `createRng` (or `rngFromState`) has got to (4 words at `at`), so
 * that another thread can go on drawing the same sequence (a bot's game moved to a fresh worker).
 */
export function saveRngState(rng: Rng, into: Int32Array, at: number): void {
  if (!(rng instanceof XoroshiroRng)) throw new TypeError('Expected a generator made by createRng');
  XoroshiroRng.saveState(rng, into, at);
}

/** A generator that goes on from a state written by `saveRngState` (its `seed` is the original one). */
export function rngFromState(seed: number, words: ArrayLike<number>): Rng {
  return new XoroshiroRng(seed, xoroshiro128plusFromState([words[0]!, words[1]!, words[2]!, words[3]!]));
}

/** FNV-1a of a label's characters into `h` (no separator: labels fed in pieces hash as one). */
export function fnvText(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The separator byte that ends a label. */
export function fnvEnd(h: number): number {
  h ^= 0xff;
  return Math.imul(h, 0x01000193) >>> 0;
}

/** FNV-1a of one label into `h`, then a separator byte (a plain function: this runs per game). */
function fnvFeed(h: number, text: string): number {
  return fnvEnd(fnvText(h, text));
}

/**
 * The hash state of `deriveSeed` after the master seed and the leading labels: a schedule that
 * derives millions of seeds sharing a prefix hashes it once, then goes on with `fnvText`/`fnvEnd`
 * and ends with `seedFromState`; the seeds are exactly `deriveSeed`'s.
 */
export function seedState(master: number, ...labels: readonly (string | number)[]): number {
  let h = fnvFeed(0x811c9dc5, String(master));
  for (const label of labels) h = fnvFeed(h, String(label));
  return h;
}

/** The seed of a hash state (murmur3's finaliser): see `seedState`. */
export function seedFromState(state: number): number {
  let h = state;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Derives an independent 32-bit seed from a master seed and labels (FNV-1a over the labels, then
 * murmur3's finaliser). Seeds depend only on the labels — a game's place in the schedule — never on
 * the order in which concurrent games finish.
 */
export function deriveSeed(master: number, ...labels: readonly (string | number)[]): number {
  // The master seed enters once, as its decimal text: xoring it into the offset basis as well made
  // the single-digit seeds 0..9 collide (d ^ '0'+d is 0x30 for every digit d).
  return seedFromState(seedState(master, ...labels));
}
