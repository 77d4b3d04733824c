/** A cluster's checks without Redis: the chi-square of each worker's results, the pause rule, the workers' credentials. */
import { describe, expect, it } from 'vitest';
import { credentialOf, credentialText, jobSignatureProblem, jobSigningKey, parseCredential, signed, signedJob, workerSignatureProblem } from '../../../src/arena/queue/auth.ts';
import { pauseReason } from '../../../src/arena/queue/health.ts';
import type { GameRecord } from '../../../src/arena/match.ts';
import type { WorkerCounts } from '../../../src/arena/summary.ts';
import { chiSquareTail, WorkerResults } from '../../../src/arena/worker-check.ts';

/** A game of `first` against `second` on `worker`, won by the first seat or not. */
function game(worker: string, firstWins: boolean, first = 'a', second = 'b'): GameRecord {
  return { worker, variant: 'subtraction{n=20..40}', seats: { first, second }, winner: firstWins ? first : second } as unknown as GameRecord;
}

/** `n` games on `worker`, `wins` of them won by the first seat. */
function games(results: WorkerResults, worker: string, n: number, wins: number, first = 'a', second = 'b'): void {
  for (let i = 0; i < n; i++) results.add(game(worker, i < wins, first, second));
}

const counts = (games: number, crashes: number, timeouts = 0): WorkerCounts => ({ games, crashes, timeouts, illegal: 0, moves: 0, us: 0 });

describe('the check of each worker against the others', () => {
  it('gives the chi-square distribution\'s tail', () => {
    // Table values: the 5 % and 0.1 % points of 1, 2 and 10 degrees of freedom.
    expect(chiSquareTail(3.841, 1)).toBeCloseTo(0.05, 4);
    expect(chiSquareTail(10.828, 1)).toBeCloseTo(0.001, 5);
    expect(chiSquareTail(5.991, 2)).toBeCloseTo(0.05, 4);
    expect(chiSquareTail(18.307, 10)).toBeCloseTo(0.05, 4);
    expect(chiSquareTail(29.588, 10)).toBeCloseTo(0.001, 5);
    expect(chiSquareTail(0, 3)).toBe(1);
  });

  it('flags a worker whose results differ beyond chance, not one whose results agree, nor one that played another pairing', () => {
    const r = new WorkerResults();
    games(r, 'w1', 60, 30);
    games(r, 'w2', 60, 31);
    // Its first seat never wins where the others' wins half the time.
    games(r, 'broken', 30, 0);
    // Another pairing, where the first seat always wins on every worker.
    games(r, 'w1', 20, 20, 'c', 'd');
    games(r, 'lopsided', 20, 20, 'c', 'd');
    const checks = r.checks();
    expect(checks.get('broken')).toMatchObject({ df: 1, outlier: true });
    expect(checks.get('broken')!.p).toBeLessThan(1e-6);
    // The broken worker drags the others' share down, yet not so far that the sound ones are flagged.
    expect(checks.get('w2')).toMatchObject({ df: 1, outlier: false });
    const sound = new WorkerResults();
    games(sound, 'w1', 60, 30);
    games(sound, 'w2', 60, 31);
    expect(sound.checks().get('w2')!.p).toBeGreaterThan(0.5);
    // Its only stratum has one column empty: nothing to test, no check.
    expect(checks.has('lopsided')).toBe(false);
  });

  it('checks no worker alone, nor one with few games', () => {
    const r = new WorkerResults();
    games(r, 'only', 40, 0);
    expect(r.checks().size).toBe(0);
    games(r, 'few', 5, 5);
    expect([...r.checks().keys()]).toEqual(['only']);
  });
});

describe('pausing a worker for its crashes and time losses', () => {
  const rule = { minGames: 10, share: 0.25 };

  it('pauses a worker past the share and past twice the others\' share, once both have played enough', () => {
    const c = new Map([
      ['bad', counts(12, 5, 2)],
      ['good', counts(30, 1)],
    ]);
    expect(pauseReason(c, 'bad', rule)).toBe('7 of its 12 games lost by a crash or on time (58 %; the other workers 3 %)');
    expect(pauseReason(c, 'good', rule)).toBeNull();
    // Too few games of its own, or of the others to compare with.
    expect(pauseReason(new Map([['bad', counts(9, 9)], ['good', counts(30, 0)]]), 'bad', rule)).toBeNull();
    expect(pauseReason(new Map([['bad', counts(12, 12)], ['good', counts(9, 0)]]), 'bad', rule)).toBeNull();
    // A bot that crashes wherever it plays: every worker alike, none paused.
    expect(pauseReason(new Map([['a', counts(20, 10)], ['b', counts(20, 9)]]), 'a', rule)).toBeNull();
  });
});

describe("workers' credentials", () => {
  const key = Buffer.from('the tournament key of the tests');

  it('travels as one line; a worker signs as itself only, and cannot sign a job', () => {
    const alice = parseCredential(credentialText(credentialOf(key, 'alice')))!;
    expect(alice.name).toBe('alice');
    const result = { kind: 'pair', worker: 'alice', pairIndex: 0 };
    expect(workerSignatureProblem(key, 'result', signed(alice.secret, 'result', result))).toBeNull();
    // Alice's secret signing a result that names bob: refused.
    expect(workerSignatureProblem(key, 'result', signed(alice.secret, 'result', { ...result, worker: 'bob' }))).toMatch(/does not verify/);
    // A result signed as a report: refused.
    expect(workerSignatureProblem(key, 'result', signed(alice.secret, 'report', result))).toMatch(/does not verify/);
    const job = { tournament: 't', pair: { index: 0 } };
    expect(jobSignatureProblem(alice.jobKey, signedJob(jobSigningKey(key), job))).toBeNull();
    expect(jobSignatureProblem(alice.jobKey, { ...signedJob(jobSigningKey(key), job), tournament: 'u' })).toMatch(/does not verify/);
    // What alice holds signs no job: her secret makes an HMAC, and another key's signature does not verify.
    expect(jobSignatureProblem(alice.jobKey, signed(alice.secret, 'result', job))).toMatch(/not signed with the tournament's key/);
    expect(jobSignatureProblem(alice.jobKey, signedJob(jobSigningKey(alice.secret), job))).toMatch(/does not verify/);
    expect(parseCredential('a plain key of sixteen bytes or more')).toBeNull();
  });
});
