/**
 * Discovery never runs a bot's code in the arena's process (issue 18): files that loop, throw, exit,
 * flood stdout, write files or patch globals at import are read in child processes; the hanging
 * one is skipped at the time limit, the others are reported or listed, and nothing reaches the
 * arena. The descriptors built from the children's metadata validate options exactly as the bots
 * themselves do.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyBot } from '../../src/core/bot.ts';
import { parseVariant } from '../../src/games/index.ts';
import { botOptions, BUILTIN_BOTS_DIR, discoverBots, importModuleBot, supportedBy, type ModuleBotEntry } from '../../src/hosting/index.ts';
import { describeModules } from '../../src/hosting/discovery.ts';
import { sandboxCapsText, sandboxProblem } from '../../src/platform/sandbox.ts';
import { botFolder } from '../arena/bot-fixtures.ts';
import { comparableLog, tempDir } from '../arena/helpers.ts';
import { HANG_MS } from '../patience.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ATTACKERS = join(ROOT, 'test/fixtures/discovery-attackers');
const MARKER = '/tmp/take-arena-dx-marker.txt';

describe('discovery in child processes', () => {
  const cacheDir = tempDir('arena-discovery-cache-');
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('skips files that hang, throw, exit or flood at import, lists the rest, and nothing reaches this process', async () => {
    rmSync(MARKER, { force: true });
    const registry = await discoverBots([ATTACKERS], { cacheDir, cpuSeconds: 1 });
    const reasons = Object.fromEntries(registry.problems.map((p) => [basename(p.file), p.reason]));
    expect(reasons['dx-loops.ts']).toBe("did not finish loading within 1 s of CPU time (discovery's limit; a loop at the top level?)");
    expect(reasons['dx-throws.ts']).toBe('failed to load: dx-throws blows up at import');
    expect(reasons['dx-exits.ts']).toBe('failed to load: the module exited with code 0 while loading');
    expect(reasons['dx-flood.ts']).toMatch(/^failed to load: printed more than \d+ bytes while loading$/);
    expect(Object.keys(reasons).sort()).toEqual(['dx-exits.ts', 'dx-flood.ts', 'dx-loops.ts', 'dx-throws.ts']);
    // The two that still export a bot are listed under their own names (dx-patch's rename of itself
    // on stdout did not take), beside the built-ins.
    const names = registry.bots.map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(['random', 'greedy', 'dx-marker', 'dx-patch']));
    expect(names.filter((n) => n === 'random')).toHaveLength(1);
    // The child could not write, spawn or read this environment; this process's globals are its own.
    expect(existsSync(MARKER)).toBe(false);
    expect(JSON.stringify({ winner: 'first' })).toBe('{"winner":"first"}');
    expect(typeof Math.random()).toBe('number');
  });

  it('answers from the cache the second time, and still reports the files that failed', async () => {
    const registry = await discoverBots([ATTACKERS], { cacheDir, cpuSeconds: 1 });
    expect(registry.problems.map((p) => basename(p.file)).sort()).toEqual(['dx-exits.ts', 'dx-flood.ts', 'dx-loops.ts', 'dx-throws.ts']);
    // One entry per file that answered (the bots, and the files that threw or exited: a fact of their
    // contents); never the one that hit the time limit, nor the flood the arena cut off.
    const entries = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
    const cachedFiles = entries.map((f) => (JSON.parse(readFileSync(join(cacheDir, f), 'utf8')) as { file: string }).file);
    expect(cachedFiles).toContain(join(ATTACKERS, 'dx-throws.ts'));
    expect(cachedFiles).toContain(join(ATTACKERS, 'dx-patch.ts'));
    expect(cachedFiles).not.toContain(join(ATTACKERS, 'dx-loops.ts'));
    expect(cachedFiles).not.toContain(join(ATTACKERS, 'dx-flood.ts'));
    expect(existsSync(MARKER)).toBe(false);
  });

  it('rebuilds every built-in option table: the descriptors validate and default exactly as the bots do', async () => {
    const registry = await discoverBots([], { cacheDir });
    const raws: Record<string, unknown>[] = [
      {},
      { depth: '8' },
      { depth: 0 },
      { nodes: '1e3' },
      { iterations: '50', c: '0.5' },
      { c: '-1' },
      { threshold: '14', early: 'random' },
      { early: 'sideways' },
      { strength: 'Easy' },
      { strength: ' medium ' },
      { strength: '0.25' },
      { strength: '2' },
      { strength: '' },
      { nope: 1 },
    ];
    const outcome = (bot: AnyBot, raw: Record<string, unknown>): unknown => {
      try {
        return botOptions(bot, raw);
      } catch (err) {
        return `${(err as Error).name}: ${(err as Error).message}`;
      }
    };
    for (const entry of registry.bots) {
      if (entry.file.startsWith(BUILTIN_BOTS_DIR) === false || entry.transport === 'process') continue;
      const real = await importModuleBot(entry as ModuleBotEntry);
      expect(entry.bot.description).toBe(real.description);
      for (const raw of raws) {
        const relevant = Object.fromEntries(Object.entries(raw).filter(([k]) => k === 'nope' || k in (real.options ?? {})));
        expect(outcome(entry.bot, relevant), `${entry.name} ${JSON.stringify(relevant)}`).toEqual(outcome(real, relevant));
      }
      for (const id of ['subtraction', 'piles', 'coins', 'end-game', 'subtraction{moves=1,2,3;n=0..30}']) {
        expect(supportedBy(entry.bot, parseVariant(id)), `${entry.name} ${id}`).toBe(supportedBy(real, parseVariant(id)));
      }
      expect(() => entry.bot.choose({} as never)).toThrow(/discovered in a child process/);
    }
  });

  it('asks a child about a variant the metadata has no answer for', async () => {
    const user = botFolder({
      'picky.ts': `import { defineBot } from 'take-arena';
export default defineBot({
  name: 'picky',
  description: 'plays nim with three piles only',
  supports: (game) => game.id.startsWith('piles{') && game.id.includes('piles=') && (game.id.match(/piles=([\\d,]+)/)?.[1]?.split(',').length === 3),
  choose: ({ moves }) => moves[0],
});
`,
    });
    try {
      const registry = await discoverBots([user.dir], { cacheDir });
      const picky = registry.bots.find((b) => b.name === 'picky')!;
      expect(supportedBy(picky.bot, parseVariant('piles'))).toBe(false);
      expect(supportedBy(picky.bot, parseVariant('piles{rule=nim;piles=1,2,3}'))).toBe(true);
      expect(supportedBy(picky.bot, parseVariant('piles{rule=nim;piles=1,2}'))).toBe(false);
    } finally {
      user.cleanup();
    }
  });
});

describe('the discovery cache', () => {
  const bot = (description: string): string => `import { defineBot } from 'take-arena';
import { pick } from './helper.ts';
export default defineBot({ name: 'cached', description: pick('${description}'), choose: ({ moves }) => moves[0] });
`;
  const helper = (suffix: string): string => `export const pick = (s: string): string => s + '${suffix}';\n`;
  /** The metadata discovery gives now; `cacheOnly` gives the child no time, so only a cache hit answers. */
  const describe1 = async (file: string, cacheDir: string, cacheOnly = false): Promise<string> => {
    const [r] = await describeModules([file], { cacheDir, ...(cacheOnly ? { timeoutMs: 1 } : {}) });
    return 'reason' in r! ? `reason: ${r.reason}` : r!.meta.description;
  };
  const entryOf = (cacheDir: string): { inputs: { path: string; mtimeMs: number }[]; answer: unknown } => {
    const [name] = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
    return JSON.parse(readFileSync(join(cacheDir, name!), 'utf8'));
  };
  /** Runs `body` on a bot `cached.ts` (its description `description`) importing `helper.ts`, with a cache folder of its own; removes both after. */
  const withCachedBot = async (description: string, body: (t: { user: ReturnType<typeof botFolder>; cacheDir: string; file: string }) => Promise<void>): Promise<void> => {
    const user = botFolder({ 'cached.ts': bot(description), 'helper.ts': helper('') });
    const cacheDir = tempDir('arena-discovery-cache-');
    try {
      await body({ user, cacheDir, file: join(user.dir, 'cached.ts') });
    } finally {
      user.cleanup();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  };

  it('answers from the cache while the bot and what it imports are unchanged, and reads an edited one again', async () => {
    await withCachedBot('first', async ({ user, cacheDir, file }) => {
      expect(await describe1(file, cacheDir)).toBe('first');
      expect(await describe1(file, cacheDir, true)).toBe('first');
      // The bot file edited (same length, so only its content tells).
      writeFileSync(file, bot('again'));
      expect(await describe1(file, cacheDir, true)).toMatch(/^reason: did not finish loading/);
      expect(await describe1(file, cacheDir)).toBe('again');
      // A module it imports edited.
      writeFileSync(join(user.dir, 'helper.ts'), helper('!'));
      expect(await describe1(file, cacheDir)).toBe('again!');
      expect(await describe1(file, cacheDir, true)).toBe('again!');
      // A module it imports removed: the entry is stale (and the file no longer loads).
      rmSync(join(user.dir, 'helper.ts'));
      expect(await describe1(file, cacheDir)).toMatch(/^reason: failed to load: .*helper/);
    });
  });

  it('keeps answering from the cache for files rewritten unchanged, and takes their new times so they are not hashed again', async () => {
    await withCachedBot('same', async ({ cacheDir, file }) => {
      expect(await describe1(file, cacheDir)).toBe('same');
      const later = new Date(Date.now() + 60_000);
      writeFileSync(file, bot('same'));
      utimesSync(file, later, later);
      expect(await describe1(file, cacheDir, true)).toBe('same');
      expect(entryOf(cacheDir).inputs.find((i) => i.path === file)?.mtimeMs).toBe(statSync(file).mtimeMs);
      // The refreshed entry still knows the content: an edit (of the same length) is seen.
      writeFileSync(file, bot('edit'));
      const edited = new Date(Date.now() + 120_000);
      utimesSync(file, edited, edited);
      expect(await describe1(file, cacheDir, true)).toMatch(/^reason: did not finish loading/);
      expect(await describe1(file, cacheDir)).toBe('edit');
    });
  });

  it('reads the bot again when its entry is damaged', async () => {
    await withCachedBot('whole', async ({ cacheDir, file }) => {
      expect(await describe1(file, cacheDir)).toBe('whole');
      const [name] = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
      const entry = entryOf(cacheDir);
      writeFileSync(join(cacheDir, name!), JSON.stringify({ ...entry, answer: { meta: { name: 'cached', description: 7 } } }));
      expect(await describe1(file, cacheDir, true)).toMatch(/^reason: did not finish loading/);
      expect(await describe1(file, cacheDir)).toBe('whole');
    });
  });

  it('a cold discovery prunes the entries whose inputs are gone (a deleted folder of games or helpers) and keeps the live ones', async () => {
    await withCachedBot('kept', async ({ user, cacheDir, file }) => {
      expect(await describe1(file, cacheDir)).toBe('kept');
      const live = entryOf(cacheDir);
      // Entries of an existing bot file bundled with a helper since deleted: keys no run asks for
      // again, more than the 256 the cache holds before it prunes.
      const gone = join(user.dir, 'deleted-folder', 'games.ts');
      for (let i = 0; i < 300; i++) {
        writeFileSync(join(cacheDir, `dead${i}.json`), JSON.stringify({ ...live, inputs: [...live.inputs, { path: gone, size: 1, mtimeMs: 1, sha256: 'x' }] }));
      }
      // A cold discovery (the edited bot file) prunes.
      writeFileSync(file, bot('again'));
      expect(await describe1(file, cacheDir)).toBe('again');
      const left = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
      expect(left).toHaveLength(1);
      expect(await describe1(file, cacheDir, true)).toBe('again');
    });
  });
});

describe('the CLI with a folder of import-time attackers', () => {
  // A second of CPU time for a file's import (the documented override of the 5 s default): the looping attacker costs that much, not five.
  // These tests run side by side: each is mostly the bin's start and its discovery children's.
  const arena = (args: readonly string[]): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        ['bin/arena.mjs', ...args],
        { cwd: ROOT, encoding: 'utf8', timeout: HANG_MS, maxBuffer: 1 << 26, env: { ...process.env, CI: 'true', TAKE_ARENA_DISCOVERY_CPU_SECONDS: '1' } },
        (err, stdout, stderr) => resolve({ status: child.exitCode, signal: err?.signal ?? null, stdout, stderr }),
      );
      child.stdin?.end();
    });

  // Once for the three: a test removing it while another runs could hide that other's marker.
  beforeAll(() => rmSync(MARKER, { force: true }));

  it.concurrent('`arena bots` finishes, reports each broken file in one line and writes no marker', async () => {
    const run = await arena(['bots', '--bots-dir', ATTACKERS]);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
    expect(run.stdout).toMatch(/^dx-marker — tries to write a file at import$/m);
    expect(run.stdout).toMatch(/^dx-patch — patches globals at import$/m);
    expect(run.stderr).toMatch(/^arena: skipped .*dx-loops\.ts: did not finish loading within 1 s of CPU time/m);
    expect(run.stderr).toMatch(/^arena: skipped .*dx-exits\.ts: failed to load: the module exited with code 0 while loading$/m);
    expect(run.stderr.trim().split('\n')).toHaveLength(4);
    expect(existsSync(MARKER)).toBe(false);
  });

  it.skipIf(sandboxProblem() !== null && !process.env['CI']).concurrent('`arena bots --sandbox` reads them in bubblewrap, with the same reports, and says which caps apply', async () => {
    const run = await arena(['bots', '--sandbox', '--bots-dir', ATTACKERS]);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
    expect(run.stdout).toMatch(/^dx-marker — tries to write a file at import$/m);
    expect(run.stderr).toMatch(/^arena: skipped .*dx-loops\.ts: did not finish loading within 1 s of CPU time/m);
    expect(run.stderr).toMatch(/^arena: skipped .*dx-throws\.ts: failed to load: dx-throws blows up at import$/m);
    expect(run.stdout).toMatch(/^Sandbox: read in bubblewrap; caps by rlimits \(prlimit\): address space, CPU seconds, file size, processes per sandbox, open files; no cgroup limits: .+\.$/m);
    expect(existsSync(MARKER)).toBe(false);
  });

  it.concurrent('a tournament of random and greedy with the attackers beside them is honest: the same games as without them', async () => {
    const withAttackers = tempDir();
    const without = tempDir();
    const common = ['tournament', '--bots', 'random,greedy', '--games', 'subtraction{n=10..30}', '--deals', '4', '--seed', '7', '--plain', '--exit'];
    const [a, b] = await Promise.all([arena([...common, '--bots-dir', ATTACKERS, '--out', withAttackers]), arena([...common, '--out', without])]);
    expect(a.signal).toBeNull();
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    const dir = (root: string): string => join(root, readdirSync(root)[0]!);
    const log = comparableLog(dir(withAttackers));
    expect(log).toHaveLength(8);
    expect(log).toEqual(comparableLog(dir(without)));
    for (const rec of log as { outcome: { winner: string } }[]) expect(['first', 'second']).toContain(rec.outcome.winner);
    expect(existsSync(MARKER)).toBe(false);
    rmSync(withAttackers, { recursive: true, force: true });
    rmSync(without, { recursive: true, force: true });
  });
});

describe('sandboxCapsText', () => {
  it('names rlimits as the caps and says why not cgroup v2 where /sys/fs/cgroup is something else', () => {
    const dir = tempDir('not-cgroup-');
    expect(sandboxCapsText(dir)).toBe(`caps by rlimits (prlimit): address space, CPU seconds, file size, processes per sandbox, open files; no cgroup limits: ${dir} is cgroup v1 or hybrid, not cgroup v2`);
    rmSync(dir, { recursive: true, force: true });
    expect(sandboxCapsText(dir)).toMatch(/; no cgroup limits: no cgroup hierarchy readable at /);
  });
});
