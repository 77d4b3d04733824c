/**
 * Seeded fuzzing of the command line (issues 17 and 34): malformed calls (300 in the suite;
 * `FUZZ_CALLS=2000 FUZZ_SEED=5 npx vitest run test/cli/fuzz.test.ts` for more), each built so that
 * it must fail — a misspelled flag, a stray word, a missing argument, a bad value, a flag given
 * twice with a bad last value, an unknown command, an unquoted variant id the shell expanded, a path
 * no command can use (a device, a pipe, /proc, a file where a folder goes, a planted results folder) — and
 * each must be one line on stderr, exit 2, no stack trace and nothing run.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs, { type Argv, type CommandModule } from 'yargs';
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../src/core/rng.ts';
import { COMMANDS } from '../../src/cli/main.ts';
import { botsCheckCommand } from '../../src/cli/commands/bots-check.ts';
import { hostilePaths } from './hostile-paths.ts';
import { run } from './run.ts';

const NEW_BOTS = mkdtempSync(join(tmpdir(), 'arena-fuzz-'));
const RESULTS = mkdtempSync(join(tmpdir(), 'arena-fuzz-out-'));

/** Calls made (`FUZZ_CALLS`, default 300 in the suite; the 2,000 and more by hand) and their seed (`FUZZ_SEED`, default 17). */
const CALLS = Number(process.env['FUZZ_CALLS'] ?? 300);
const SEED = Number(process.env['FUZZ_SEED'] ?? 17);

/**
 * Paths no command can use: a folder or a device where a file is read, a pipe (a read would block),
 * a place where nothing can be created (/proc), a file where a folder is made, a name too long, a
 * results folder whose spec is a link to /dev/zero or nested 100,000 deep.
 */
const HOSTILE = ((): { readonly folder: string; readonly files: readonly string[]; readonly dirs: readonly string[]; readonly results: readonly string[] } => {
  const { dir, file, fifo, planted, nested, long } = hostilePaths();
  return {
    folder: dir,
    files: ['/dev/zero', '/dev/null', fifo, dir, '/proc/nope', join(dir, 'missing.json'), join(dir, `${long}.json`)],
    dirs: ['/proc/nope', '/proc/nope/deeper', file, '/dev/null/x', join(dir, long)],
    results: [planted, nested, '/dev/zero', fifo, file, dir],
  };
})();

/** The module of a top-level command (the CLI loads only the one that runs). */
async function moduleOf(name: string): Promise<CommandModule> {
  return (await COMMANDS.find((c) => c.command.split(' ')[0] === name)!.load()) as unknown as CommandModule;
}

/** A valid call of each command (the base every mutation starts from) and the path of its module. */
const BASES: readonly { path: string[]; args: string[]; module: CommandModule }[] = [
  { path: ['games'], args: [], module: await moduleOf('games') },
  { path: ['bots'], args: [], module: await moduleOf('bots') },
  { path: ['bots', 'check'], args: ['greedy', '--isolation', 'none'], module: botsCheckCommand as unknown as CommandModule },
  { path: ['analyze'], args: ['subtraction', '--n', '13'], module: await moduleOf('analyze') },
  { path: ['tournament'], args: ['tournaments/quick.json', '--out', RESULTS], module: await moduleOf('tournament') },
  { path: ['play'], args: ['piles', '--bot', 'optimal'], module: await moduleOf('play') },
  { path: ['new-bot'], args: ['fuzzed', '--dir', NEW_BOTS], module: await moduleOf('new-bot') },
];

/** Values no integer, count, seed, time or choice flag accepts. */
const BAD_VALUES: Record<string, readonly string[]> = {
  deals: ['0', 'x', '1.5', '', ' ', '1e3', '2000000', 'NaN'],
  seed: ['x', '4294967296', '1.5', '', '0x10', '∞'],
  concurrency: ['0', '257', 'x', ''],
  'time-per-move': ['0', 'x', '', '3600001', 'Infinity'],
  isolation: ['bogus', '', 'Worker'],
  first: ['maybe', '', 'ME'],
  time: ['0', 'x', '600001', ''],
  positions: ['0', '1001', 'x', ''],
  upto: ['ten', '1.5', ''],
  bot: ['', 'nope', '0', ':depth=3', 'minimax:depth=x'],
  bots: ['nope', 'random,,', ':x'],
  games: ['sutraction', 'subtraction{moves=0}', 'piles{rule=bogus}', '{}'],
};

/** The flags a command module declares (read from its own builder, so new flags are known here too). */
function declared(module: CommandModule): Set<string> {
  const y = yargs([]) as unknown as Argv;
  (module.builder as (y: Argv) => unknown)(y);
  const options = (y as unknown as { getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]> } }).getOptions();
  const names = new Set([...Object.keys(options.key), 'help', 'version', 'h', 'v']);
  for (const [k, aliases] of Object.entries(options.alias)) for (const a of [k, ...aliases]) names.add(a);
  return names;
}

/** One random edit (insert, delete, replace or swap a letter) of a flag name, never a declared flag. */
function typo(rng: Rng, name: string, known: Set<string>): string {
  for (;;) {
    const at = rng.int(0, name.length - 1);
    const letter = String.fromCharCode(rng.int(97, 122));
    const kind = rng.int(0, 3);
    const edited =
      kind === 0 ? name.slice(0, at) + letter + name.slice(at)
      : kind === 1 && name.length > 2 ? name.slice(0, at) + name.slice(at + 1)
      : kind === 2 ? name.slice(0, at) + letter + name.slice(at + 1)
      : at + 1 < name.length ? name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2)
      : name + letter;
    // `no-x` negates a boolean, and yargs reads camelCase twins: keep clear of both.
    if (!known.has(edited) && !edited.startsWith('no-') && !/[A-Z]/.test(edited)) return edited;
  }
}

function word(rng: Rng): string {
  return rng.pick(['foo', 'x', '3', 'subtraction', 'all', '-', 'list', 'help me', '{}', '…', 'quick.json']);
}

/** A malformed call: each case below must be refused whatever the rest of the line says. */
function malformed(rng: Rng): string[] {
  const base = rng.pick(BASES);
  const known = declared(base.module);
  const flags = [...known].filter((k) => k.length > 1 && !/[A-Z]/.test(k) && k !== 'help' && k !== 'version');
  switch (rng.int(0, 7)) {
    case 0: {
      const t = typo(rng, rng.pick(flags), known);
      const args = [...base.args];
      args.splice(rng.int(0, args.length), 0, `--${t}`, ...(rng.int(0, 1) ? ['1'] : []));
      return [...base.path, ...args];
    }
    case 1: // a stray word after a complete command
      return [...base.path, ...base.args, word(rng)];
    case 2: {
      // a bad value, sometimes after a good one (the flag given twice)
      const mine = Object.keys(BAD_VALUES).filter((f) => known.has(f));
      if (mine.length === 0) return ['bogus-command', ...base.args];
      const flag = rng.pick(mine);
      const bad = rng.pick(BAD_VALUES[flag]!);
      const twice = rng.int(0, 1) === 1 ? [`--${flag}`, flag === 'bot' ? 'greedy' : '2'] : [];
      return [...base.path, ...base.args, ...twice, `--${flag}=${bad}`];
    }
    case 3: // the required argument left out
      return rng.pick([['replay'], ['analyze'], ['bots', 'check'], ['new-bot'], ['analyze', '--json'], ['new-bot', '--dir', NEW_BOTS], ['bots', 'check', '--family', 'coins']]);
    case 4: // an unknown command, near a real one or not
      return [typo(rng, rng.pick(['tournament', 'games', 'analyze', 'replay', 'play', 'bots', 'new-bot']), new Set(['tournament', 'games', 'analyze', 'replay', 'play', 'bots', 'new-bot', 'help'])), ...base.args];
    case 5: // what a shell makes of an unquoted variant id
      return rng.pick([
        ['tournament', '--games', 'subtractionmoves=1', 'subtraction5', 'subtraction8'],
        ['play', 'pilespiles=3', 'piles4', 'piles5'],
        ['analyze', 'no-repeatmoves=1', 'no-repeat2'],
        ['tournament', '--games=coinscoins=1', 'coins2', '--deals', '1'],
      ]);
    case 6: // a path no command can use, where a file is read or a folder made
      return rng.pick([
        () => ['tournament', rng.pick(HOSTILE.files)],
        () => ['tournament', 'tournaments/quick.json', '--out', rng.pick(HOSTILE.dirs)],
        () => ['tournament', '--resume', rng.pick(HOSTILE.results)],
        () => ['tournament', 'tournaments/quick.json', '--starts', rng.pick(HOSTILE.files), '--out', RESULTS],
        () => ['tournament', 'tournaments/quick.json', '--ratings-in', rng.pick(HOSTILE.files.filter((f) => !f.includes('missing'))), '--out', RESULTS],
        () => ['report', rng.pick(HOSTILE.results)],
        () => ['replay', rng.pick(HOSTILE.results)],
        () => ['new-bot', 'fuzzed', '--dir', rng.pick(HOSTILE.dirs)],
        () => ['new-game', 'fuzzed', '--dir', rng.pick(HOSTILE.dirs)],
        () => ['bots', '--bots-dir', rng.pick(HOSTILE.files.filter((f) => f !== HOSTILE.folder))],
      ])();
    default: {
      // junk flags: dashes, equals signs, unknown single letters
      const junk = rng.pick(['---', '--=', '-=', '---x', '-q', '-Z', '--😀', '-x=1', '--no-such', '-zz']);
      return [...base.path, ...base.args, junk];
    }
  }
}

describe('CLI fuzz (seeded)', () => {
  it(`${CALLS} malformed calls: each exit 2, one line on stderr, no stack trace, nothing written`, async () => {
    const rng = createRng(SEED);
    const failures: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      const argv = malformed(rng);
      let result: { code: number; out: string; err: string };
      try {
        result = await run(...argv);
      } catch (err) {
        failures.push(`${JSON.stringify(argv)} threw ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        continue;
      }
      const lines = result.err.trimEnd().split('\n');
      if (result.code !== 2 || result.out !== '' || lines.length !== 1 || !lines[0]!.startsWith('arena: ') || /\bat .*:\d+:\d+/.test(result.err)) {
        failures.push(`${JSON.stringify(argv)} → exit ${result.code}, stderr ${JSON.stringify(result.err)}, stdout ${JSON.stringify(result.out.slice(0, 200))}`);
      }
    }
    expect(failures).toEqual([]);
    expect(readdirSync(NEW_BOTS)).toEqual([]);
    expect(readdirSync(RESULTS)).toEqual([]);
  });
});
