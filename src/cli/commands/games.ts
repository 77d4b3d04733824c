import type { Argv, CommandModule } from 'yargs';
import { allFamilies, brokenGames, userFamilies } from '../../games/index.ts';
import { gamesCheckCommand } from './games-check.ts';
import { formatParamValue } from '../../core/params.ts';
import { RUN, type WithRun } from '../io.ts';

type Args = WithRun<{ json: boolean }>;

/** The file a user's game family came from (undefined for a built-in one). */
const fileOf = (id: string): string | undefined => userFamilies().find((e) => e.family.id === id)?.file;

/** `arena games`: the families, their parameters with defaults, and move notation. */
export const gamesCommand: CommandModule<object, Args> = {
  command: 'games',
  describe: 'List the game families, their parameters, defaults and move notation',
  builder: (y: Argv) => y.command(gamesCheckCommand as never).option('json', { type: 'boolean', default: false, describe: 'print JSON' }) as Argv<Args>,
  handler(args) {
    const { io } = args[RUN];
    if (args.json) {
      const doc = allFamilies().map((f) => ({
        id: f.id,
        ...(fileOf(f.id) ? { file: fileOf(f.id) } : {}),
        title: f.title,
        summary: f.summary,
        notation: f.notation,
        params: Object.entries(f.params).map(([name, p]) => ({
          name,
          description: p.description,
          expected: p.expected,
          ...(p.default !== undefined ? { default: formatParamValue(p.default) } : {}),
          ...(p.choices ? { choices: p.choices } : {}),
        })),
      }));
      io.out(JSON.stringify(doc, null, 2));
      return;
    }
    const lines: string[] = [];
    for (const f of allFamilies()) {
      const file = fileOf(f.id);
      lines.push(`${f.id} — ${f.title}${file ? ` (${file})` : ''}`, `  ${f.summary}`, `  moves: ${f.notation}`);
      const entries = Object.entries(f.params);
      const width = Math.max(...entries.map(([n]) => n.length));
      for (const [name, p] of entries) {
        const def = p.default !== undefined ? ` (default ${formatParamValue(p.default)})` : p.optional ? ' (optional)' : '';
        lines.push(`  --${name.padEnd(width)}  ${p.description}: ${p.expected}${def}`);
      }
      lines.push('');
    }
    for (const { file, reason } of brokenGames()) lines.push(`not loaded: ${file} ${reason}`, '');
    lines.push('A variant is written family{param=value;…}, e.g. "subtraction{moves=1,5,8,10;n=50..200}" (quote it in a shell).');
    io.out(lines.join('\n'));
  },
};
