/**
 * The plain reporter's batch (`PlainBatch`): a game line written straight into bytes reads exactly
 * as the text of `visible(gameLine(...))`, whatever the record holds, and the lines of one turn of
 * the event loop go out in one write.
 */
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { visible } from '../../src/core/text.ts';
import { gameLine, PlainBatch, plainReporter } from '../../src/tui/dashboard/plain.ts';
import { ESCAPES } from '../fixtures/hostile/lib/escapes.mjs';
import { gameRecord } from '../arena/helpers.ts';

const rec = gameRecord;

/** Records of every kind a plain line shows, with strings that need making visible, each twice (the second from the batch's memo). */
const RECORDS: readonly GameRecord[] = [
  rec(),
  rec({ outcome: { winner: 'second' }, winner: 'random', moves: [] }),
  rec({ outcome: { winner: null }, winner: null }),
  rec({ outcome: { winner: 'first', scores: [7, 3] } }),
  rec({ outcome: { winner: null, scores: [-2.5, -2.5] }, winner: null }),
  rec({ termination: 'crash', faulty: 'second', reason: `threw ${ESCAPES}`, outcome: { winner: 'first' } }),
  rec({ termination: 'adjudicated', reason: 'solver: won', adjudicated: { value: 1, ply: 2 } }),
  rec({ variant: `v${ESCAPES}ü`, seats: { first: `b\u009b[2J`, second: 'zé ½ 🎲' }, deal: 4_294_967_296 }),
  rec({ variant: `v${ESCAPES}ü`, seats: { first: `b\u009b[2J`, second: 'zé ½ 🎲' }, deal: 0, outcome: { winner: null }, winner: null }),
  // A record read from a log written elsewhere may hold anything.
  rec({ deal: '12' as unknown as number, seats: { first: 5 as unknown as string, second: 'x' } }),
];

/** Everything a batch writes, in the calls it makes. */
function batchOf(): { batch: PlainBatch; writes: string[] } {
  const writes: string[] = [];
  return { batch: new PlainBatch((text) => writes.push(text)), writes };
}

describe('PlainBatch', () => {
  it('writes each game line as the text of visible(gameLine(...)), at every width of its counter', () => {
    const { batch, writes } = batchOf();
    let expected = '';
    for (const total of [9, 10, 12_345]) {
      for (const [i, r] of [...RECORDS, ...RECORDS].entries()) {
        const done = (i * 997) % total + 1;
        batch.game(r, done, total);
        expected += `${visible(gameLine(r, done, total))}\n`;
      }
    }
    batch.flush();
    expect(writes.join('')).toBe(expected);
    expect(writes.join('')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('sends the lines of one turn of the event loop in one write when the turn ends', async () => {
    const { batch, writes } = batchOf();
    batch.line('Tournament t');
    for (let i = 1; i <= 1000; i++) batch.game(rec({ deal: i }), i, 1000);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n')).toHaveLength(1002);
    batch.line('next turn');
    batch.flush();
    expect(writes).toEqual([writes[0], 'next turn\n']);
  });

  it('gives the plain reporter the lines it writes through a function', () => {
    const events = RECORDS.map((record, i) => ({ type: 'game-ended' as const, record, done: i + 1, total: RECORDS.length }));
    const lines: string[] = [];
    const viaFunction = plainReporter((l) => lines.push(l));
    const { batch, writes } = batchOf();
    const viaBatch = plainReporter(batch);
    for (const e of events) {
      viaFunction.emit(e);
      viaBatch.emit(e);
    }
    batch.flush();
    expect(writes.join('')).toBe(lines.map((l) => `${l}\n`).join(''));
  });
});
