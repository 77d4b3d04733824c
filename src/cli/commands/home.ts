import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../../platform/paths.ts';
import { rulesSections, type RulesSection } from '../../tui/home/rules.ts';
import { allFamilies } from '../../games/index.ts';
import { EXIT_INTERRUPTED, type CliIo } from '../io.ts';
import { keyStdin } from '../../tui/ui/key-stdin.ts';
import { loadInk } from '../load-ink.ts';

/** Tournament spec files in `<cwd>/tournaments/` (not the JSON Schema), as paths relative to cwd. */
export function tournamentSpecs(cwd: string = process.cwd()): string[] {
  const dir = join(cwd, 'tournaments');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'schema.json')
    .sort()
    .map((f) => relative(cwd, join(dir, f)));
}

/**
 * Results folders under `<cwd>/tournaments/results/` that hold a games log, newest first, as paths
 * relative to cwd (the specs' default `out`).
 */
export function resultsFolders(cwd: string = process.cwd()): string[] {
  const root = join(cwd, 'tournaments', 'results');
  if (!existsSync(root)) return [];
  const found: { dir: string; at: number }[] = [];
  for (const name of readdirSync(root)) {
    const log = join(root, name, 'games.jsonl');
    // A folder without a log (a run that never started) or unreadable is no choice here.
    if (!existsSync(log)) continue;
    found.push({ dir: relative(cwd, join(root, name)), at: statSync(log).mtimeMs });
  }
  return found.sort((a, b) => b.at - a.at || a.dir.localeCompare(b.dir)).map((f) => f.dir);
}

/** The rulebook shipped with the arena (docs/GAMES.md) in parts; none when the file is not there. */
export function rulebook(file: string = join(PACKAGE_ROOT, 'docs', 'GAMES.md')): RulesSection[] {
  return existsSync(file) ? rulesSections(readFileSync(file, 'utf8')) : [];
}

/**
 * `arena` with no command in a terminal: the home menu. It returns what to run next, then runs it
 * with `run` (the CLI's own `runCli` on `io`, passed in to keep this module free of main.ts) and
 * comes back once it ends (a tournament, an analysis, a replay, a report, the list of bots; a
 * mistyped command too, its one-line error left above the menu). It resolves to 0 when the user
 * quits, or to the exit code of a command that ended otherwise (interrupted, failed, or a game played).
 * Call it only when `io.isTTY`; without a terminal the CLI prints its help instead.
 */
export async function runHomeMenu(run: (argv: readonly string[]) => Promise<number>, io: CliIo): Promise<number> {
  if (!io.isTTY) throw new Error('runHomeMenu needs a terminal; print the help instead');
  const { render, createElement, screen, HomeApp } = await loadInk();
  for (;;) {
    let next: readonly string[] | null = null;
    const app = render(
      screen(createElement(HomeApp, { specs: tournamentSpecs(), families: allFamilies(), results: resultsFolders(), rules: rulebook(), onChoose: (argv) => void (next = argv) })),
    );
    await app.waitUntilExit();
    const argv = next as readonly string[] | null;
    if (!argv) return keyStdin()?.interrupted ? EXIT_INTERRUPTED : 0;
    const code = await run(argv);
    if (!menuComesBack(argv, code)) return code;
    io.out('');
  }
}

/** Home menu choices after which the menu opens again (playing a bot has its own `a`gain and quits). */
const RETURNS_TO_MENU = new Set(['tournament', 'analyze', 'replay', 'report', 'bots']);
/** The exit code of bad input (main.ts's EXIT_USAGE: importing it from there would make a circle). */
const EXIT_USAGE = 2;

/**
 * Whether the home menu opens again after the command `argv` chosen from it ended with `code`: after
 * a tournament, an analysis, a replay, a report or the list of bots that ended well, or that refused
 * what was typed (its one-line error stays above the menu); not after playing a bot, an interrupt
 * (the resume line is the last word) or a failure.
 */
export function menuComesBack(argv: readonly string[], code: number): boolean {
  return RETURNS_TO_MENU.has(argv[0] ?? '') && (code === 0 || code === EXIT_USAGE);
}
