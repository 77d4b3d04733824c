import type { Argv, CommandModule } from 'yargs';
import { UsageError, show } from '../../core/errors.ts';
import { createRng } from '../../core/rng.ts';
import type { Tabulation } from '../../core/game.ts';
import { analyzePosition } from '../../games/analysis.ts';
import { getFamily, makeGame } from '../../games/index.ts';
import { io } from '../io.ts';

type Args = { family: string; upto?: string; seed: string; json: boolean; [param: string]: unknown };

/** Options of `analyze` itself; every other `--flag` is a parameter of the family. */
const OWN = new Set(['_', '$0', 'family', 'upto', 'seed', 'json', 'help', 'h']);

const OUTCOME_TEXT: Record<string, string> = {
  P: 'P — the player to move loses',
  N: 'N — the player to move wins',
  L: 'L — Left wins whoever moves first',
  R: 'R — Right wins whoever moves first',
  D: 'D — a draw with best play',
};

function nonNegativeInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(String(text).trim())) throw new UsageError(`Expected \`--${name}\` to be a non-negative integer, got ${show(text)}`);
  return Number(text);
}

/** Wraps a list of numbers to lines of at most `width` characters. */
function wrap(numbers: readonly number[], width = 78): string {
  const lines: string[] = [];
  let line = '';
  for (const n of numbers) {
    const word = String(n);
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `  ${l}`).join('\n');
}

/** `arena analyze <family> [--<param> value …] [--upto N] [--json]`: exact analysis a student would do by hand. */
export const analyzeCommand: CommandModule<object, Args> = {
  command: 'analyze <family>',
  describe: 'Exact analysis: P-positions / classes / nim-values up to N, or one position with its best move',
  builder: (y: Argv) =>
    y
      .positional('family', { type: 'string', describe: 'game family (see `arena games`)' })
      .option('upto', { type: 'string', describe: 'tabulate start positions 0..N' })
      .option('seed', { type: 'string', default: '0', describe: 'seed for a dealt position (when a parameter is a range)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document' })
      .parserConfiguration({ 'camel-case-expansion': false, 'unknown-options-as-args': false })
      .strictOptions(false)
      .epilog(
        'Family parameters are given as flags, e.g. --moves 1,5,8,10 --n 1764; --piles 3,4,5; --coins 1,2,5; --row "-1 3 9 4".',
      ) as unknown as Argv<Args>,
  handler(args) {
    const family = getFamily(args.family);
    const raw: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(args)) {
      if (OWN.has(key)) continue;
      raw[key] = Array.isArray(value) ? value.join(',') : value;
    }
    const upto = nonNegativeInt('upto', args.upto);
    const seed = nonNegativeInt('seed', args.seed) ?? 0;
    const game = makeGame(family.id, raw);
    const doc: Record<string, unknown> = { family: family.id, variant: game.id, params: game.params };
    const text: string[] = [game.id];

    if (upto !== undefined) {
      if (!game.tabulate) throw new UsageError(`\`--upto\` is not available for ${family.id}; analyse one position instead`);
      const table: Tabulation = game.tabulate(upto);
      Object.assign(doc, table);
      if (table.pPositions) text.push(`P-positions up to ${upto} (${table.pPositions.length}):`, wrap(table.pPositions));
      if (table.classes) {
        for (const cls of ['P', 'N', 'L', 'R'] as const) {
          const list = table.classes[cls];
          text.push(`${cls} (${list.length}): ${list.length ? '' : '—'}`);
          if (list.length) text.push(wrap(list));
        }
      }
      if (table.nimValues) text.push(`nim-values of one pile 0..${upto}:`, wrap(table.nimValues));
    } else {
      const state = game.deal(createRng(seed));
      const verdict = analyzePosition(game, state);
      doc.position = {
        description: game.describe(state),
        state: game.toJSON(state),
        outcome: verdict.outcome,
        bestMove: verdict.bestMove,
        ...(verdict.value !== undefined ? { value: verdict.value } : {}),
        bestMoves: verdict.bestMoves,
      };
      text.push(
        `position:   ${game.describe(state)}`,
        `outcome:    ${OUTCOME_TEXT[verdict.outcome] ?? verdict.outcome}`,
        ...(verdict.value !== undefined ? [`value:      ${verdict.value > 0 ? '+' : ''}${verdict.value} (final margin for the player to move)`] : []),
        `best move:  ${verdict.bestMove ?? '— (the game is over)'}`,
      );
      if (verdict.bestMoves.length > 1) text.push(`also best:  ${verdict.bestMoves.filter((m) => m !== verdict.bestMove).join(' ')}`);
    }
    io().out(args.json ? JSON.stringify(doc, null, 2) : text.join('\n'));
  },
};
