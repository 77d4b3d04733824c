import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../../src/arena/match.ts';
import { LogChain, parseRecordLine, readLog, recordLine, ResultsLog, SEAL_EVERY } from '../../../src/arena/results/index.ts';
import { startText } from '../../../src/arena/results/codec.ts';
import { allFamilies, makeGame } from '../../../src/games/index.ts';
import { createRng } from '../../../src/core/rng.ts';
import { gameRecord, tempDir } from '../helpers.ts';

/** A finished game as the match makes it. */
const rec = (key: string, extra: Partial<GameRecord> = {}): GameRecord => gameRecord({ key, ...extra });

describe('ResultsLog (group commit)', () => {
  it('settles appends only once their batch is written, in append order', async () => {
    const file = join(tempDir(), 'games.jsonl');
    const log = new ResultsLog(file, { intervalMs: 60_000 });
    const settled: string[] = [];
    const all = ['a', 'b', 'c'].map((k) => log.append(rec(k)).then(() => settled.push(k)));
    await new Promise((r) => setTimeout(r, 5));
    expect(settled).toEqual([]); // nothing durable yet: the interval has not passed
    expect(readFileSync(file, 'utf8')).toBe('');
    await log.flush();
    await Promise.all(all);
    expect(settled).toEqual(['a', 'b', 'c']);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as GameRecord).key)).toEqual(['a', 'b', 'c']);
    // A second batch is a new promise: the first batch's callbacks do not run again.
    const later = log.append(rec('d')).then(() => settled.push('d'));
    await log.close();
    await later;
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
  });

  it('writes a full batch without waiting for the interval', async () => {
    const file = join(tempDir(), 'games.jsonl');
    const log = new ResultsLog(file, { intervalMs: 60_000, maxBatch: 2 });
    const first = log.append(rec('a'));
    await log.append(rec('b')); // the second line fills the batch: written at once
    await first;
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    await log.close();
  });

  it.skipIf(!existsSync('/dev/full'))('rejects every append of a failed batch and every later one', async () => {
    const log = new ResultsLog('/dev/full', { intervalMs: 60_000 });
    const results = await Promise.allSettled([log.append(rec('a')), log.append(rec('b'))].concat(log.flush()));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    await expect(log.append(rec('c'))).rejects.toThrow(/ENOSPC/);
  });
});

describe('sealed lines', () => {
  /** A run of lines as the log writes it: each record's line, the last one sealed by `chain` over the run. */
  const sealedRun = (chain: LogChain, records: readonly GameRecord[]): string => {
    const lines = records.map((r) => recordLine(r).slice(0, -1));
    return `${[...lines.slice(0, -1), chain.seal(lines.at(-1)!, lines.slice(0, -1))].join('\n')}\n`;
  };

  it('are written byte for byte as recordLine, each batch sealed by the chain on its last line, and the chain goes on from them', async () => {
    const file = join(tempDir(), 'games.jsonl');
    const key = Buffer.alloc(32, 7);
    const records = [
      rec('plain'),
      rec('a "quoted" \\ key\twith tab', { moves: [], us: [], termination: 'crash', faulty: 'second', reason: 'threw "Error: ünïcode \u2028 😀"', outcome: { winner: 'first' } }),
      rec('d', { outcome: { winner: null, scores: [7, -2] }, winner: null, seats: { first: 'bot:x=1,y="2"', second: 'zé' } }),
      rec('e', { start: { coins: [1, 2, 3], nested: { a: null } }, adjudicated: { value: -1, ply: 4 }, retries: 2, clockStops: { first: 1, second: 0 } }),
    ];
    const log = new ResultsLog(file, { chain: new LogChain(key), intervalMs: 60_000 });
    for (const r of records) void log.append(r);
    await log.close();
    const expected = new LogChain(key);
    const want = sealedRun(expected, records);
    expect(readFileSync(file, 'utf8')).toBe(want);
    expect(want.split('\n').filter((l) => l.includes('"chk":'))).toHaveLength(1);
    // A resumed chain (from the text of the last checksum) seals the next batch as an unbroken one would.
    const resumed = new ResultsLog(file, { chain: new LogChain(key, expected.last) });
    void resumed.append(rec('after'));
    void resumed.append(rec('after2'));
    await resumed.close();
    const all = `${want}${sealedRun(expected, [rec('after'), rec('after2')])}`;
    expect(readFileSync(file, 'utf8')).toBe(all);
    // Two batches, two seals: the lines of each verify as a run, and only as that run.
    const lines = all.trimEnd().split('\n');
    expect(new LogChain(key).verify(lines[3]!)).toBe(false);
    expect(new LogChain(key).verify(lines[3]!, lines.slice(1, 3))).toBe(false);
    const verifier = new LogChain(key);
    expect(verifier.verify(lines[3]!, lines.slice(0, 3))).toBe(true);
    expect(verifier.verify(lines[5]!, lines.slice(4, 5))).toBe(true);
    expect(verifier.last).toBe(expected.last);
  });

  it('seals a batch longer than SEAL_EVERY lines every SEAL_EVERY lines', async () => {
    const file = join(tempDir(), 'games.jsonl');
    const key = Buffer.alloc(32, 9);
    const n = 2 * SEAL_EVERY + 3;
    const records = Array.from({ length: n }, (_, i) => rec(`k${i}`, { index: i }));
    const log = new ResultsLog(file, { chain: new LogChain(key), intervalMs: 60_000, maxBatch: 10 * SEAL_EVERY });
    for (const r of records) void log.append(r);
    await log.close();
    const expected = new LogChain(key);
    const want = [records.slice(0, SEAL_EVERY), records.slice(SEAL_EVERY, 2 * SEAL_EVERY), records.slice(2 * SEAL_EVERY)].map((run) => sealedRun(expected, run)).join('');
    expect(readFileSync(file, 'utf8')).toBe(want);
  });
});

describe('the compact game line', () => {
  it('is one JSON object with the moves as one string and the times as integer microseconds', () => {
    const line = recordLine(rec('k'));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    const json = JSON.parse(line) as Record<string, unknown>;
    expect(json['moves']).toBe('10 8 5 1');
    expect(json['us']).toEqual([3, 12, 1, 1_234_567]);
    expect(Object.keys(json)).toEqual(['index', 'key', 'variant', 'deal', 'dealSeed', 'seating', 'seats', 'botSeeds', 'start', 'moves', 'us', 'outcome', 'winner', 'termination', 'faulty', 'reason']);
    expect(parseRecordLine(line.slice(0, -1))).toEqual(rec('k'));
  });

  it('round-trips forfeits, draws with scores, no moves, and strings that need escaping', () => {
    for (const r of [
      rec('a "quoted" \\ key\twith tab', { moves: [], us: [], termination: 'crash', faulty: 'second', reason: 'threw "Error: ünïcode \u2028"\n at line 2', outcome: { winner: 'first' } }),
      rec('d', { outcome: { winner: null, scores: [7, 7] }, winner: null, seats: { first: 'bot:x=1,y="2"', second: 'zé' } }),
      rec('e', { start: { coins: [1, 2, 3], nested: { a: null } } }),
      rec('f', { start: { name: 'pïle "x"' }, index: 0, deal: 123_456_789, dealSeed: 9_007_199_254_740_991, moves: ['1', '5', '8', '10', '1', '1'], us: [0, 9, 10, 99, 100, 4_294_967_296], botSeeds: { first: 0, second: 2 ** 53 + 2 } }),
      rec('g', { outcome: { winner: 'second', scores: [-3, 0.5] }, winner: 'random', adjudicated: { value: -12, ply: 0 }, retries: 1, clockStops: { first: 0, second: 3 } }),
      rec('h', { moves: ['a', 'é', 'x\\y'], us: [1, 2, 3], ovh: [0, 15, 1e21], timeControl: { baseMs: 1000, incMs: 10 } }),
      rec('i', { restarts: [{ seat: 'first', ply: 0, reason: 'no move within 100 ms' }, { seat: 'second', ply: 4, reason: 'killed by "SIGKILL" ü' }] }),
      // Variants and labels recur from line to line: their bytes are made once (escaped) and reused.
      rec('j', { variant: 'v "q"\tü', winner: 'w "x" ß', seats: { first: 'w "x" ß', second: 'b\\c' }, outcome: { winner: 'first' } }),
      rec('k', { variant: 'v "q"\tü', winner: 'b\\c', seats: { first: 'w "x" ß', second: 'b\\c' }, outcome: { winner: 'second' } }),
    ]) {
      const line = recordLine(r);
      expect(JSON.parse(line)).toEqual({ ...r, moves: r.moves.join(' ') });
      // Written byte by byte into the batch buffer, yet exactly what JSON.stringify writes.
      expect(line).toBe(`${JSON.stringify(JSON.parse(line))}\n`);
      expect(parseRecordLine(line.slice(0, -1))).toEqual(r);
    }
  });

  it('reads the earlier form (an object per move) as the same record', () => {
    const r = rec('old');
    const { us: _us, ...rest } = r;
    const old = JSON.stringify({ ...rest, moves: r.moves.map((move, i) => ({ move, ms: r.us[i]! / 1000 })) });
    expect(parseRecordLine(old)).toEqual(r);
  });

  it('refuses lines that are not game records', () => {
    for (const text of ['', '{', 'null', '[]', '{"key":"k"}', JSON.stringify({ ...rec('k'), us: [1] , moves: '1 2' }), JSON.stringify({ ...rec('k'), moves: 7 })]) {
      expect(parseRecordLine(text)).toBeNull();
    }
  });
});

describe('readLog (streaming)', () => {
  it('yields every whole line across read-chunk boundaries and stops at a line cut short', () => {
    const file = join(tempDir(), 'games.jsonl');
    const records = Array.from({ length: 40 }, (_, i) => rec(`game ${i}`, { index: i, moves: Array.from({ length: i }, () => '1'), us: Array.from({ length: i }, () => i) }));
    writeFileSync(file, records.map(recordLine).join(''));
    const whole = readFileSync(file).length;
    appendFileSync(file, recordLine(rec('cut')).slice(0, 30));
    // A chunk smaller than most lines makes lines span reads and the buffer grow.
    for (const chunk of [16, 100, 1 << 16]) {
      const seen = [...readLog(file, chunk)];
      expect(seen.map((e) => e.record)).toEqual(records);
      expect(seen.map((e) => e.line)).toEqual(records.map((_, i) => i + 1));
      expect(seen.at(-1)!.end).toBe(whole);
    }
  });

  it('names the file and line of a line that is not a game', () => {
    const file = join(tempDir(), 'games.jsonl');
    writeFileSync(file, `${recordLine(rec('a')).trimEnd()}\nnot json\n`);
    expect(() => [...readLog(file)]).toThrow(/games\.jsonl:2 is not a game line/);
  });
});

describe('startText', () => {
  const text = (start: unknown): string => {
    const { bytes, length } = startText(start);
    return bytes.toString('utf8', 0, length);
  };

  it('writes the bytes of JSON.stringify for positions of every shape, the usual ones without it', () => {
    const long = Array.from({ length: 5000 }, (_, i) => i * 7919);
    for (const start of [
      { pile: 57 },
      { pile: 0, turn: 'first' },
      { piles: [3, 4, 5], big: 4_294_967_296, neg: -12, half: 0.5, tiny: 1e-7, huge: 1e21, zero: -0, yes: true, no: false },
      { 2: 1, 1: [2, -0], b: 3, a: [] },
      { piles: long, more: long },
      { coins: [1, 2, 3], nested: { a: null } },
      { pile: '123456789012345678901234567890' },
      { nan: Number.NaN, inf: [Infinity], skipped: undefined, also: 1 },
      { holes: [1, , 3] },
      { 'k "quoted" é': 1, 'z\n': [1] },
      [1, 2, 3],
      Object.assign(Object.create(null) as object, { pile: 5 }),
      'a string',
      42,
      null,
      {},
    ]) expect(text(start)).toBe(JSON.stringify(start));
  });

  it('writes every built-in family\'s dealt positions as JSON.stringify does', () => {
    const rng = createRng(5);
    for (const family of allFamilies()) {
      const game = makeGame(family.id);
      for (let k = 0; k < 20; k++) {
        const start = game.toJSON(game.deal(rng));
        expect(text(start), family.id).toBe(JSON.stringify(start));
      }
    }
  });
});

