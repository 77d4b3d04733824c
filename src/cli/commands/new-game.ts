import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { UsageError, show } from '../../core/errors.ts';
import { allFamilies } from '../../games/index.ts';
import { BUILTIN_GAMES_DIR } from '../../hosting/index.ts';
import { RUN, type WithRun } from '../io.ts';
import { cliName } from '../invocation.ts';
import { fsErrorText, makeDirs } from '../../platform/files.ts';

type Args = WithRun<{ name: string; dir?: string }>;

/** A working game (Kayles) whose every `my-game` is replaced by the new name; typechecked with the project. */
const TEMPLATE = new URL('../templates/game.ts', import.meta.url);

/** The source of a new game: the commented template in `src/cli/templates/game.ts`, renamed. */
export function gameTemplate(name: string): string {
  return readFileSync(TEMPLATE, 'utf8').replaceAll('my-game', name);
}

/** `arena new-game <name> [--dir D]`: writes a game file from the commented template; never overwrites. */
export const newGameCommand: CommandModule<object, Args> = {
  command: 'new-game <name>',
  describe: 'Write games/<name>.ts from a commented template (Kayles) that passes `arena games check`',
  builder: (y: Argv) =>
    y
      .positional('name', { type: 'string', describe: 'the game family name: letters, digits, - and _' })
      .option('dir', { type: 'string', describe: 'folder to write to (default: the games/ folder)' }) as unknown as Argv<Args>,
  handler(args) {
    const name = String(args.name);
    if (!/^[A-Za-z][\w-]{0,63}$/.test(name)) {
      throw new UsageError(`Expected the game name to be 1 to 64 letters, digits, - or _, starting with a letter, got ${show(name)}`);
    }
    // The games of games/ and --games-dir were loaded before the command ran (main.ts).
    if (allFamilies().some((f) => f.id === name)) throw new UsageError(`A game family named \`${name}\` already exists; pick another name`);
    const dir = resolve(args.dir ?? BUILTIN_GAMES_DIR);
    const file = join(dir, `${name}.ts`);
    if (existsSync(file)) throw new UsageError(`${file} already exists; pick another name or edit that file`);
    try {
      makeDirs(dir);
      writeFileSync(file, gameTemplate(name), { flag: 'wx' });
    } catch (err) {
      throw new UsageError(`Cannot write ${file}: ${fsErrorText(err)}`);
    }
    const extra = args.dir === undefined ? '' : ` --games-dir ${dir}`;
    args[RUN].io.out(`wrote ${file}\ncheck it:  ${cliName()} games check ${file}\nplay it:   ${cliName()} play ${name}${extra}`);
  },
};
