/**
 * The shipped external bots (examples/python-bot, examples/c-bot) play tournaments over the
 * JSON-lines protocol and answer GAMES.md 1's facts as the largest winning take.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discoverBots, ProcessHost, type BotRegistry } from '../../src/hosting/index.ts';
import type { ArenaEvent } from '../../src/arena/events.ts';
import type { GameRecord } from '../../src/arena/match.ts';
import { validateSpec, type TournamentSpecInput } from '../../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../../src/arena/tournament.ts';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import { readLog, tempDir } from './helpers.ts';

const PYTHON = fileURLToPath(new URL('../../examples/python-bot', import.meta.url));
const C_BOT = fileURLToPath(new URL('../../examples/c-bot', import.meta.url));

async function tournament(raw: TournamentSpecInput, registry: BotRegistry, events: ArenaEvent[] = []) {
  const spec = validateSpec({ out: tempDir(), seed: 5, deals: 1, concurrency: 3, isolation: 'none', ...raw });
  return runTournament(prepareTournament(spec, registry), { sink: { emit: (e) => events.push(e) } });
}

/** Replays a record and returns, for each move of `bot`, the position it moved from and its move. */
function movesOf(rec: GameRecord, bot: string): { state: unknown; move: string }[] {
  const game = parseVariant(rec.variant);
  let s = game.deal(createRng(rec.dealSeed));
  const out: { state: unknown; move: string }[] = [];
  for (const m of rec.moves) {
    if (rec.seats[game.toMove(s)] === bot) out.push({ state: s, move: m });
    s = game.play(s, game.parseMove(m, s));
  }
  return out;
}

/** Every move the bot made from a won subtraction position was the largest winning take (GAMES.md 1). */
function expectLargestWinningTakes(log: readonly GameRecord[], bot: string): number {
  let checked = 0;
  for (const rec of log.filter((r) => r.variant.startsWith('subtraction'))) {
    const game = parseVariant(rec.variant);
    const solver = game.solver!()!;
    for (const { state, move } of movesOf(rec, bot)) {
      if (solver.value(state) > 0) {
        expect(move, `${rec.key}: ${game.describe(state)}`).toBe(game.formatMove(solver.bestMove(state)));
        checked++;
      }
    }
  }
  return checked;
}

describe('the Python example', () => {
  it('plays a small tournament: optimal on subtraction (largest winning take), legal everywhere', async () => {
    const registry = await discoverBots([PYTHON]);
    const result = await tournament(
      { name: 'python', bots: ['python-bot', 'optimal', 'random'], games: ['subtraction{moves=1,5,8,10;n=20..60}', 'coins{board=square;side=3}'], deals: 2, timePerMoveMs: 2000 },
      registry,
    );
    const log = readLog(result.dir);
    expect(log).toHaveLength(3 * 2 * 2 * 2); // 3 pairings × 2 variants × 2 deals × 2 seatings
    expect(log.filter((r) => r.termination !== 'normal').map((r) => r.reason)).toEqual([]);
    expect(expectLargestWinningTakes(log, 'python-bot')).toBeGreaterThan(0);
    expect(readFileSync(`${result.dir}/bots/python-bot.stderr.log`, 'utf8')).toMatch(/game .*: (win|loss)/);
  });

  it('finds GAMES.md 1 facts: 1764 with the seed 002 set takes 28; consecutive sets without a table', async () => {
    await expectFacts(['python3', 'bot.py'], PYTHON);
  });
});

const hasCc = ((): boolean => {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// Without a C compiler the C example cannot be built: vitest reports these tests as skipped.
describe.skipIf(!hasCc)(hasCc ? 'the C example' : 'the C example — SKIPPED: no `cc` C compiler on PATH', () => {
  it('compiles with the documented cc line and plays a tournament as seed 002 table T', async () => {
    execFileSync('cc', ['-O2', '-std=c99', '-Wall', '-Wextra', '-Werror', '-o', 'c-bot', 'bot.c'], { cwd: C_BOT, stdio: 'pipe' });
    expect(existsSync(`${C_BOT}/c-bot`)).toBe(true);
    const registry = await discoverBots([C_BOT]);
    const result = await tournament(
      { name: 'c', bots: ['c-bot', 'optimal', 'random'], games: ['subtraction{moves=2,3,7;n=30..90}', 'subtraction{moves=3,4,5,6,7,8,9;n=100..900}', 'coins'], deals: 2, timePerMoveMs: 2000 },
      registry,
    );
    const log = readLog(result.dir);
    expect(log.filter((r) => r.termination !== 'normal').map((r) => r.reason)).toEqual([]);
    // `supports: ["subtraction"]`: the coins pairings of c-bot are skipped.
    expect(log.filter((r) => r.variant.startsWith('coins') && (r.seats.first === 'c-bot' || r.seats.second === 'c-bot'))).toEqual([]);
    expect(expectLargestWinningTakes(log, 'c-bot')).toBeGreaterThan(0);
    await expectFacts(['./c-bot'], C_BOT);
  });
});

/** Asks a bot directly about GAMES.md 1's positions; its answers must be the largest winning takes. */
async function expectFacts(command: string[], cwd: string): Promise<void> {
  const host = new ProcessHost('facts', { name: 'facts', command, cwd, stderrLog: `${tempDir()}/facts.log` });
  await host.start();
  try {
    const cases: [string, string][] = [
      ['subtraction{moves=15,19,20,22,23,24,26,27,28,33,38,41;n=1764}', '28'],
      // Consecutive 15..26: 1780 mod 41 = 17 ≥ 15, so the largest winning take is 17.
      ['subtraction{moves=15,16,17,18,19,20,21,22,23,24,25,26;n=1780}', '17'],
      // A pile far beyond any table, sent as a string: (2^62 + 12) mod 41 = 16, so take 16.
      ['subtraction{moves=15,16,17,18,19,20,21,22,23,24,25,26;n=4611686018427387916}', '16'],
    ];
    for (const [variant, expected] of cases) {
      const game = parseVariant(variant);
      const state = game.deal(createRng(1));
      const session = await host.open({ key: variant, variant, seat: 'first', rngSeed: 1 });
      const reply = await session.move(state, game.moves(state), 2000);
      session.close();
      expect(reply.ok ? game.formatMove(reply.move) : reply, variant).toBe(expected);
      // The arena's own solver agrees (GAMES.md 1: largest winning take).
      expect(game.formatMove(game.solver!()!.bestMove(state)), `solver on ${variant}`).toBe(expected);
    }
  } finally {
    await host.close();
  }
}

