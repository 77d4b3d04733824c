import type { Argv, CommandModule } from 'yargs';
import type { AnyBot } from '../../core/bot.ts';
import { formatParamValue, type ParamSpec } from '../../core/params.ts';
import { parseVariant } from '../../games/index.ts';
import { defaultVariantIds, discoverBots, supportedBy, type BotRegistry } from '../../hosting/index.ts';
import { RUN, type CliRun, type WithRun } from '../io.ts';
import { UsageError } from '../../core/errors.ts';
import { visible } from '../../core/text.ts';
import { sandboxCapsText, sandboxProblem } from '../../platform/sandbox.ts';
import { hanging } from '../../tui/text/wrap.ts';
import { botsCheckCommand } from './bots-check.ts';

type Args = WithRun<{ 'bots-dir': string[]; json: boolean; sandbox: boolean }>;

/** The families whose default variant a bot supports. */
function families(bot: AnyBot): string[] {
  return defaultVariantIds()
    .map((id) => parseVariant(id))
    .filter((g) => supportedBy(bot, g))
    .map((g) => g.family);
}

function optionList(bot: AnyBot): { name: string; description: string; expected: string; default?: string }[] {
  return Object.entries((bot.options ?? {}) as Record<string, ParamSpec<unknown>>).map(([name, p]) => ({
    name,
    description: p.description,
    expected: p.expected,
    ...(p.default !== undefined ? { default: formatParamValue(p.default) } : {}),
  }));
}

/**
 * The bots as text, wrapped to `width` between words with each continuation under its text
 * (Infinity: one line per item, for pipes). What came from a bot file (descriptions, option texts
 * and defaults, a program's command line, file names) is shown with its control characters made
 * visible (core/text.ts).
 */
export function botsText(registry: BotRegistry, width: number): string {
  const lines: string[] = [];
  for (const b of registry.bots) {
    lines.push(...hanging(`${b.name} — `, visible(b.description), width), ...hanging('  file:  ', visible(b.file), width));
    if (b.transport === 'process') lines.push(...hanging('  runs:  ', visible(`${b.command.join(' ')}  (in ${b.cwd}; JSON-lines protocol, docs/PROTOCOL.md)`), width));
    const options = optionList(b.bot);
    const pad = Math.max(0, ...options.map((o) => o.name.length));
    for (const o of options) {
      lines.push(...hanging(`  :${`${o.name}=`.padEnd(pad + 1)}  `, visible(`${o.description}: ${o.expected}${o.default !== undefined ? ` (default ${o.default})` : ''}`), width));
    }
    lines.push(...hanging('  plays: ', families(b.bot).join(', ') || '(none of the registered families)', width), '');
  }
  lines.push(...hanging('', 'Choose a bot with options as name:key=value,key=value, e.g. minimax:depth=8 or hybrid:threshold=14.', width));
  return lines.join('\n');
}

/** Prints one line per file discovery skipped; they make the command exit 2. */
export function reportProblems(registry: BotRegistry, run: CliRun): void {
  for (const p of registry.problems) run.io.err(visible(`arena: skipped ${p.file}: ${p.reason}`));
  if (registry.problems.length > 0) run.exitCode = 2;
}

/** `arena bots [--bots-dir D…] [--json]`: the bots found, their options and the families they play. */
export const botsCommand: CommandModule<object, Args> = {
  command: 'bots',
  describe: 'List the bots in bots/ (and --bots-dir folders): modules and .bot.json external programs, options, families',
  builder: (y: Argv) =>
    y
      .command(botsCheckCommand as never)
      .option('bots-dir', { type: 'string', array: true, default: [], describe: 'another folder of bot files (repeatable)' })
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' })
      .option('sandbox', { type: 'boolean', default: false, describe: 'read the bot files inside bubblewrap too (for bots written by others), and say which caps a sandboxed bot gets here' }) as unknown as Argv<Args>,
  async handler(args) {
    const out = args[RUN].io;
    if (args.sandbox) {
      const problem = sandboxProblem();
      if (problem) throw new UsageError(`Cannot read the bots in a sandbox: ${problem}`);
    }
    const registry = await discoverBots(args['bots-dir'], { sandbox: args.sandbox });
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
        ...(args.sandbox ? { sandbox: { caps: sandboxCapsText() } } : {}),
      };
      out.out(JSON.stringify(doc, null, 2));
    } else {
      const width = out.isTTY ? (out.columns || 80) - 1 : Infinity;
      out.out(botsText(registry, width));
      // Which caps a sandboxed bot gets on this machine (rlimits; why not cgroups).
      if (args.sandbox) out.out(hanging('Sandbox: ', `read in bubblewrap; ${sandboxCapsText()}.`, width).join('\n'));
    }
    reportProblems(registry, args[RUN]);
  },
};
