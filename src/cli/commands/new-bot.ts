import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { UsageError, show } from '../../core/errors.ts';
import { BUILTIN_BOTS_DIR, discoverBots } from '../../hosting/index.ts';
import { RUN, type WithRun } from '../io.ts';
import { cliName } from '../invocation.ts';
import { fsErrorText, makeDirs } from '../../platform/files.ts';

type Args = WithRun<{ name: string; dir?: string }>;

/** A working bot whose every `my-bot` is replaced by the new name; typechecked with the project. */
const TEMPLATE = new URL('../templates/bot.ts', import.meta.url);

/** The source of a new bot: the commented template in `src/cli/templates/bot.ts`, renamed. */
export function botTemplate(name: string): string {
  return readFileSync(TEMPLATE, 'utf8').replaceAll('my-bot', name);
}

/** `arena new-bot <name> [--dir D]`: writes a bot file from the commented template; never overwrites. */
export const newBotCommand: CommandModule<object, Args> = {
  command: 'new-bot <name>',
  describe: 'Write bots/<name>.ts from a commented template that passes `arena bots check`',
  builder: (y: Argv) =>
    y
      .positional('name', { type: 'string', describe: 'the bot name: letters, digits, - and _' })
      .option('dir', { type: 'string', describe: 'folder to write to (default: the bots/ folder)' }) as unknown as Argv<Args>,
  async handler(args) {
    const name = String(args.name);
    if (!/^[A-Za-z][\w-]{0,63}$/.test(name)) {
      throw new UsageError(`Expected the bot name to be 1 to 64 letters, digits, - or _, starting with a letter, got ${show(name)}`);
    }
    const dir = resolve(args.dir ?? BUILTIN_BOTS_DIR);
    const file = join(dir, `${name}.ts`);
    if (existsSync(file)) throw new UsageError(`${file} already exists; pick another name or edit that file`);
    // A folder that does not exist yet is made below; only an existing one can hold a namesake.
    const registry = await discoverBots(args.dir === undefined || !existsSync(dir) ? [] : [dir]);
    const twin = registry.bots.find((b) => b.name === name);
    if (twin) throw new UsageError(`A bot named \`${name}\` already exists in ${twin.file}; pick another name`);
    try {
      makeDirs(dir);
      writeFileSync(file, botTemplate(name), { flag: 'wx' });
    } catch (err) {
      throw new UsageError(`Cannot write ${file}: ${fsErrorText(err)}`);
    }
    args[RUN].io.out(`wrote ${file}\ncheck it:  ${cliName()} bots check ${name}${args.dir === undefined ? '' : ` --bots-dir ${dir}`}`);
  },
};
