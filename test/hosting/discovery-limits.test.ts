/**
 * Discovery's limits are CPU time, not the machine's load: a child that computes past its CPU
 * seconds is stopped by the kernel (an rlimit, SIGXCPU), a wall-clock backstop far above it stops
 * only a file that waits, and the reasons say which limit it was without blaming a built-in bot for
 * a loop. The cache keeps every `supports` answer it has had, so a run with other variants asks
 * the cached bundle about those alone.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseVariant } from '../../src/games/index.ts';
import { describeModules, discoveryCpuSeconds, DISCOVERY_CPU_SECONDS } from '../../src/hosting/discovery.ts';
import { BUILTIN_BOTS_DIR } from '../../src/hosting/index.ts';
import { sandboxProblem } from '../../src/platform/sandbox.ts';
import { botFolder } from '../arena/bot-fixtures.ts';
import { tempDir } from '../arena/helpers.ts';
import { run } from '../cli/run.ts';

const LOOPS = fileURLToPath(new URL('../fixtures/discovery-attackers/dx-loops.ts', import.meta.url));
/** A backstop no run of these tests comes near: whatever stops a child here is its CPU limit. */
const FAR = 600_000;

/** The reason discovery gives for one file (fresh cache), or its name when it loads. */
async function outcome(file: string, settings: Parameters<typeof describeModules>[1]): Promise<string> {
  const cacheDir = tempDir('arena-discovery-limits-');
  try {
    const [r] = await describeModules([file], { cacheDir, ...settings });
    return 'reason' in r! ? r.reason : r!.meta.name;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

describe('discovery limits', () => {
  it('refuses a file that loops at import by its CPU time, with the wall-clock backstop far away', async () => {
    expect(await outcome(LOOPS, { cpuSeconds: 1, timeoutMs: FAR })).toBe("did not finish loading within 1 s of CPU time (discovery's limit; a loop at the top level?)");
  });

  it.skipIf(sandboxProblem() !== null && !process.env['CI'])('refuses it by CPU time inside bubblewrap too', async () => {
    expect(await outcome(LOOPS, { cpuSeconds: 1, timeoutMs: FAR, sandbox: true })).toBe(
      "did not finish loading within 1 s of CPU time (discovery's limit; a loop at the top level?)",
    );
  });

  it('does not accuse a built-in bot of a loop: past its CPU limit it points at the machine', async () => {
    const greedy = join(BUILTIN_BOTS_DIR, 'greedy.ts');
    expect(await outcome(greedy, { timeoutMs: FAR })).toBe('greedy');
    // No CPU at all: the kernel stops it at once.
    const reason = await outcome(greedy, { cpuSeconds: 0, timeoutMs: FAR });
    expect(reason).toBe("did not finish loading within 0 s of CPU time (discovery's limit); a built-in bot needs a fraction of that, so check this machine (memory, swap, a damaged install)");
    expect(reason).not.toMatch(/loop/);
  });

  it('stops a file that waits rather than computes at the wall-clock backstop, and says so', async () => {
    const user = botFolder({
      'waits.ts': `import { defineBot } from 'take-arena';
setInterval(() => {}, 1 << 30);
await new Promise(() => {});
export default defineBot({ name: 'waits', description: 'never finishes loading', choose: ({ moves }) => moves[0] });
`,
    });
    try {
      expect(await outcome(join(user.dir, 'waits.ts'), { timeoutMs: 2000 })).toBe(
        "did not finish loading within 2 s of wall-clock time (discovery's backstop, for a file that waits rather than computes; a top-level await that never settles?)",
      );
    } finally {
      user.cleanup();
    }
  });
});

describe('the CPU limit from the environment', () => {
  const NAME = 'TAKE_ARENA_DISCOVERY_CPU_SECONDS';

  it('is DISCOVERY_CPU_SECONDS unless $TAKE_ARENA_DISCOVERY_CPU_SECONDS names another', () => {
    expect(discoveryCpuSeconds({})).toBe(DISCOVERY_CPU_SECONDS);
    expect(discoveryCpuSeconds({ [NAME]: '30' })).toBe(30);
  });

  it('refuses a value that is not whole seconds in one line, exit 2', async () => {
    const before = process.env[NAME];
    process.env[NAME] = '0.5';
    try {
      const { code, err } = await run('bots');
      expect(code).toBe(2);
      expect(err.trim()).toBe('arena: Expected TAKE_ARENA_DISCOVERY_CPU_SECONDS to be a whole number of seconds from 1 to 3600, got "0.5"');
    } finally {
      if (before === undefined) delete process.env[NAME];
      else process.env[NAME] = before;
    }
  });
});

describe('the discovery cache across runs with other variants', () => {
  const A = 'subtraction{moves=1,2;n=10..20}';
  const B = 'piles{rule=nim;piles=2;size=1..9}';
  const C = 'subtraction{moves=1,3;n=10..20}';

  it('keeps the union of the variants it has answered: a later run asks the cached bundle only about new ones', async () => {
    const user = botFolder({
      'picky.ts': `import { defineBot } from 'take-arena';
export default defineBot({ name: 'picky', description: 'subtraction only', supports: (g) => g.family === 'subtraction', choose: ({ moves }) => moves[0] });
`,
    });
    const cacheDir = tempDir('arena-discovery-union-');
    const file = join(user.dir, 'picky.ts');
    /** What the bot supports of `variants`; `cacheOnly`: any child is stopped at once (no CPU), so only the cache can answer. */
    const supported = async (variants: string[], cacheOnly = false): Promise<Record<string, boolean> | string> => {
      const [r] = await describeModules([file], { cacheDir, variants, ...(cacheOnly ? { cpuSeconds: 0 } : {}) });
      if ('reason' in r!) return r.reason;
      return Object.fromEntries(variants.map((v) => [v, r!.bot.supports!(parseVariant(v))]));
    };
    try {
      expect(await supported([A])).toEqual({ [A]: true });
      expect(await supported([B])).toEqual({ [B]: false });
      // Both answers are in the one entry now, with the families' defaults.
      const [name] = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
      const entry = JSON.parse(readFileSync(join(cacheDir, name!), 'utf8')) as { answer: { meta: { supports: Record<string, boolean> } } };
      expect(entry.answer.meta.supports).toMatchObject({ [A]: true, [B]: false });
      // A run about both needs no child: the answers come from the entry.
      expect(await supported([A, B], true)).toEqual({ [A]: true, [B]: false });
      // One about a variant never asked needs a child (here stopped at once).
      expect(await supported([C], true)).toMatch(/^did not finish loading within 0 s of CPU time/);
      // Given its CPU, C is learned and kept beside the others.
      expect(await supported([C])).toEqual({ [C]: true });
      expect(await supported([A, B, C], true)).toEqual({ [A]: true, [B]: false, [C]: true });
    } finally {
      user.cleanup();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
