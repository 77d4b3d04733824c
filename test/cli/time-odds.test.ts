/**
 * Time odds through the real CLI: a bot's own clock (`name:tc=…`, `name:time=…`, or a spec entry
 * `{ name, tc, timePerMoveMs }`) is named in its label, recorded per seat in every game, shown in
 * the standings, and played: the bot with ten times the bank wins more.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLog, tempDir } from '../arena/helpers.ts';
import { run } from './run.ts';
import { isUsageError } from './spawn.ts';

describe('time odds', () => {
  it('gives mcts ten times the bank of its twin, records each seat\'s control, and the bigger bank wins more', async () => {
    // The clock is the only limit (a huge iteration budget): a twentieth of the bank a move, so
    // 50 ms against 5 ms for the first moves. A wide margin keeps a busy machine from turning a
    // stall into a forfeit: the games are decided by the searches.
    const strong = 'mcts:iterations=10000000,tc=1';
    const weak = 'mcts:iterations=10000000,tc=0.1';
    const out = tempDir();
    const r = await run('match', strong, weak, '--games', 'coins{board=triangle;rows=6}', '--deals', '6', '--isolation', 'none', '--time-margin', '1000', '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`clocks (time odds): ${strong} bank 1; ${weak} bank 0.1`);
    const dir = join(out, readdirSync(out)[0]!);
    const log = readLog(dir);
    expect(log).toHaveLength(12);
    const bank: Record<string, { baseMs: number; incMs: number }> = { [strong]: { baseMs: 1000, incMs: 0 }, [weak]: { baseMs: 100, incMs: 0 } };
    for (const g of log) {
      expect(g.timeControl).toBeUndefined();
      expect(g.seatClocks).toEqual({ first: { timeControl: bank[g.seats.first] }, second: { timeControl: bank[g.seats.second] } });
      // Each seat was charged against its own bank: never more than the bank plus the margin.
      for (const [k, seat] of (['first', 'second'] as const).entries()) {
        const charged = g.us.filter((_, i) => i % 2 === k).reduce((a, b) => a + b, 0);
        expect(charged, `${g.key} ${seat}`).toBeLessThanOrEqual((bank[g.seats[seat]]!.baseMs + 1000) * 1000);
      }
    }
    // Observed 12 of 12; the bound leaves room for a machine so busy that the big bank buys little.
    const points = log.reduce((p, g) => p + (g.winner === strong ? 1 : g.winner === null ? 0.5 : 0), 0);
    expect(points).toBeGreaterThanOrEqual(9);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.clocks).toEqual({ [strong]: 'bank 1', [weak]: 'bank 0.1' });
    expect(summary.standings.pooled.bots.map((b: { bot: string }) => b.bot)).toEqual([strong, weak]);
  });

  it('takes a spec entry { name, tc, timePerMoveMs } beside plain bot strings, and a per-move limit of its own', async () => {
    const dir = tempDir();
    const spec = join(dir, 'odds.json');
    writeFileSync(
      spec,
      JSON.stringify({
        name: 'odds',
        games: ['subtraction{moves=1,2,3;n=10..20}'],
        bots: ['random', { name: 'greedy', timePerMoveMs: 300 }, { name: 'minimax:depth=4', tc: '5+0.05', timePerMoveMs: 400 }],
        timePerMoveMs: 200,
        deals: 1,
        isolation: 'none',
      }),
    );
    // Banks are for every bot or none.
    const mixed = await run('tournament', spec, '--out', join(dir, 'out'));
    expect(isUsageError(mixed), mixed.err).toBe(true);
    expect(mixed.err.trim()).toBe(`arena: ${spec}: \`bots\`: minimax:depth=4,tc=5+0.05,time=400 plays on a time bank and random on none; give every bot a \`tc\` (or the spec a \`timeControl\`)`);

    const out = join(dir, 'out');
    const r = await run('tournament', spec, '--tc', '3', '--out', out);
    expect(r.code, r.err).toBe(0);
    const log = readLog(join(out, readdirSync(out)[0]!));
    const clockOf = (label: string): unknown => {
      const g = log.find((x) => x.seats.first === label)!;
      return g.seatClocks!.first;
    };
    // random keeps the spec's bank and limit; greedy's own limit replaces the spec's; minimax's own bank replaces the spec's limits.
    expect(clockOf('random')).toEqual({ timeControl: { baseMs: 3000, incMs: 0 }, timePerMoveMs: 200 });
    expect(clockOf('greedy:time=300')).toEqual({ timeControl: { baseMs: 3000, incMs: 0 }, timePerMoveMs: 300 });
    expect(clockOf('minimax:depth=4,tc=5+0.05,time=400')).toEqual({ timeControl: { baseMs: 5000, incMs: 50 }, timePerMoveMs: 400 });
    expect(r.out).toMatch(/^1\s+minimax:depth=4,tc=5\+0\.05,time=400\s/m);
  });

  it('refuses a bad clock in one line naming the bot', async () => {
    const bad = await run('tournament', '--bots', 'random,greedy:tc=fast', '--games', 'subtraction', '--out', tempDir());
    expect(isUsageError(bad), bad.err).toBe(true);
    expect(bad.err.trim()).toMatch(/^arena: arguments: `bots\[1\]`: `tc`: expected a time control like 10\+0\.1 .*, got "fast"$/);
    const time = await run('tournament', '--bots', 'random:time=0,greedy', '--games', 'subtraction', '--out', tempDir());
    expect(time.err.trim()).toBe('arena: arguments: `bots[0]`: `time`: expected a time per move in whole ms from 1 to 3600000, got "0"');
  });
});
