import type { Argv, CommandModule } from 'yargs';
import type { AnyBot } from '../../core/bot.ts';
import { formatParamValue, type ParamSpec } from '../../core/params.ts';
import { FAMILIES, makeGame } from '../../games/index.ts';
import { discoverBots, supportedBy, type BotRegistry } from '../../hosting/index.ts';
import { io } from '../io.ts';
import { botsCheckCommand } from './bots-check.ts';

type Args = { 'bots-dir': string[]; json: boolean };

/** The families whose default variant a bot supports. */
function families(bot: AnyBot): string[] {
  return FAMILIES.filter((f) => supportedBy(bot, makeGame(f.id, {}))).map((f) => f.id);
}

function optionList(bot: AnyBot): { name: string; description: string; expected: string; default?: string }[] {
  return Object.entries((bot.options ?? {}) as Record<string, ParamSpec<unknown>>).map(([name, p]) => ({
    name,
    description: p.description,
    expected: p.expected,
    ...(p.default !== undefined ? { default: formatParamValue(p.default) } : {}),
  }));
}

/** Prints one line per file discovery skipped; they make the command exit 2. */
export function reportProblems(registry: BotRegistry): void {
  for (const p of registry.problems) io().err(`arena: skipped ${p.file}: ${p.reason}`);
  if (registry.problems.length > 0) process.exitCode = 2;
}

/** `arena bots [--bots-dir D…] [--json]`: the bots found, their options and the families they play. */
export const botsCommand: CommandModule<object, Args> = {
  command: 'bots',
  describe: 'List the bots in bots/ (and --bots-dir folders): modules and .bot.json external programs, options, families',
  builder: (y: Argv) =>
    y
      .command(botsCheckCommand as never)
      .option('bots-dir', { type: 'string', array: true, default: [], describe: 'another folder of bot files (repeatable)' })
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' }) as unknown as Argv<Args>,
  async handler(args) {
    const registry = await discoverBots(args['bots-dir']);
    if (args.json) {
      const doc = {
        bots: registry.bots.map((b) => ({
          name: b.name,
          description: b.description,
          file: b.file,
          transport: b.transport ?? 'module',
          ...(b.transport === 'process' ? { command: b.command, cwd: b.cwd } : {}),
          options: optionList(b.bot),
          families: families(b.bot),
        })),
        problems: registry.problems,
      };
      io().out(JSON.stringify(doc, null, 2));
    } else {
      const lines: string[] = [];
      for (const b of registry.bots) {
        lines.push(`${b.name} — ${b.description}`, `  file:  ${b.file}`);
        if (b.transport === 'process') lines.push(`  runs:  ${b.command.join(' ')}  (in ${b.cwd}; JSON-lines protocol, docs/PROTOCOL.md)`);
        for (const o of optionList(b.bot)) {
          lines.push(`  :${o.name}=  ${o.description}: ${o.expected}${o.default !== undefined ? ` (default ${o.default})` : ''}`);
        }
        lines.push(`  plays: ${families(b.bot).join(', ') || '(none of the registered families)'}`, '');
      }
      lines.push('Choose a bot with options as name:key=value,key=value, e.g. minimax:depth=8 or hybrid:threshold=14.');
      io().out(lines.join('\n'));
    }
    reportProblems(registry);
  },
};
