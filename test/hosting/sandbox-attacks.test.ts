/**
 * Isolation `sandbox` against hostile bots: the attacker fixtures of test/fixtures/attackers, each
 * as a module bot and as an external program, play a real tournament through the CLI (real
 * bubblewrap, real caps) beside two good bots. Every attack must fail, be recorded (a forfeit, or a
 * normal game whose attack did nothing) and leave no trace outside the sandbox; the good bots'
 * games must be exactly those of a run without the attackers. One tournament per transport is
 * shared by all the assertions about it.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { readLogKey, scanLog } from '../../src/arena/results-guard.ts';
import { parseRecordLine } from '../../src/arena/results.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';
import { LISTENER_PORT, VICTIM } from '../fixtures/attackers/lib/attacks.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ATTACKERS = join(ROOT, 'test/fixtures/attackers');
const SECRET = `secret-${randomBytes(8).toString('hex')}`;
const ENV_SECRET = `env-${randomBytes(8).toString('hex')}`;
const GOOD = ['random', 'greedy'];

/** Runs `arena tournament` in a child process (the arena must survive what its bots do). */
function tournament(name: string, bots: readonly string[], extra: Record<string, unknown> = {}): { dir: string; stdout: string; stderr: string; status: number | null } {
  const out = join(VICTIM, 'results', name);
  mkdirSync(out, { recursive: true });
  const spec = join(VICTIM, `${name}.json`);
  writeFileSync(
    spec,
    JSON.stringify({
      name,
      seed: 5,
      games: ['subtraction{moves=1,2,3;n=8..12}'],
      bots,
      deals: 1,
      timePerMoveMs: 2500,
      isolation: 'sandbox',
      cpuSeconds: 1,
      memoryMb: 64,
      concurrency: 2,
      out,
      ...extra,
    }),
  );
  const r = spawnSync(process.execPath, ['bin/arena.mjs', 'tournament', spec, '--bots-dir', ATTACKERS, '--plain'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, TAKE_ARENA_TEST_SECRET: ENV_SECRET },
  });
  const dirs = existsSync(out) ? readdirSync(out) : [];
  return { dir: join(out, dirs[0] ?? 'none'), stdout: r.stdout, stderr: r.stderr, status: r.status };
}

function records(dir: string): GameRecord[] {
  return readFileSync(join(dir, 'games.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => parseRecordLine(l)!);
}

function gamesOf(recs: readonly GameRecord[], bot: string): GameRecord[] {
  return recs.filter((r) => r.seats.first === bot || r.seats.second === bot);
}

function stderrOf(dir: string, bot: string): string {
  const file = join(dir, 'bots', `${bot}.stderr.log`);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** Command lines of running processes that contain `text`. */
function processesWith(text: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(text) && !l.includes('ps -eo'));
}

const problem = sandboxProblem();
const connections: string[] = [];
let listener: Server;

describe.skipIf(problem !== null)('isolation sandbox against attacker bots', () => {
  beforeAll(async () => {
    rmSync(VICTIM, { recursive: true, force: true });
    mkdirSync(join(VICTIM, 'results'), { recursive: true });
    writeFileSync(join(VICTIM, 'secret.txt'), SECRET);
    listener = createServer((s) => {
      connections.push('connection');
      s.on('data', (d) => connections.push(d.toString()));
    });
    await new Promise<void>((resolve) => listener.listen(LISTENER_PORT, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
  });

  /** What every attack run must leave behind: nothing. */
  function noTrace(dir: string, bots: readonly string[]): void {
    expect(readFileSync(join(VICTIM, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(existsSync(join(VICTIM, 'written.txt'))).toBe(false);
    expect(existsSync(join(VICTIM, 'spawned.txt'))).toBe(false);
    expect(connections).toEqual([]);
    // The log is the arena's alone: every line verifies, none is forged.
    const check = scanLog(join(dir, 'games.jsonl'), readLogKey(dir), () => null, () => {});
    expect(check.anyDropped).toBe(false);
    expect(readFileSync(join(dir, 'games.jsonl'), 'utf8')).not.toContain('forged');
    for (const bot of bots) {
      const log = stderrOf(dir, bot);
      expect(log).not.toContain(SECRET);
      expect(log).not.toContain(ENV_SECRET);
      // (A program's own processes and threads are its business: they stay inside the sandbox.)
      expect(log.replace(/ATTACK (spawn a process|start a worker thread): succeeded[^\n]*/g, '')).not.toMatch(/ATTACK [^\n]*: succeeded/);
    }
    expect(processesWith('sleep 3141')).toEqual([]);
  }

  const transports = [
    { kind: 'module', prefix: 'atk-' },
    { kind: 'external', prefix: 'atk-ext-' },
  ] as const;

  const baseline = (() => {
    let run: Promise<GameRecord[]> | undefined;
    return () => (run ??= Promise.resolve().then(() => records(tournament('baseline', GOOD, { isolation: 'none' }).dir)));
  })();

  for (const { kind, prefix } of transports) {
    // The two tournaments run at once (each in its own arena process): the suite waits for one.
    it.concurrent(`every attack of a ${kind} bot fails and is recorded; the good bots play as without attackers`, async () => {
      const attacks = ['files', 'fork', 'oom', 'cpu', 'stderr', 'kill'];
      const bots = attacks.map((a) => `${prefix}${a}`);
      const run = tournament(kind, [...GOOD, ...bots]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0); // the arena survived every attack and finished
      const recs = records(run.dir);
      const n = GOOD.length + bots.length;
      expect(recs).toHaveLength(n * (n - 1));
      noTrace(run.dir, bots);

      // Reads, writes, processes, network, env: all refused; the bot played on normally.
      const files = stderrOf(run.dir, `${prefix}files`);
      for (const what of ['read secret', 'read /etc/passwd', 'read env secret', 'write file', 'delete secret', 'forge results', 'connect to 127.0.0.1']) {
        expect(files).toMatch(new RegExp(`ATTACK ${what}: failed`));
      }
      expect(files).toMatch(/ATTACK read env secret: failed \(not there; the environment holds (PATH|HOME|LANG|PWD|,)+\)/);
      // A module bot may not start a process; a program may (a script's own tools), but only inside
      // the sandbox: what it ran could not write outside (no spawned.txt, checked in noTrace).
      if (kind === 'module') expect(files).toMatch(/ATTACK spawn a process: failed/);
      const faultless = (bot: string): boolean => gamesOf(recs, bot).every((r) => r.faulty === null || r.seats[r.faulty] !== bot);
      expect(faultless(`${prefix}files`)).toBe(true);
      // No threads or processes: a module bot may start neither; a program's fork bomb hits the cap.
      expect(stderrOf(run.dir, `${prefix}fork`)).toMatch(/ATTACK fork bomb: failed/);
      if (kind === 'module') expect(stderrOf(run.dir, `${prefix}fork`)).toMatch(/ATTACK start a worker thread: failed/);
      // Memory, CPU and stderr past their caps: forfeits, each with its reason.
      const crashes = (bot: string): string[] => gamesOf(recs, bot).filter((r) => r.faulty !== null && (r.seats[r.faulty] === bot)).map((r) => `${r.termination}: ${r.reason}`);
      expect(crashes(`${prefix}oom`).length).toBeGreaterThan(0);
      expect(crashes(`${prefix}oom`).every((c) => /^crash: ran out of memory/.test(c))).toBe(true);
      // The spinner answers in time; the cap ends its process (in a game, a forfeit; between games, a note in its log).
      expect(stderrOf(run.dir, `${prefix}cpu`)).toMatch(/exceeded its CPU time cap \(SIGXCPU\)/);
      expect(crashes(`${prefix}cpu`).every((c) => /^crash: exceeded its CPU time cap/.test(c))).toBe(true);
      expect(crashes(`${prefix}stderr`).some((c) => /^crash: wrote more than 8388608 bytes to stderr/.test(c))).toBe(true);
      expect(statSync(join(run.dir, 'bots', `${prefix}stderr.stderr.log`)).size).toBeLessThan(9 << 20);
      expect(crashes(`${prefix}kill`).length).toBeGreaterThan(0);
      expect(crashes(`${prefix}kill`).every((c) => /^crash: killed by SIGKILL/.test(c))).toBe(true);

      // The good bots' games are exactly those of a run without the attackers.
      const strip = (r: GameRecord): unknown => ({ key: r.key, moves: r.moves, winner: r.winner, termination: r.termination });
      const good = recs.filter((r) => GOOD.includes(r.seats.first) && GOOD.includes(r.seats.second)).map(strip);
      expect(good).toHaveLength(2);
      const byKey = (a: unknown, b: unknown): number => String((a as { key: string }).key).localeCompare((b as { key: string }).key);
      expect(good.sort(byKey)).toEqual((await baseline()).map(strip).sort(byKey));
    }, 300_000);
  }

  it('leaves no process behind when the arena is killed with SIGKILL (a setsid child included)', async () => {
    const out = join(VICTIM, 'results', 'killed');
    mkdirSync(out, { recursive: true });
    const child = spawn(
      process.execPath,
      ['bin/arena.mjs', 'tournament', '--bots', 'random,atk-ext-survive,atk-files', '--games', 'subtraction{n=200}', '--deals', '50',
        '--time-per-move', '4000', '--isolation', 'sandbox', '--bots-dir', ATTACKERS, '--out', out, '--plain'],
      { cwd: ROOT, stdio: 'ignore' },
    );
    // Wait until the survivor is running, then kill the arena without a chance to clean up.
    for (let i = 0; i < 400 && processesWith('sleep 31415').length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith('sleep 31415').length).toBeGreaterThan(0);
    expect(processesWith('bwrap').length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The kernel kills the sandboxes one after another: give it a moment on a busy machine.
    const left = (): string[] => [...processesWith('sleep 31415'), ...processesWith('/bot/bot.mjs'), ...processesWith('attack-bot.mjs')];
    for (let i = 0; i < 100 && left().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesWith('sleep 31415')).toEqual([]);
    expect(processesWith('/bot/bot.mjs')).toEqual([]);
    expect(processesWith('attack-bot.mjs')).toEqual([]);
  }, 60_000);
});

describe.skipIf(problem === null)('isolation sandbox where bubblewrap cannot run', () => {
  it('refuses with one line saying what is missing', () => {
    expect(problem).toMatch(/^isolation sandbox (needs|cannot)/);
  });
});
