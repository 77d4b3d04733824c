/**
 * Octal games' nim-values (GAMES.md 7): the published facts, the sparse space tables against the
 * definition (and both against a brute force that knows only the octal code's meaning), and the
 * Guy–Smith certificates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  certifyPeriod,
  chooseSparseSpace,
  findOctalPeriod,
  heapOptions,
  nimValuesByDefinition,
  octalNimTable,
  parseOctalCode,
  ruleMoves,
  ruleText,
  type TakeBreakRule,
} from '../../src/solvers/octal.ts';

function rule(code: string): TakeBreakRule {
  const r = parseOctalCode(code);
  if (typeof r === 'string') throw new Error(r);
  return r;
}

const GRUNDY: TakeBreakRule = { kind: 'grundy' };

/**
 * Nim-values by the words of GAMES.md 7 alone: for each take k with digit d_k, bit 1 allows taking
 * a whole heap of k, bit 2 leaving one non-empty heap, bit 4 two (any split of the rest); a leading
 * 4 allows splitting without taking; Grundy's game splits into two unequal heaps.
 */
function bruteValues(code: string, upto: number): number[] {
  const grundy = code === 'grundy';
  const [before, after] = grundy ? ['4', ''] : code.split('.');
  const digit = (k: number): number => (k === 0 ? (before === '4' ? 4 : 0) : Number(after![k - 1] ?? 0));
  const g: number[] = [];
  for (let n = 0; n <= upto; n++) {
    const seen = new Set<number>();
    for (let k = 0; k <= n; k++) {
      const d = grundy ? (k === 0 ? 4 : 0) : digit(k);
      if (d & 1 && k === n && k > 0) seen.add(0);
      if (d & 2 && k < n && k > 0) seen.add(g[n - k]!);
      if (d & 4) for (let a = 1; a < n - k; a++) if (!(grundy && 2 * a === n - k)) seen.add(g[a]! ^ g[n - k - a]!);
    }
    let mex = 0;
    while (seen.has(mex)) mex++;
    g.push(mex);
  }
  return g;
}

describe('octal codes', () => {
  it('parses codes and presets and normalises them', () => {
    expect(ruleText(rule('.77'))).toBe('0.77');
    expect(ruleText(rule('kayles'))).toBe('0.77');
    expect(ruleText(rule('Dawsons-Kayles'))).toBe('0.07');
    expect(ruleText(rule('dawsons-chess'))).toBe('0.137');
    expect(ruleText(rule('officers'))).toBe('0.6');
    expect(ruleText(rule('4.070'))).toBe('4.07');
    expect(parseOctalCode('0.8')).toMatch(/octal code/);
    expect(parseOctalCode('1.7')).toMatch(/octal code/);
    expect(parseOctalCode('0.000')).toMatch(/some move/);
    expect(parseOctalCode('4.')).toEqual({ kind: 'octal', splitFree: true, digits: [] });
  });

  it('lists the moves of a heap by take, whole or one heap before splits', () => {
    expect(heapOptions(ruleMoves(rule('0.77')), 4)).toEqual([
      { take: 1, rest: [3] },
      { take: 1, rest: [1, 2] },
      { take: 2, rest: [2] },
      { take: 2, rest: [1, 1] },
    ]);
    expect(heapOptions(ruleMoves(GRUNDY), 6)).toEqual([
      { take: 0, rest: [1, 5] },
      { take: 0, rest: [2, 4] },
    ]);
    expect(heapOptions(ruleMoves(rule('0.1')), 1)).toEqual([{ take: 1, rest: [] }]);
  });
});

describe('published facts', () => {
  const facts: [string, number, number, number[]][] = [
    ['0.77', 12, 70, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]],
    ['0.07', 34, 52, [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4]],
    ['0.137', 34, 51, [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4]],
    ['0.177', 20, 496, [0, 1, 1, 2, 2, 3, 1, 1, 4, 4, 3, 2, 2, 1, 1, 4]],
    ['0.11377', 32, 186, [0, 1, 1, 1, 2, 2, 2, 3, 3, 1, 1, 1, 4, 4, 4, 3]],
  ];
  it.each(facts)('%s: period %i, last exception %i, first values', (code, period, last, first) => {
    const found = findOctalPeriod(rule(code), 1 << 16).proven;
    expect(found).toMatchObject({ period, lastException: last, preperiod: last + 1 });
    expect(Array.from(octalNimTable(rule(code), first.length - 1).values)).toEqual(first);
  });

  it("Dawson's chess is Dawson's Kayles shifted by one", () => {
    const chess = octalNimTable(rule('0.137'), 3000).values;
    const kayles = octalNimTable(rule('0.07'), 3001).values;
    for (let n = 0; n <= 3000; n++) expect(chess[n], `heap ${n}`).toBe(kayles[n + 1]);
  });

  it('0.127: period 4, last exception 46,577 (Gangolli and Plambeck)', () => {
    const found = findOctalPeriod(rule('0.127'), 1 << 18).proven;
    expect(found).toMatchObject({ period: 4, lastException: 46577 });
  });

  it("Grundy's game: OEIS A002188 and Flammenkamp's first rare values", () => {
    // A002188, n = 0..104.
    const a002188 = [
      0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4,
      1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2,
      4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
    ];
    const table = octalNimTable(GRUNDY, 5000);
    expect(Array.from(table.values.subarray(0, a002188.length))).toEqual(a002188);
    // Rare (sparse) heaps under the mask 0111…: Flammenkamp's list begins 0 1 2 3 4 6 7 9 10 12 15 20.
    expect(table.space).toEqual({ mask: 0xfffe, kind: 'range' });
    expect(Array.from(table.rare.subarray(0, 11))).toEqual([1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20]);
  });

  it('Officers (0.6): the first values, against the brute force', () => {
    const first = [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1];
    expect(bruteValues('0.6', first.length - 1)).toEqual(first);
    expect(Array.from(octalNimTable(rule('officers'), 4000).values.subarray(0, first.length))).toEqual(first);
  });
});

describe('sparse space tables', () => {
  it.each(['0.77', '0.07', '0.6', '0.1777', '4.07', '0.51', '0.165', 'grundy', '0.3', '0.15'])('%s: equal to the definition past the probe', (code) => {
    const r = code === 'grundy' ? GRUNDY : rule(code);
    const upto = 6000;
    expect(Array.from(octalNimTable(r, upto).values)).toEqual(Array.from(nimValuesByDefinition(r, upto)));
  });

  it('is exact under any sparse space, good or bad (the mask only sets the speed)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0.6', '0.77', '0.165', 'grundy', '0.4'),
        fc.integer({ min: 1, max: 0xffff }),
        fc.boolean(),
        (code, mask, domain) => {
          const r = code === 'grundy' ? GRUNDY : rule(code);
          // The domain kind needs every split take of one parity: 0.77 and 0.165 split after takes of both.
          const kind = domain && code !== '0.165' && code !== '0.77' ? 'domain' : 'range';
          const got = octalNimTable(r, 2600, { space: { mask, kind } }).values;
          expect(Array.from(got)).toEqual(Array.from(nimValuesByDefinition(r, 2600)));
        },
      ),
      { numRuns: 12 },
    );
  });

  it('is exact in a table that starts anywhere in its buffer', () => {
    fc.assert(
      fc.property(fc.constantFrom('0.6', '0.77', '0.137', 'grundy', '4.07'), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 2049, max: 3200 }), (code, start, upto) => {
        const r = code === 'grundy' ? GRUNDY : rule(code);
        // One entry to spare or none, so the table ends at its buffer's end as well as before it.
        const buffer = new Uint16Array(start + upto + 1 + (upto & 1));
        const got = octalNimTable(r, upto, { into: buffer.subarray(start) }).values;
        expect(Array.from(got.subarray(0, upto + 1))).toEqual(Array.from(nimValuesByDefinition(r, upto)));
      }),
      { numRuns: 16 },
    );
  });

  it('is exact with any working window (small ones make the marks and the pair scan read past it)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0.6', '0.77', '0.137', 'grundy', '4.07', '0.1777'),
        fc.constantFrom(16, 32, 64, 256, 1024),
        fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 0xffff })),
        fc.integer({ min: 2049, max: 3600 }),
        (code, window, mask, upto) => {
          const r = code === 'grundy' ? GRUNDY : rule(code);
          // Mask 0: the space the table would choose; another mask makes rare heaps of every size.
          const got = octalNimTable(r, upto, mask === 0 ? { window } : { window, space: { mask, kind: 'range' } }).values;
          expect(Array.from(got)).toEqual(Array.from(nimValuesByDefinition(r, upto)));
        },
      ),
      { numRuns: 16 },
    );
    expect(() => octalNimTable(GRUNDY, 3000, { window: 48 })).toThrow(/power of two from 16/);
  });

  it('random codes: the definition table equals the brute force', () => {
    fc.assert(
      fc.property(fc.constantFrom('0', '4'), fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 5 }), (d0, digits) => {
        fc.pre(d0 === '4' || digits.some((d) => d > 0));
        const code = `${d0}.${digits.join('')}`;
        const r = rule(code);
        expect(Array.from(nimValuesByDefinition(r, 120))).toEqual(bruteValues(code, 120));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a domain space where split takes differ in parity', () => {
    expect(() => octalNimTable(rule('0.77'), 3000, { space: { mask: 1, kind: 'domain' } })).toThrow(/same parity/);
  });

  it('chooses a space with few rare heaps', () => {
    const g = nimValuesByDefinition(GRUNDY, 2048);
    expect(chooseSparseSpace(g, 2048, ruleMoves(GRUNDY))).toEqual({ mask: 0xfffe, kind: 'range' });
  });

  it.each(['0.6', '0.77', '0.137', 'grundy', '4.07', '0.1777', '0.165', '0.51'])('%s: chooses the space with the fewest rare heaps, counted one by one', (code) => {
    const r = code === 'grundy' ? GRUNDY : rule(code);
    const moves = ruleMoves(r);
    const probe = 2048;
    const g = nimValuesByDefinition(r, probe);
    const parity = (x: number): number => [...x.toString(2)].filter((c) => c === '1').length & 1;
    const bits = Math.min(12, 32 - Math.clz32(Math.max(1, ...g)));
    const high = (0xffff << bits) & 0xffff;
    const sameParity = moves.split.length > 0 && moves.split.every((t) => ((t ^ moves.split[0]!) & 1) === 0);
    let best = { mask: 0xffff, kind: 'range' };
    let bestCount = Infinity;
    for (let low = 1; low < 1 << bits; low++) {
      for (const kind of sameParity ? ['range', 'domain'] : ['range']) {
        let count = 0;
        for (let n = probe / 4 + 1; n <= probe; n++) if (parity(g[n]! & (low | high)) === (kind === 'domain' ? (n - moves.split[0]!) & 1 : 0)) count++;
        if (count < bestCount) [best, bestCount] = [{ mask: low | high, kind }, count];
      }
    }
    expect(chooseSparseSpace(g, probe, moves)).toEqual(best);
  });
});

describe('Guy–Smith certificates', () => {
  it('needs the table to reach 2(e + 1) + 2p + t − 1', () => {
    // Kayles: e = 70, p = 12, t = 2: 2·71 + 24 + 1 = 167.
    const g = octalNimTable(rule('0.77'), 400).values;
    expect(certifyPeriod(g, 166, 2)).toBeNull();
    expect(certifyPeriod(g, 167, 2)).toMatchObject({ period: 12, preperiod: 71 });
  });

  it('reports the least period, not a multiple', () => {
    // 4.07 (= 0.4, shifted): period 4 from heap 1.
    const found = findOctalPeriod(rule('4.07'), 1 << 14).proven;
    expect(found).toMatchObject({ period: 4, preperiod: 1, lastException: 0 });
  });

  it('proves nothing for a sequence without a period in the table', () => {
    expect(findOctalPeriod(rule('0.6'), 1 << 13).proven).toBeNull();
  });
});
