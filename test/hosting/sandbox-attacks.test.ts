/**
 * Isolation `sandbox` against hostile bots: the attacker fixtures of test/fixtures/attackers, each
 * as a module bot and as an external program, play a real tournament through the CLI (real
 * bubblewrap, real caps) beside two good bots. Every attack must fail, be recorded (a forfeit, or a
 * normal game whose attack did nothing) and leave no trace outside the sandbox; the good bots'
 * games must be exactly those of a run without the attackers. One tournament per transport is
 * shared by all the assertions about it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { parseRecordLine, readLogKey, scanLog } from '../../src/arena/results/index.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../patience.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * This run's own folder: several suites may run at once on one machine, so the attackers are
 * copied here with their victim folder and the listener's port written into them.
 */
const VICTIM = mkdtempSync('/tmp/take-arena-attack-');
// Beside the victim folder, not in it: an external bot sees its own folder at its real path, and
// the folders above it (empty, in the sandbox's private /tmp) must not be the victim's.
const ATTACKERS = join(mkdtempSync('/tmp/take-arena-attackers-'), 'bots');
const SECRET = `secret-${randomBytes(8).toString('hex')}`;
const ENV_SECRET = `env-${randomBytes(8).toString('hex')}`;
const GOOD = ['random', 'greedy'];
/** This run's markers for the attackers' `sleep` processes (in place of 31415 and 31416). */
const SURVIVOR = String(40_000 + Math.floor(Math.random() * 20_000));
const BOMB = String(Number(SURVIVOR) + 1);

/**
 * Runs `arena tournament` in a child process (the arena must survive what its bots do), without
 * blocking this process: the listener must see any connection as it happens.
 */
async function tournament(name: string, bots: readonly string[], extra: Record<string, unknown> = {}): Promise<{ dir: string; stdout: string; stderr: string; status: number | null }> {
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
      // 16 MB: the memory attackers reach the cap within a fraction of the 1 s CPU cap, even on a
      // loaded machine (filling 64 MB of heap took about that second, and the CPU cap ended them first).
      memoryMb: 16,
      concurrency: 2,
      out,
      ...extra,
    }),
  );
  const child = spawn(process.execPath, ['bin/arena.mjs', 'tournament', spec, '--bots-dir', ATTACKERS, '--plain'], {
    cwd: ROOT,
    env: { ...process.env, TAKE_ARENA_TEST_SECRET: ENV_SECRET },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const dirs = existsSync(out) ? readdirSync(out) : [];
  return { dir: join(out, dirs[0] ?? 'none'), stdout, stderr, status };
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

// Under CI the sandbox must work (.ci/run installs bubblewrap): there a problem fails these tests
// instead of skipping them.
describe.skipIf(problem !== null && !process.env['CI'])('isolation sandbox against attacker bots', () => {
  it('can run on this machine', () => {
    expect(problem).toBeNull();
  });

  beforeAll(async () => {
    // Open to everyone, as a careless machine would be: only the sandbox stands in the way (the
    // sandbox runs as nobody when the tests run as root).
    chmodSync(VICTIM, 0o777);
    mkdirSync(join(VICTIM, 'results'), { recursive: true, mode: 0o777 });
    writeFileSync(join(VICTIM, 'secret.txt'), SECRET, { mode: 0o666 });
    listener = createServer((s) => {
      connections.push('connection');
      s.on('data', (d) => connections.push(d.toString()));
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    cpSync(join(ROOT, 'test/fixtures/attackers'), ATTACKERS, { recursive: true });
    const lib = join(ATTACKERS, 'lib/attacks.mjs');
    const text = readFileSync(lib, 'utf8');
    const placed = text.replace(/export const VICTIM = '[^']*';/, `export const VICTIM = ${JSON.stringify(VICTIM)};`).replace(/export const LISTENER_PORT = [\d_]+;/, `export const LISTENER_PORT = ${port};`)
      .replaceAll("'31415'", `'${SURVIVOR}'`)
      .replaceAll('sleep 31416', `sleep ${BOMB}`);
    expect(placed).not.toBe(text);
    writeFileSync(lib, placed);
    for (const f of readdirSync(ATTACKERS, { recursive: true }) as string[]) chmodSync(join(ATTACKERS, f), 0o755);
    chmodSync(ATTACKERS, 0o755);
    chmodSync(dirname(ATTACKERS), 0o755);
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    rmSync(VICTIM, { recursive: true, force: true });
    rmSync(dirname(ATTACKERS), { recursive: true, force: true });
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
    expect([...processesWith(`sleep ${SURVIVOR}`), ...processesWith(`sleep ${BOMB}`)]).toEqual([]);
  }

  const transports = [
    { kind: 'module', prefix: 'atk-' },
    { kind: 'external', prefix: 'atk-ext-' },
  ] as const;

  const baseline = (() => {
    let run: Promise<GameRecord[]> | undefined;
    return () => (run ??= tournament('baseline', GOOD, { isolation: 'none' }).then((r) => records(r.dir)));
  })();

  for (const { kind, prefix } of transports) {
    // The two tournaments run at once (each in its own arena process): the suite waits for one.
    it.concurrent(`every attack of a ${kind} bot fails and is recorded; the good bots play as without attackers`, async () => {
      const attacks = ['files', 'fork', 'oom', 'cpu', 'stderr', 'kill'];
      const bots = attacks.map((a) => `${prefix}${a}`);
      const run = await tournament(kind, [...GOOD, ...bots]);
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
      // The fixed minimal set, and for a program its store's two variables (it has a store here).
      expect(files).toMatch(/ATTACK read env secret: failed \(not there; the environment holds (PATH|HOME|LANG|PWD|TAKE_ARENA_STORE_CAP|TAKE_ARENA_STORE|,)+\)/);
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
      // Each cap's attacker forfeits with the cap's reason; on a loaded machine a forfeit may come
      // from the move clock first (a timeout), which is a failed attack too, never a normal loss.
      const capped = (bot: string, reason: RegExp): void => {
        const forfeits = crashes(bot);
        expect(forfeits.some((c) => reason.test(c))).toBe(true);
        expect(forfeits.filter((c) => !reason.test(c) && !c.startsWith('timeout: ')), `${bot}: ${forfeits.join('; ')}`).toEqual([]);
      };
      capped(`${prefix}oom`, /^crash: ran out of memory/);
      // The spinner answers in time; the cap ends its process (in a game, a forfeit; between games, a note in its log).
      expect(stderrOf(run.dir, `${prefix}cpu`)).toMatch(/exceeded its CPU time cap \(SIGXCPU\)/);
      expect(crashes(`${prefix}cpu`).filter((c) => !/^crash: exceeded its CPU time cap/.test(c) && !c.startsWith('timeout: '))).toEqual([]);
      capped(`${prefix}stderr`, /^crash: wrote more than 8388608 bytes to stderr/);
      expect(statSync(join(run.dir, 'bots', `${prefix}stderr.stderr.log`)).size).toBeLessThan(9 << 20);
      capped(`${prefix}kill`, /^crash: killed by SIGKILL/);

      // The good bots' games are exactly those of a run without the attackers.
      const strip = (r: GameRecord): unknown => ({ key: r.key, moves: r.moves, winner: r.winner, termination: r.termination });
      const good = recs.filter((r) => GOOD.includes(r.seats.first) && GOOD.includes(r.seats.second)).map(strip);
      expect(good).toHaveLength(2);
      const byKey = (a: unknown, b: unknown): number => String((a as { key: string }).key).localeCompare((b as { key: string }).key);
      expect(good.sort(byKey)).toEqual((await baseline()).map(strip).sort(byKey));
    });
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
    await waitFor(() => processesWith(`sleep ${SURVIVOR}`).length > 0, 'the survivor to start');
    expect(processesWith(`sleep ${SURVIVOR}`).length).toBeGreaterThan(0);
    expect(processesWith(`--ro-bind ${ATTACKERS}`).length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The kernel kills the sandboxes one after another: give it a moment on a busy machine.
    // This run's sandboxes: programs bind the attackers' folder, module bots their arena's bundle folder.
    const left = (): string[] => [...processesWith(`sleep ${SURVIVOR}`), ...processesWith(`--ro-bind ${ATTACKERS}`), ...processesWith(`take-arena-workers-${child.pid}-`)];
    await waitFor(() => left().length === 0, 'the sandboxes to end');
    expect(left()).toEqual([]);
  });
});

describe.skipIf(problem === null)('isolation sandbox where bubblewrap cannot run', () => {
  it('refuses with one line saying what is missing', () => {
    expect(problem).toMatch(/^isolation sandbox (needs|cannot)/);
  });
});
