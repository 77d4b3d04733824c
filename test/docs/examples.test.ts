/**
 * The documents a user reads say what runs. Every `arena …` (or `npx arena …`) line of a fenced
 * `sh` or `console` block in README.md and docs/*.md runs through the real CLI and ends with exit
 * code 0, or with the code its comment names (`# … (exit 2)`). Placeholders (`<results dir>`) get a
 * real value, long examples run in a reduced form chosen below, and interactive commands run
 * without a terminal, where they judge every argument and then say that they need one. Besides:
 * every page of docs/ is linked from the README, every link between the pages lands on a file and a
 * heading, and docs/CLI.md lists every flag of every command.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.ts';
import { HAVE_REDIS, TestRedis } from '../arena/redis-server.ts';
import { run } from '../cli/run.ts';
import { arena, ROOT } from '../cli/spawn.ts';

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** A command line of the docs, as written. */
interface Example {
  /** `file:line` of its first line. */
  readonly where: string;
  /** The words after `arena`, placeholders such as `<results dir>` kept whole. */
  readonly words: readonly string[];
  /** The exit code its comment names, else 0. */
  readonly exit: number;
}

/** A line that runs the arena: `arena` or `npx arena`, then a command or a flag (not `arena → bot`). */
const COMMAND_LINE = /^(?:npx )?arena(?=\s+[-a-z]|\s*$)/;

/**
 * Splits a command line as a POSIX shell does for the plain commands the docs hold: single and
 * double quotes, backslash escapes, a `#` word starts the comment. A placeholder `<…>` stays one
 * word. Anything a shell would expand or redirect is refused: an example must be a plain command.
 */
function shellWords(line: string): { words: string[]; comment: string } {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#' && word === null) {
      return { words, comment: line.slice(i + 1) };
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed ${c} in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '<' && word === null) {
      const end = line.indexOf('>', i);
      word = line.slice(i, end + 1);
      i = end;
    } else if ('$`|;&<>()*?~\\'.includes(c)) {
      throw new Error(`not a plain command (${c}): ${line}`);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return { words, comment: '' };
}

/** The examples of one page, and the command lines it has outside `sh`/`console` blocks (there they would not be run). */
function examplesOf(page: string): { examples: Example[]; elsewhere: string[] } {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const examples: Example[] = [];
  const elsewhere: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const marker = /^```(\S*)$/.exec(line);
    if (marker) {
      fence = fence === null ? marker[1]! : null;
      continue;
    }
    if (fence === null || !COMMAND_LINE.test(line)) continue;
    const where = `${page}:${i + 1}`;
    if (fence !== 'sh' && fence !== 'console') {
      elsewhere.push(where);
      continue;
    }
    let text = line;
    while (text.endsWith('\\')) text = `${text.slice(0, -1)} ${lines[++i]!.trim()}`;
    const { words, comment } = shellWords(text.replace(COMMAND_LINE, ''));
    examples.push({ where, words, exit: Number(/\bexit (\d+)\b/.exec(comment)?.[1] ?? 0) });
  }
  return { examples, elsewhere };
}

const PER_PAGE = PAGES.map(examplesOf);
const ALL = PER_PAGE.flatMap((p) => p.examples);

/**
 * Examples not run, each with the reason and the test that runs it for real. They are still
 * checked to parse (their flags exist).
 */
const NOT_RUN: Readonly<Record<string, string>> = {
  'analyze coins --board square --build-table': 'an 8 GiB table and minutes of CPU; test/cli/analyze-coins-table.test.ts builds the tables of smaller boards',
  'analyze coins --board triangle --rows 8 --build-table': 'an 8 GiB table, as above',
  'tournament tournaments/quick.json --isolation sandbox --bots all --bots-dir test/fixtures/attackers': 'attacker bots; test/hosting/sandbox-attacks.test.ts runs them in bubblewrap',
  'tournament tournaments/classic.json --queue redis://127.0.0.1:6379': 'a coordinator waits for `arena worker` processes; test/arena/queue/queue.test.ts runs both',
  'worker --queue redis://127.0.0.1:6379 --concurrency 4': 'runs until Ctrl-C; test/arena/queue/queue.test.ts runs workers',
  'queue credential --name alice --queue-key-file key': "needs the tournaments' key file; test/arena/queue/trust.test.ts makes workers' credentials from one",
  'worker --queue redis://… --queue-key-file alice.cred --isolation sandbox': 'runs until Ctrl-C with a credential; test/arena/queue/trust.test.ts runs workers with theirs',
};

/** What the examples need that the docs leave to the reader. */
interface Fixture {
  /** The test's own folder: results, stores, tables, reports go here, never into the project or the user's cache. */
  readonly dir: string;
  /** A finished results folder (of tournaments/quick.json). */
  readonly results: string;
  /** The folder `arena new-bot mybot` wrote `mybot.ts` to. */
  readonly bots: string;
  /** The folder `arena new-game mygame` wrote `mygame.ts` to. */
  readonly games: string;
  /** The C example, built with its Makefile (null without a C compiler). */
  readonly cBot: string | null;
  /** A private redis-server's URL (null without one). */
  readonly redis: string | null;
}

/** The values of the docs' placeholders. */
function placeholder(word: string, f: Fixture): string {
  const values: Record<string, string> = {
    '<results dir>': f.results,
    '<bot file>': join(f.bots, 'mybot.ts'),
    '<your bots folder>': f.bots,
    '<game file>': join(f.games, 'mygame.ts'),
    '<your games folder>': f.games,
  };
  const value = values[word];
  if (value === undefined) throw new Error(`the docs' placeholder ${word} has no value in this test`);
  return value;
}

/** A flag's value in a word list, if given. */
const flag = (words: readonly string[], name: string): string | undefined => {
  const i = words.indexOf(name);
  return i < 0 ? undefined : words[i + 1];
};

/** Whether the example plays `mybot`, the bot `arena new-bot mybot` wrote outside the project. */
const playsMybot = (words: readonly string[]): boolean => words.some((w) => w.split(/[,:]/).includes('mybot') || w === '<bot file>');

/** How one example runs: its arguments after the reductions, and whether it needs the real bin. */
function planOf(ex: Example, f: Fixture): { argv: string[]; bin: boolean } {
  let argv = ex.words.map((w) => (w.startsWith('<') ? placeholder(w, f) : w));
  const [command] = argv;
  const fresh = (name: string): string => mkdtempSync(join(f.dir, `${name}-`));
  if (argv.includes('--help') || argv.includes('--version')) return { argv, bin: false };
  // The examples' own folders and servers, swapped for the test's.
  if (f.cBot) argv = argv.map((w) => (w === 'examples/c-bot' ? f.cBot! : w));
  if (f.redis) argv = argv.map((w) => w.replace('redis://127.0.0.1:6379', f.redis!));
  if (command === 'new-bot') argv.push('--dir', fresh('new-bot'));
  if (command === 'new-game') argv.push('--dir', fresh('new-game'));
  if (command === 'report' && flag(argv, '--out') !== undefined) argv[argv.indexOf('--out') + 1] = join(fresh('report'), 'report.html');
  if (command === 'starts' && flag(argv, '--out') !== undefined) argv[argv.indexOf('--out') + 1] = join(fresh('starts'), 'suite.txt');
  if (command === 'analyze' && argv.includes('--build-table')) argv.push('--table-dir', fresh('tables'));
  // Reductions, chosen here: each example runs, not its measurement.
  if (command === 'analyze') {
    argv = argv.map((w) => (w === '2^26' ? '2^20' : w)); // the cold-position count at 2^26 takes seconds
    if (argv[1] === 'grundy' && argv.includes('--period')) argv.push('--period-limit', '2^14'); // no period exists: the search runs to its limit (2^24 heaps)
  }
  if ((command === 'tournament' || command === 'match') && !argv.includes('--resume')) {
    // A spec file's first variant only (unless the example names the games), one deal per pairing
    // and variant (a spec's and match's defaults included), bots in-process unless the example
    // picks an isolation (isolation never changes a move: TOURNAMENTS.md "Schedule and
    // determinism"), results and stores in the test's folder.
    const spec = argv[1]?.endsWith('.json') ? (JSON.parse(readFileSync(join(ROOT, argv[1]), 'utf8')) as { games: unknown[] }) : undefined;
    if (spec && typeof spec.games[0] === 'string' && !argv.includes('--games')) argv.push('--games', spec.games[0]);
    if (flag(argv, '--deals') === undefined) argv.push('--deals', '1');
    else argv[argv.indexOf('--deals') + 1] = '1';
    if (!argv.includes('--isolation')) argv.push('--isolation', 'none');
    argv.push('--out', fresh('results'), '--bot-data', fresh('bot-data'));
    // A ratings file goes to the test's folder: one the examples share, in the order they are written.
    for (const ratings of ['--ratings-in', '--ratings-out']) if (flag(argv, ratings) !== undefined) argv[argv.indexOf(ratings) + 1] = join(f.dir, basename(flag(argv, ratings)!));
  }
  // A bot in a folder of the user's own imports `take-arena` through the bin's resolution hook
  // (bin/arena.mjs): such examples run in the real bin, as the user runs them.
  // So does a game in a folder of the user's own, which the arena imports once its child has passed it.
  const bin = (command !== 'new-bot' && playsMybot(ex.words)) || ex.words.some((w) => w === '<game file>' || w === '<your games folder>');
  if (bin && argv.some((w) => w.split(/[,:]/).includes('mybot')) && !argv.includes('--bots-dir')) argv.push('--bots-dir', f.bots);
  return { argv, bin };
}

/** The flags a command declares, from its `--help` (the page yargs prints). */
async function declaredFlags(path: readonly string[]): Promise<Set<string>> {
  const help = await run(...path, '--help');
  expect(help.code, help.err).toBe(0);
  const flags = new Set<string>();
  for (const line of help.out.split('\n')) {
    const m = /^\s+(?:-(\w), )?(--[\w-]+|-\w)\s/.exec(line);
    if (m) for (const f of [m[1] && `-${m[1]}`, m[2]]) if (f) flags.add(f);
  }
  return flags;
}

/** The command path of an example (`bots check`, `queue`, `tournament`). */
const commandPath = (words: readonly string[]): string[] => ((words[0] === 'bots' || words[0] === 'games') && words[1] === 'check' ? words.slice(0, 2) : words.slice(0, 1));

/** Examples grouped by their words: the same line in two pages runs once. */
const UNIQUE = ((): Example[][] => {
  const groups = new Map<string, Example[]>();
  for (const e of ALL) {
    const key = e.words.join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups.values()];
})();

/** Whether a C compiler and make are here, for the C example (CI has them). */
const HAVE_CC = ['cc', 'make'].every((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0);

/**
 * Why an example is not run here, or null: the list above, or (outside CI, as the tests of those
 * examples do) a C compiler or a redis-server this machine lacks.
 */
function notRun(ex: Example): string | null {
  const listed = NOT_RUN[ex.words.join(' ')];
  if (listed !== undefined) return listed;
  if (process.env['CI']) return null;
  if (!HAVE_CC && ex.words.includes('examples/c-bot')) return 'no C compiler here';
  if (!HAVE_REDIS && ex.words.some((w) => w.includes('redis://'))) return 'no redis-server here';
  return null;
}

/** Test names: where the example is written (every page that has it), and its line. */
const named = (same: Example[]): string => `${same.map((e) => e.where).join(', ')}: arena ${same[0]!.words.join(' ')}`;
const RUN = UNIQUE.filter((same) => notRun(same[0]!) === null).map((same) => [named(same), same[0]!] as const);

const INTERACTIVE = new Set(['play', 'replay']);

describe('every command example in the docs', () => {
  let f: Fixture;
  let redis: TestRedis | null = null;
  const cpuLimit = process.env['TAKE_ARENA_DISCOVERY_CPU_SECONDS'];

  beforeAll(async () => {
    // A reduction: a bot file that loops at import (SECURITY.md's attackers) is stopped after 1 s of
    // CPU time rather than 5 (loading a sound bot takes a small part of either).
    process.env['TAKE_ARENA_DISCOVERY_CPU_SECONDS'] = '1';
    const dir = mkdtempSync(join(tmpdir(), 'arena-docs-'));
    const out = join(dir, 'fixture');
    const made = await run('tournament', 'tournaments/quick.json', '--isolation', 'none', '--out', out, '--bot-data', join(dir, 'fixture-data'));
    expect(made.code, made.err).toBe(0);
    const bots = join(dir, 'bots');
    const wrote = await run('new-bot', 'mybot', '--dir', bots);
    expect(wrote.code, wrote.err).toBe(0);
    const games = join(dir, 'games');
    const wroteGame = await run('new-game', 'mygame', '--dir', games);
    expect(wroteGame.code, wroteGame.err).toBe(0);
    let cBot: string | null = null;
    if (HAVE_CC) {
      // The C example as its Makefile builds it, in the test's folder (its own stays clean).
      cBot = join(dir, 'c-bot');
      cpSync(join(ROOT, 'examples', 'c-bot'), cBot, { recursive: true, filter: (src) => !src.endsWith('/c-bot/c-bot') });
      execFileSync('make', ['-C', cBot], { stdio: 'ignore' });
    }
    if (HAVE_REDIS) redis = await TestRedis.start();
    f = { dir, results: join(out, readdirSync(out)[0]!), bots, games, cBot, redis: redis?.url ?? null };
  });

  afterAll(async () => {
    if (cpuLimit === undefined) delete process.env['TAKE_ARENA_DISCOVERY_CPU_SECONDS'];
    else process.env['TAKE_ARENA_DISCOVERY_CPU_SECONDS'] = cpuLimit;
    await redis?.stop();
    if (f) rmSync(f.dir, { recursive: true, force: true });
  });

  it('are all in sh or console blocks, where this test finds them', () => {
    expect(PER_PAGE.flatMap((p) => p.elsewhere)).toEqual([]);
    expect(ALL.length).toBeGreaterThan(50);
  });

  it('not run are each an example of the docs (the list stays current)', () => {
    for (const key of Object.keys(NOT_RUN)) expect(ALL.some((e) => e.words.join(' ') === key), key).toBe(true);
  });

  it('use only flags their commands declare (those not run included)', async () => {
    const declared = new Map<string, Set<string>>();
    for (const ex of ALL) {
      const path = commandPath(ex.words);
      if (path[0]!.startsWith('-')) continue;
      const key = path.join(' ');
      if (!declared.has(key)) declared.set(key, await declaredFlags(path));
      // yargs reads a one-letter flag written long (`--n`) as its short form (`-n`).
      const used = ex.words.filter((w) => /^--?[a-z]/i.test(w)).map((w) => (/^--\w$/.test(w) ? w.slice(1) : w));
      expect(used.filter((w) => !declared.get(key)!.has(w)), `${ex.where}: ${ex.words.join(' ')}`).toEqual([]);
    }
  });

  it.each(RUN)(
    '%s',
    async (_name, ex) => {
      const { argv, bin } = planOf(ex, f);
      const r = bin ? await arena(argv) : await run(...argv);
      const said = `arena ${argv.join(' ')}\n${r.err}`;
      if (INTERACTIVE.has(ex.words[0]!) && !argv.includes('--help')) {
        // Every argument judged, then the one line an interactive command says without a terminal.
        expect(r.err, said).toBe(`arena ${ex.words[0]} is interactive and needs a terminal (stdin and stdout must be a TTY)\n`);
        expect(r.code).toBe(2);
      } else {
        expect(r.code, said).toBe(ex.exit);
      }
    },
    300_000,
  );

  it('not run each name the test that runs their like, or say why none can', () => {
    for (const [example, why] of Object.entries(NOT_RUN)) {
      for (const file of why.match(/test\/[\w/.-]+\.test\.tsx?/g) ?? []) expect(existsSync(join(ROOT, file)), `${example}: ${file}`).toBe(true);
    }
    expect(Object.values(NOT_RUN).filter((why) => !/test\/[\w/.-]+\.test\.tsx?|as above/.test(why))).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- ]/gu, '').replace(/ /g, '-');

const text = (page: string): string => readFileSync(join(ROOT, page), 'utf8');
/** The anchors of a page's headings (a `#` line inside a code block is a comment, not a heading). */
const anchors = (page: string): Set<string> =>
  new Set([...text(page).replace(/^\s*```[\s\S]*?^\s*```/gm, '').matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]!)));

describe('the pages', () => {
  it('are each linked from the README', () => {
    const readme = text('README.md');
    expect(PAGES.filter((p) => p !== 'README.md' && !readme.includes(`](${p})`) && !readme.includes(`](${p}#`))).toEqual([]);
  });

  it('link to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const dir = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : '';
      for (const [, target] of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // https://…
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const to = file === '' ? page : normalize(`${dir}${file}`);
        if (!existsSync(join(ROOT, to)) || (anchor !== undefined && to.endsWith('.md') && !anchors(to).has(anchor))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('CLI.md lists every flag of every command', async () => {
    const cli = text('docs/CLI.md');
    const sections = new Map([...cli.matchAll(/^## `arena ([a-z -]+?)(?: [<[].*)?`$([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map((m) => [m[1]!, m[2]!]));
    const paths = [...COMMANDS.map((c) => [c.command.split(' ')[0]!]), ['bots', 'check'], ['games', 'check']];
    const global = new Set(['--theme', '--games-dir', '--help', '-h', '--version', '-v']);
    for (const g of global) expect(cli).toContain(`\`${g}`);
    for (const path of paths) {
      const section = sections.get(path.join(' '));
      expect(section, `a section "## \`arena ${path.join(' ')} …\`" in CLI.md`).toBeDefined();
      const missing = [...(await declaredFlags(path))].filter((fl) => !global.has(fl) && !new RegExp(`\`${fl}(?![\\w-])`).test(section!));
      expect(missing, `arena ${path.join(' ')}`).toEqual([]);
    }
  });
});
