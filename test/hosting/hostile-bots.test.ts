/**
 * Isolation `worker` (the default) and `sandbox` against the hostile bots of test/fixtures/hostile:
 * each attacks a promise that must hold without bubblewrap's sandbox too (a forged or out-of-order
 * reply, a stalled or lying clock, a forged start message, memory past the heap limit, a stderr
 * flood, signals at the arena, a kill at import in discovery, an async `choose` that spins, spies
 * hashing names to find their opponent, terminal escapes in a bot's texts). The arena must finish
 * and exit, record every attacker's games as its forfeits with the right reason (or as games its
 * attack did nothing to), keep each bot's output in its own capped log, tell no bot its opponent,
 * print no bot's control characters, and let the good bots play exactly as without the attackers.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerHost } from '../../src/hosting/worker-host.ts';
import { pidNamespaceProblem, sandboxProblem } from '../../src/platform/sandbox.ts';
import { forfeitsOf, gamesAmong, gamesOf, records, ROOT, runArena, stderrOf, tournament } from './arena-run.ts';
import { waitFor } from '../patience.ts';

const GOOD = ['random', 'greedy'];
/** A move's limit in the gauntlets (CPU time): see BASE. */
const LIMIT_MS = 300;
/** The forfeit of an attacker that computes past its move's limit. */
const TIMEOUT = new RegExp(`^timeout: no move within ${LIMIT_MS} ms of CPU time`);
/** hx-ext-escape's forfeits: its error report or its move, control characters made visible (or JSON-escaped, in a quoted move). */
const ESCAPED = /^(crash: cannot move ␛\[2J␛\]0;pwned␇|illegal-move: answered "\d+\\u001b\[2J)/;
/** A control character a terminal acts on: C0 but the newline ending a line, DEL, C1. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** The attackers of the tournaments, with what each must come to under each isolation: its forfeits' reason, or none (harmless). */
const EXPECTED: Record<string, { worker: RegExp | null; sandbox: RegExp | null }> = {
  'hx-forge': { worker: /^crash: broke the worker protocol: it wrote an answer to request 1000000000/, sandbox: null },
  'hx-stall': { worker: TIMEOUT, sandbox: TIMEOUT },
  'hx-fatal': { worker: /^crash: broke the worker protocol: it wrote a second start record/, sandbox: null },
  'hx-clock-lie': { worker: null, sandbox: null },
  'hx-oom-map': { worker: /^crash: ran out of memory/, sandbox: /^crash: ran out of memory/ },
  'hx-oom-array': { worker: /^crash: ran out of memory/, sandbox: /^crash: ran out of memory/ },
  'hx-stderr': { worker: /^crash: wrote more than 8388608 bytes to stdout and stderr/, sandbox: /^crash: wrote more than 8388608 bytes to stderr/ },
  'hx-kill': { worker: /^crash: killed by SIGKILL/, sandbox: /^crash: killed by SIGKILL/ },
  'hx-ext-kill': { worker: null, sandbox: null },
  'hx-kill-at-import': { worker: null, sandbox: null },
  'hx-async-spin': { worker: TIMEOUT, sandbox: TIMEOUT },
  'hx-spy': { worker: null, sandbox: null },
  'hx-ext-spy': { worker: null, sandbox: null },
  'hx-ext-crash': { worker: /^crash: exited with code 3/, sandbox: /^crash: exited with code 3/ },
  'hx-escape': { worker: /^crash: Error: no move ␛\[2J␛\]0;pwned␇/, sandbox: /^crash: Error: no move ␛\[2J␛\]0;pwned␇/ },
  'hx-ext-escape': { worker: ESCAPED, sandbox: ESCAPED },
};
const ATTACKERS = Object.keys(EXPECTED);

/** This run's copy of the fixtures (readable by the sandbox's user, `nobody` when the tests run as root). */
const BOTS = join(mkdtempSync('/tmp/take-arena-hostile-'), 'bots');
const WORK = mkdtempSync('/tmp/take-arena-hostile-runs-');

/**
 * 16 MB: the attackers past the heap limit get there at once, even on a loaded machine (the default is
 * tried below). 300 ms a move of CPU time (the default clock): a loaded machine stretches no move (the
 * good bots use well under a millisecond of CPU a move), and the stalling attackers compute their way
 * past it. 8 games in flight: their games wait out their clocks side by side rather than two at a time.
 */
const BASE = { games: ['subtraction{moves=1,2,3;n=8..12}'], timePerMoveMs: LIMIT_MS, memoryMb: 16, concurrency: 8, botData: join(WORK, 'bot-data') };

/** This run's marker for hx-survive's `sleep` (in place of 31417). */
const SURVIVOR = String(40_000 + Math.floor(Math.random() * 20_000));

/** What a spy (test/fixtures/hostile/lib/spy.mjs) wrote of each look at its game: `SPY <what>: opponent <names|unknown>…`. */
function spyLines(dir: string, bot: string): string[] {
  return stderrOf(dir, bot)
    .split('\n')
    .filter((l) => l.startsWith('SPY '));
}

/** Command lines of running processes that contain `text`. */
function processesWith(text: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(text) && !l.includes('ps -eo'));
}

beforeAll(() => {
  cpSync(join(ROOT, 'test/fixtures/hostile'), BOTS, { recursive: true });
  const survive = join(BOTS, 'hx-survive.ts');
  writeFileSync(survive, readFileSync(survive, 'utf8').replaceAll('31417', SURVIVOR));
  for (const f of readdirSync(BOTS, { recursive: true }) as string[]) chmodSync(join(BOTS, f), statSync(join(BOTS, f)).isDirectory() ? 0o755 : 0o644);
  chmodSync(BOTS, 0o755);
  chmodSync(dirname(BOTS), 0o755);
});
afterAll(() => {
  rmSync(dirname(BOTS), { recursive: true, force: true });
  rmSync(WORK, { recursive: true, force: true });
});

/** The timeout of each of the smaller tests (it only catches a hang): they run side by side, and a loaded machine stretches each several times. */
const SIDE_BY_SIDE_MS = 600_000;

const baseline = (() => {
  let run: Promise<unknown[]> | undefined;
  return () => (run ??= tournament(WORK, 'baseline', { ...BASE, bots: GOOD, isolation: 'none' }, BOTS).then((r) => gamesAmong(records(r.dir), GOOD)));
})();

const problem = sandboxProblem();
const isolations = [
  { isolation: 'worker', skip: false },
  { isolation: 'sandbox', skip: problem !== null && !process.env['CI'] },
] as const;

describe('hostile bots', () => {
  for (const { isolation, skip } of isolations) {
    it.skipIf(skip).concurrent(`under isolation ${isolation}: the arena finishes, each attack ends as the attacker's forfeit or as nothing, the good bots play as without them`, async () => {
      // A gauntlet: every attacker against random, and random against greedy (the good bots' games
      // to compare), not every attacker against every other (16 bots played 240 games, most of
      // them attackers restarting each other's processes).
      const run = await tournament(WORK, isolation, { ...BASE, bots: [...GOOD, ...ATTACKERS], format: 'gauntlet', champion: GOOD[0], isolation }, BOTS);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      // Nothing a bot wrote reached the arena's own output (34 MB of it tried), nor a control
      // character from a bot's texts (the escape fixtures').
      expect(run.stderr.length).toBeLessThan(64 << 10);
      expect(run.stdout).not.toMatch(CONTROL);
      expect(run.stderr).not.toMatch(CONTROL);
      const recs = records(run.dir);
      const n = GOOD.length + ATTACKERS.length;
      expect(recs).toHaveLength((n - 1) * 2);
      for (const bot of ATTACKERS) {
        const want = EXPECTED[bot]![isolation];
        const forfeits = forfeitsOf(recs, bot);
        if (want === null) {
          expect(forfeits, bot).toEqual([]);
          continue;
        }
        // A flood read apart from the answers (a sandboxed bot's stderr) may pass its cap between
        // the attacker's two games, ending its process there rather than in a game: the log says
        // so (checked below), as sandbox-attacks allows for its CPU spinner.
        if (bot === 'hx-stderr' && isolation === 'sandbox' && forfeits.length === 0) continue;
        // Every game the attacker had to move in is its forfeit, each with the attack's reason (an
        // attacker that answers once before its attack may win a game outright).
        expect(forfeits.length, bot).toBeGreaterThan(0);
        expect(forfeits.filter((f) => !want.test(f)), bot).toEqual([]);
        expect(gamesOf(recs, bot).filter((r) => r.termination === 'normal' && r.winner === bot), bot).toEqual([]);
      }
      // Each bot's output in its own log, capped, with the arena's word on why it ended.
      expect(statSync(join(run.dir, 'bots', 'hx-stderr.stderr.log')).size).toBeLessThan(9 << 20);
      const log = stderrOf(run.dir, 'hx-stderr');
      expect(log).toContain('x'.repeat(1000));
      expect(log).toContain(`: wrote more than 8388608 bytes to ${isolation === 'worker' ? 'stdout and stderr' : 'stderr'}`);
      // Nothing a bot is given names its opponent: the spies, hashing every candidate name into game
      // keys to match their game id and seed, find no one, though the same hashing finds their own
      // seeds (the control that their hash is the arena's).
      for (const spy of ['hx-spy', 'hx-ext-spy']) {
        const lines = spyLines(run.dir, spy);
        expect(lines.length, spy).toBeGreaterThan(0);
        expect(lines.filter((l) => !/: opponent unknown(;|$)/.test(l)), spy).toEqual([]);
        const seeds = lines.filter((l) => l.includes('own seed derivable'));
        expect(seeds.length, spy).toBeGreaterThan(0);
        expect(seeds.filter((l) => !l.endsWith('own seed derivable: yes')), spy).toEqual([]);
      }
      expect(gamesAmong(recs, GOOD)).toEqual(await baseline());
    });
  }

  it.concurrent("never tells a bot the reason of its opponent's forfeit, which names the opponent's log", async () => {
    const run = await tournament(WORK, 'forfeit-reason', { ...BASE, bots: ['hx-ext-spy', 'hx-ext-crash'], isolation: 'worker' }, BOTS);
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(spyLines(run.dir, 'hx-ext-spy')).toContain('SPY game-over crash reason null: opponent unknown');
  });

  // The smaller attacks, side by side once the gauntlets above are done (beside them, the
  // gauntlets' floods and stalls would wait longer for the machine than their limits allow).
  describe('one attack each', () => {
    it.concurrent('at the default memory (512 MB), a Map memo or an Array past the heap limit costs the bot its move as a crash, and nothing else', async () => {
      const hosts = ['hx-oom-map', 'hx-oom-array'].map((name) => new WorkerHost(name, { file: join(BOTS, `${name}.ts`), name, options: {}, memoryMb: 512, stderrLog: join(WORK, `${name}.log`) }));
      try {
        await Promise.all(hosts.map((h) => h.start()));
        const replies = await Promise.all(
          hosts.map(async (h) => (await h.open({ key: 'g', variant: 'subtraction{n=12..30}', seat: 'first', rngSeed: 1 })).move({ pile: 20, turn: 'first' }, [1, 2, 3], 120_000)),
        );
        for (const r of replies) expect(r).toMatchObject({ ok: false, kind: 'crash', reason: 'ran out of memory (limit 512 MB)' });
      } finally {
        await Promise.all(hosts.map((h) => h.close()));
      }
    }, SIDE_BY_SIDE_MS);

    it.concurrent('under a time control, a bot that lies about its think time is charged what the host measured and loses on time', async () => {
      const run = await tournament(WORK, 'clock', { games: ['subtraction{moves=1,2;n=20}'], bots: ['random', 'hx-clock-lie'], timeControl: '2+0', isolation: 'worker', concurrency: 2 }, BOTS);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      const forfeits = forfeitsOf(records(run.dir), 'hx-clock-lie');
      expect(forfeits).toHaveLength(2);
      for (const f of forfeits) expect(f).toMatch(/^timeout: time bank exhausted/);
    }, SIDE_BY_SIDE_MS);

    it.concurrent('discovery survives a bot file that kills its parent at import, selected or not', async () => {
      const listed = await runArena(['bots', '--bots-dir', BOTS]);
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('hx-kill-at-import');
      expect(listed.stdout + listed.stderr).not.toMatch(CONTROL);
      const run = await tournament(WORK, 'unselected', { ...BASE, bots: GOOD, isolation: 'worker' }, BOTS);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      expect(gamesAmong(records(run.dir), GOOD)).toEqual(await baseline());
    }, SIDE_BY_SIDE_MS);

    it.concurrent('under isolation none, an async choose that spins past its limit before its first await loses on time', async () => {
      const run = await tournament(WORK, 'none', { ...BASE, timePerMoveMs: 500, bots: ['random', 'hx-async-spin'], isolation: 'none' }, BOTS);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
      const forfeits = forfeitsOf(records(run.dir), 'hx-async-spin');
      expect(forfeits).toHaveLength(2);
      for (const f of forfeits) expect(f).toMatch(/^timeout: no move within 500 ms/);
    }, SIDE_BY_SIDE_MS);

    // Under CI bubblewrap is there (.ci/run installs it): its absence fails this instead of skipping it.
    it.skipIf(pidNamespaceProblem() !== null && !process.env['CI']).concurrent('leaves no process of a worker bot behind when the arena is killed with SIGKILL (a setsid child included)', async () => {
      const out = join(WORK, 'results', 'killed');
      mkdirSync(out, { recursive: true });
      const child = spawn(
        process.execPath,
        ['bin/arena.mjs', 'tournament', '--bots', 'random,hx-survive', '--games', 'subtraction{n=200}', '--deals', '50', '--time-per-move', '4000',
          '--isolation', 'worker', '--bots-dir', BOTS, '--out', out, '--plain'],
        { cwd: ROOT, stdio: 'ignore' },
      );
      // Until its bot has started (the other tests of this block run beside it: that may take a while on a loaded machine).
      await waitFor(() => processesWith(`sleep ${SURVIVOR}`).length > 0, 'the survivor to start');
      expect(processesWith(`sleep ${SURVIVOR}`).length).toBeGreaterThan(0);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      await waitFor(() => processesWith(`sleep ${SURVIVOR}`).length === 0, 'the survivor to be killed');
      expect(processesWith(`sleep ${SURVIVOR}`)).toEqual([]);
    }, SIDE_BY_SIDE_MS);
  });
});
