import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
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
 * `arena` with no command in a terminal: the home menu. It returns what to run next, then runs it
 * with `run` (the CLI's own `runCli` on `io`, passed in to keep this module free of main.ts) and
 * resolves to that exit code; 0 when the user quits. Call it only when `io.isTTY`; without a
 * terminal the CLI prints its help instead.
 */
export async function runHomeMenu(run: (argv: readonly string[]) => Promise<number>, io: CliIo): Promise<number> {
  if (!io.isTTY) throw new Error('runHomeMenu needs a terminal; print the help instead');
  const { render, createElement, screen, HomeApp } = await loadInk();
  for (;;) {
    let next: readonly string[] | null = null;
    const app = render(screen(createElement(HomeApp, { specs: tournamentSpecs(), families: allFamilies(), onChoose: (argv) => void (next = argv) })));
    await app.waitUntilExit();
    const argv = next as readonly string[] | null;
    if (!argv) return keyStdin()?.interrupted ? EXIT_INTERRUPTED : 0;
    // Listing the bots is a look, not a job: the menu comes back below the list.
    if (!RETURNS_TO_MENU.has(argv.join(' '))) return run(argv);
    const code = await run(argv);
    if (code !== 0) return code;
    io.out('');
  }
}

/** Home menu choices after which the menu opens again. */
const RETURNS_TO_MENU = new Set(['bots']);
