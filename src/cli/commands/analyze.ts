import { explainPosition } from '../../games/explain.ts';
import type { Argv, CommandModule } from 'yargs';
import { UsageError, show } from '../../core/errors.ts';
import { createRng } from '../../core/rng.ts';
import type { Tabulation } from '../../core/game.ts';
import { analyzePosition, findPeriod, isOptimalMove, outcomeClasses, tabulate } from '../../games/analysis.ts';
import { FAMILIES, getFamily, makeGame } from '../../games/index.ts';
import { nimValueCurve, outcomeStrip } from '../../tui/charts/analysis-plots.ts';
import { io } from '../io.ts';
import { buildCoinTable } from '../coin-table.ts';
import { coldCountReport, parseColdBound } from './analyze-squares.ts';

type Args = { family: string; upto?: string; seed: string; move?: string; json: boolean; period: boolean; explain?: boolean; [param: string]: unknown };

/** Each family parameter's name with the families that take it (they are `analyze`'s flags too). */
function familyParams(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const f of FAMILIES) for (const name of Object.keys(f.params)) byName.set(name, [...(byName.get(name) ?? []), f.id]);
  return byName;
}

/** JSON has no big integers: bigints (piles above 2^53 − 1) are written as exact decimal strings. */
const bigintAsString = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? String(v) : v);

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
  builder: (y: Argv) => {
    // Every family's parameters are declared (as strings), so strict parsing knows them; the handler
    // then accepts only the chosen family's.
    for (const [name, families] of familyParams()) {
      y.option(name, { type: 'string', group: 'Family parameters:', describe: `parameter of ${families.join(', ')} (see \`arena games\`)` });
    }
    return y
      .positional('family', { type: 'string', describe: 'game family (see `arena games`)' })
      .option('upto', { type: 'string', describe: 'tabulate start positions 0..N' })
      .option('seed', { type: 'string', default: '0', describe: 'seed for a dealt position (when a parameter is a range)' })
      .option('move', { type: 'string', describe: 'judge this move in the position (GAMES.md notation)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document' })
      .option('explain', { type: 'boolean', describe: 'one position: why it is won or lost, in the family’s own terms (what `e` shows in arena play)' })
      .option('build-table', { type: 'boolean', describe: 'coins: build the win/lose table of every subset of the board (docs/COINS.md)' })
      .option('table-dir', { type: 'string', describe: 'coins: folder of the board tables (default ~/.cache/take-arena)' })
      .option('workers', { type: 'string', describe: 'coins --build-table: worker threads (default 2)' })
      .option('count-cold', { type: 'string', describe: 'piles --rule squares: count the cold positions up to N (N ≤ 2^30), beside Eppstein\'s fit' })
      .option('plot', { type: 'boolean', describe: 'with --upto: the outcome of each start pile as a strip, or the nim-value curve; with --count-cold: a log–log chart of c_n' })
      .option('period', {
        type: 'boolean',
        default: false,
        describe: 'print the pre-period and period of the outcome (or nim-value) sequence over piles',
      })
      // Parameters stay strings so that piles above 2^53 (e.g. --n 1000000000000000001) keep every digit.
      .parserConfiguration({ 'camel-case-expansion': false, 'parse-numbers': false })
      .epilog(
        'Family parameters are given as flags, e.g. --moves 1,5,8,10 --n 1764; --piles 3,4,5; --coins 1,2,5; --row "-1 3 9 4".',
      ) as unknown as Argv<Args>;
  },
  async handler(args) {
    const family = getFamily(args.family);
    const raw: Record<string, unknown> = {};
    for (const [name, families] of familyParams()) {
      if (args[name] === undefined) continue;
      if (!families.includes(family.id)) {
        const own = Object.keys(family.params).map((p) => `--${p}`);
        throw new UsageError(`\`--${name}\` is a parameter of ${families.join(', ')}, not of ${family.id} (its parameters: ${own.join(', ')})`);
      }
      raw[name] = args[name];
    }
    const upto = nonNegativeInt('upto', args.upto);
    if (args.explain === true && upto !== undefined) throw new UsageError('Expected `--explain` without `--upto`: it explains one position');
    const seed = nonNegativeInt('seed', args.seed) ?? 0;
    const game = makeGame(family.id, raw);
    if (args['build-table'] === true) {
      if (family.id !== 'coins') throw new UsageError(`\`--build-table\` is for the coins family, got ${family.id}`);
      const board = game.params.board === 'square' ? 'square' : 'triangle';
      const size = Number(board === 'square' ? game.params.side : game.params.rows);
      const dir = typeof args['table-dir'] === 'string' ? args['table-dir'] : undefined;
      const workers = nonNegativeInt('workers', args.workers === undefined ? undefined : String(args.workers));
      const built = await buildCoinTable({ board, size, dir, workers, progress: (t) => void process.stderr.write(t) });
      const verdict = built.fullBoardWins ? 'first player wins (N)' : 'second player wins (P)';
      const boardText = board === 'square' ? `${size}×${size} square` : `${size}-row triangle`;
      io().out(
        args.json
          ? JSON.stringify({ family: family.id, variant: game.id, table: built }, null, 2)
          : [
              `${boardText}: ${built.cells} coins, 2^${built.cells} subsets`,
              `full board: ${verdict}`,
              `built in ${(built.buildMs / 1000).toFixed(1)} s with ${built.workers} worker(s)`,
              `table:      ${built.path}`,
            ].join('\n'),
      );
      return;
    }
    const doc: Record<string, unknown> = { family: family.id, variant: game.id, params: game.params };
    const text: string[] = [game.id];

    if (args.plot === true && args['count-cold'] === undefined && upto === undefined) throw new UsageError('`--plot` goes with `--upto N` or `--count-cold N`');
    if (args['count-cold'] !== undefined) {
      if (family.id !== 'piles' || game.params.rule !== 'squares') {
        throw new UsageError(`\`--count-cold\` is for piles --rule squares, got ${game.id}`);
      }
      const report = coldCountReport(parseColdBound(args['count-cold']), args.plot === true);
      Object.assign(doc, report.doc);
      text.push(...report.text);
    } else if (upto !== undefined) {
      const table: Tabulation | undefined = tabulate(game, upto);
      if (!table) throw new UsageError(`\`--upto\` is not available for ${family.id}; analyse one position instead`);
      Object.assign(doc, table);
      if (table.pPositions) text.push(`P-positions up to ${upto} (${table.pPositions.length}):`, wrap(table.pPositions));
      if (table.classes) {
        for (const cls of ['P', 'N', 'L', 'R'] as const) {
          const list = table.classes[cls];
          text.push(`${cls} (${list.length}):${list.length ? '' : ' —'}`);
          if (list.length) text.push(wrap(list));
        }
      }
      if (table.nimValues) text.push(`nim-values of one pile 0..${upto}:`, wrap(table.nimValues));
      if (args.plot === true) {
        const width = process.stdout.columns || 80;
        const lines = table.nimValues ? nimValueCurve(table.nimValues, width) : outcomeStrip(outcomeClasses(table, upto) ?? [], width, findPeriod(game)?.period);
        doc.plot = lines;
        text.push('', ...lines);
      }
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
      if (args.move !== undefined) {
        const move = game.parseMove(String(args.move), state);
        const optimal = isOptimalMove(game, state, move);
        const notation = game.formatMove(move);
        (doc.position as Record<string, unknown>).move = { move: notation, optimal };
        text.push(`your move:  ${notation} — ${optimal ? 'optimal: it keeps the best result' : `a mistake; best was ${verdict.bestMove}`}`);
      }
      if (args.explain === true) {
        const why = explainPosition(game, state);
        (doc.position as Record<string, unknown>).explanation = why ? why.lines : null;
        text.push('why:', ...(why ? why.lines.map((l) => `  ${l}`) : ['  the game is over']));
      }
    }
    if (args.period) {
      const found = findPeriod(game);
      if (found === undefined) {
        throw new UsageError(
          `\`--period\` is not available for ${game.id}; it applies to subtraction, no-repeat, partizan and piles with a finite rule`,
        );
      }
      doc.period = found && { preperiod: found.preperiod, period: found.period };
      text.push(found ? `period: preperiod ${found.preperiod}, period ${found.period}` : 'period: not found within the table limit');
    }
    io().out(args.json ? JSON.stringify(doc, bigintAsString, 2) : text.join('\n'));
  },
};
