/**
 * The starting-pile parameter `n` of the one-pile families (GAMES.md 1–3), exact up to 2^63 − 1.
 *
 * Piles are `number` up to 2^53 − 1 and `bigint` only above (`toPile`'s normal form), so ordinary
 * games keep plain number arithmetic on their hot path and only huge piles pay for bigints.
 */
import { z } from 'zod';
import type { ParamSpec } from '../core/params.ts';
import type { Rng } from '../core/rng.ts';
import { MAX_PILE, toPile, type Pile } from '../solvers/period.ts';

export { MAX_PILE, pileText, subPile, toPile, type Pile } from '../solvers/period.ts';

/** An inclusive range of piles; `min === max` for a fixed pile. Bounds are in `toPile` normal form. */
export interface PileRange {
  readonly min: Pile;
  readonly max: Pile;
}

/** What a user sees when `n` is wrong. */
export const PILE_EXPECTED = 'a non-negative integer or a range min..max, at most 2^63 − 1 = 9223372036854775807';

/** One bound as a bigint, or the input unchanged (so the schema rejects it) when it is not exact. */
function toBig(v: unknown): unknown {
  if (typeof v === 'bigint') return v;
  // A number beyond 2^53 − 1 may already have lost digits (JSON parses it as a double): refuse it.
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return BigInt(v.trim());
  return v;
}

const bound = z.bigint().min(0n).max(MAX_PILE);

/** The `n` parameter of the one-pile families: a pile or a range of piles, with a default range. */
export function pileRangeParam(min: number, max: number): ParamSpec<PileRange> {
  return {
    schema: pileRangeSchema(),
    description: 'the starting pile (exact up to 2^63 − 1), or min..max to deal one per game',
    expected: PILE_EXPECTED,
    default: { min, max },
  };
}

/**
 * A pile or an inclusive range of piles: `7`, `"1000000000000000000"`, `"50..200"`, `[50, 200]`,
 * `{min, max}`; bigints and decimal strings give exact piles up to 2^63 − 1. Returned as
 * `{min, max}` in `toPile` normal form, so `formatParamValue` prints exact decimals and variant ids
 * round-trip.
 */
export function pileRangeSchema(): z.ZodType<PileRange> {
  return z.preprocess(
    (v) => {
      if (typeof v === 'string') {
        const m = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(v);
        if (m) return [BigInt(m[1]!), BigInt(m[2]!)];
      }
      if (Array.isArray(v)) return v.map(toBig);
      if (v !== null && typeof v === 'object' && 'min' in v && 'max' in v) return [toBig(v.min), toBig(v.max)];
      const one = toBig(v);
      return typeof one === 'bigint' ? [one, one] : one;
    },
    z
      .tuple([bound, bound])
      .refine(([a, b]) => a <= b)
      .transform(([a, b]): PileRange => ({ min: toPile(a), max: toPile(b) })),
  );
}

/**
 * Draws a pile uniformly from a range. Number ranges draw exactly as `rng.int` (so ordinary
 * tournaments replay as before); bigint ranges draw 64-bit values with rejection, so the draw is
 * uniform over any width.
 */
export function dealPile(n: PileRange, rng: Rng): Pile {
  if (typeof n.min === 'number' && typeof n.max === 'number') return n.min === n.max ? n.min : rng.int(n.min, n.max);
  const lo = BigInt(n.min);
  const span = BigInt(n.max) - lo + 1n;
  if (span === 1n) return n.min;
  if (span <= BigInt(Number.MAX_SAFE_INTEGER)) return toPile(lo + BigInt(rng.int(0, Number(span) - 1)));
  const top = 1n << 64n;
  const limit = top - (top % span);
  for (;;) {
    const x = (BigInt(rng.int(0, 0xffffffff)) << 32n) | BigInt(rng.int(0, 0xffffffff));
    if (x < limit) return toPile(lo + (x % span));
  }
}

/** A pile as JSON: a number up to 2^53 − 1, a decimal string above (JSON has no exact big integers). */
export function pileJSON(pile: Pile): number | string {
  return typeof pile === 'number' ? pile : String(pile);
}

/** How much game is left, as a number (approximate above 2^53, which only the hybrid bot's switch reads). */
export function pileSize(pile: Pile): number {
  return Number(pile);
}

/**
 * An exact key for a state `pile · radix + digit` (the other fields packed into `digit < radix`):
 * a number while that is at most 2^53 − 1, else a bigint, so equal states always get the same key.
 */
export function pileKey(pile: Pile, radix: number, digit: number): number | bigint {
  if (typeof pile === 'number') {
    const k = pile * radix + digit;
    if (k <= Number.MAX_SAFE_INTEGER) return k;
  }
  return toPile(BigInt(pile) * BigInt(radix) + BigInt(digit));
}
