/** The learner: stronger run after run from its store, replaying exactly for the same store; stores in every isolation level. */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessHost } from '../../src/hosting/index.ts';
import { parseVariant } from '../../src/games/index.ts';
import { decodeKnowledge, learnerSearch } from '../../src/strategies/index.ts';
import { comparableLog, runSpec, tempDir } from '../arena/helpers.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';

const VARIANT = 'coins{board=triangle;rows=5;start=0.8}';

function accuracyOf(summary: { standings: { pooled: { bots: readonly { bot: string; accuracy: { moves: number; accurate: number } | null }[] } } }): number {
  const a = summary.standings.pooled.bots.find((b) => b.bot.startsWith('learner'))!.accuracy!;
  return a.accurate / a.moves;
}

describe('learner', () => {
  it('gets stronger over repeated tournaments against greedy, from what its store keeps', async () => {
    const botData = tempDir('bot-data-');
    const curve: number[] = [];
    for (let run = 0; run < 3; run++) {
      const r = await runSpec({ bots: ['learner:nodes=200', 'greedy'], games: [VARIANT], deals: 15, seed: 11, isolation: 'none', botData });
      curve.push(accuracyOf(r.summary as never));
    }
    expect(curve[1]).toBeGreaterThan(curve[0]!);
    expect(curve[2]).toBeGreaterThan(curve[0]!);
    const files = readdirSync(join(botData, 'learner'));
    expect(files).toHaveLength(1);
    // Everything it stored is true: each remembered position is what the solver says.
    const game = parseVariant(VARIANT);
    const solver = game.solver!()!;
    const known = decodeKnowledge(new Uint8Array(readFileSync(join(botData, 'learner', files[0]!))).subarray(12));
    expect(known.size).toBeGreaterThan(100);
    let checked = 0;
    for (const [key, win] of known) {
      if (checked === 400) break;
      // A last-coin key is coins · 2 + (second to move); the round trip below checks that reading.
      const k = Number(key);
      const state = { coins: Math.floor(k / 2), turn: k % 2 === 0 ? 'first' : 'second', scores: [0, 0] } as const;
      expect(game.key(state)).toBe(k);
      expect(solver.value(state) > 0, `position ${key}`).toBe(win);
      checked++;
    }
    expect(checked).toBe(400);
  });

  it('plays the same games for the same starting store, at any concurrency, in worker threads', async () => {
    const seeded = tempDir('bot-data-');
    await runSpec({ bots: ['learner:nodes=100', 'greedy'], games: [VARIANT], deals: 6, seed: 5, isolation: 'none', botData: seeded });
    const a = tempDir('bot-data-');
    const b = tempDir('bot-data-');
    cpSync(seeded, a, { recursive: true });
    cpSync(seeded, b, { recursive: true });
    const one = await runSpec({ bots: ['learner:nodes=100', 'greedy'], games: [VARIANT], deals: 6, seed: 5, concurrency: 1, isolation: 'worker', botData: a });
    const four = await runSpec({ bots: ['learner:nodes=100', 'greedy'], games: [VARIANT], deals: 6, seed: 5, concurrency: 4, isolation: 'worker', botData: b });
    expect(comparableLog(four.dir)).toEqual(comparableLog(one.dir));
    // Both runs wrote what they learned: the worker threads' stores reach the folder.
    expect(readdirSync(join(a, 'learner'))).toEqual(readdirSync(join(seeded, 'learner')));
  });

  it.skipIf(sandboxProblem() !== null && !process.env['CI'])('learns across runs under isolation sandbox exactly as in worker threads', async () => {
    const spec = { bots: ['learner:nodes=100', 'greedy'], games: [VARIANT], deals: 6, seed: 5, concurrency: 2 };
    const sandboxed = tempDir('bot-data-');
    const threaded = tempDir('bot-data-');
    const logs: unknown[][] = [];
    for (let run = 0; run < 2; run++) {
      const [s, w] = await Promise.all([runSpec({ ...spec, isolation: 'sandbox', botData: sandboxed }), runSpec({ ...spec, isolation: 'worker', botData: threaded })]);
      const log = comparableLog(s.dir);
      expect(log).toEqual(comparableLog(w.dir));
      logs.push(log);
      // What the sandboxed learner stored reached its real folder, as the worker's did.
      const files = readdirSync(join(threaded, 'learner'));
      expect(readdirSync(join(sandboxed, 'learner'))).toEqual(files);
      const known = (root: string) => decodeKnowledge(new Uint8Array(readFileSync(join(root, 'learner', files[0]!))).subarray(12));
      expect(known(sandboxed)).toEqual(known(threaded));
      expect(known(sandboxed).size).toBeGreaterThan(0);
    }
    // The second run played from what the first stored.
    expect(logs[1]).not.toEqual(logs[0]);
  });

  it('a resumed run starts from the store the interrupted one started from, and ends as an uninterrupted run', async () => {
    const spec = { bots: ['learner:nodes=100', 'greedy'], games: [VARIANT], deals: 8, seed: 9, isolation: 'none' as const, concurrency: 1 };
    const seeded = tempDir('bot-data-');
    await runSpec({ ...spec, seed: 4, botData: seeded }); // some knowledge to start from
    const a = tempDir('bot-data-');
    const b = tempDir('bot-data-');
    cpSync(seeded, a, { recursive: true });
    cpSync(seeded, b, { recursive: true });
    const whole = await runSpec({ ...spec, botData: a });
    const controller = new AbortController();
    let seen = 0;
    const part = await runSpec(
      { ...spec, botData: b },
      { signal: controller.signal, sink: { detail: 'live', emit: (e) => void (e.type === 'game-started' && ++seen === 6 && controller.abort()) } },
    );
    expect(part.interrupted).toBe(true);
    // The interrupted games taught the store something; the resume must not read it.
    expect(readFileSync(join(b, 'learner', readdirSync(join(b, 'learner'))[0]!))).not.toEqual(readFileSync(join(seeded, 'learner', readdirSync(join(seeded, 'learner'))[0]!)));
    const resumed = await runSpec({ ...spec, botData: b }, { resumeDir: part.dir });
    expect(comparableLog(resumed.dir)).toEqual(comparableLog(whole.dir));
    expect(readdirSync(join(part.dir, 'bot-data'))).toEqual(expect.arrayContaining(['learner', 'greedy']));
  });

  it('proves positions within its node budget, using stored ones as solved leaves', () => {
    const game = parseVariant('coins{board=square;side=4}');
    const s = { coins: 0b1111, turn: 'first' as const, scores: [0, 0] as const };
    const r = learnerSearch(game, s, new Map(), 100);
    expect(r.win).toBe(true);
    expect(game.formatMove(r.move)).toBe('1-3');
    const full = game.deal({ seed: 0 } as never);
    const cold = learnerSearch(game, full, new Map(), 50);
    expect(cold.win).toBeUndefined();
    expect(cold.nodes).toBeLessThanOrEqual(50);
  });
});

describe('stores in every isolation level', () => {
  it('an external program finds its folder in TAKE_ARENA_STORE', async () => {
    const dir = tempDir();
    const script = join(dir, 'bot.sh');
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        'printf "%s %s" "$TAKE_ARENA_STORE" "$TAKE_ARENA_STORE_CAP" > "$TAKE_ARENA_STORE/where.txt"',
        'while IFS= read -r line; do',
        '  case $line in',
        `    *'"type":"hello"'*) echo '{"type":"ready"}' ;;`,
        `    *'"type":"quit"'*) exit 0 ;;`,
        '  esac',
        'done',
      ].join('\n'),
    );
    const store = join(dir, 'data', 'ext');
    const host = new ProcessHost('ext', { name: 'ext', command: ['sh', script], cwd: dir, stderrLog: join(dir, 'err.log'), store: { dir: store, capBytes: 4096 } });
    await host.start();
    await host.close();
    expect(existsSync(join(store, 'where.txt'))).toBe(true);
    expect(readFileSync(join(store, 'where.txt'), 'utf8')).toBe(`${store} 4096`);
  });
});

describe('a corrupt store in a tournament', () => {
  it('is emptied with a bot-store-reset event, and the bot plays on', async () => {
    const botData = tempDir('bot-data-');
    await runSpec({ bots: ['learner:nodes=50', 'greedy'], games: [VARIANT], deals: 2, seed: 1, isolation: 'none', botData });
    const dir = join(botData, 'learner');
    const file = join(dir, readdirSync(dir)[0]!);
    writeFileSync(file, readFileSync(file).subarray(0, 20)); // torn
    const events: { type: string; bot?: string; reason?: string }[] = [];
    const r = await runSpec(
      { bots: ['learner:nodes=50', 'greedy'], games: [VARIANT], deals: 2, seed: 1, isolation: 'worker', botData },
      { sink: { emit: (e) => void events.push(e as never) } },
    );
    expect(r.summary.games.byTermination.normal).toBe(4);
    const reset = events.filter((e) => e.type === 'bot-store-reset');
    expect(reset).toEqual([{ type: 'bot-store-reset', bot: 'learner:nodes=50', reason: expect.stringMatching(/^bot store .*learner was reset \(solved-[0-9a-f]+\.bin: length \d+, header says \d+\)$/) }]);
  });
});
