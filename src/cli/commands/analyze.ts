import { explainPosition } from '../../games/explain.ts';
import type { Argv, CommandModule } from 'yargs';
import { z } from 'zod';
import { UsageError } from '../../core/errors.ts';
import { createRng } from '../../core/rng.ts';
import type { AnyFamily, AnyGame, Tabulation } from '../../core/game.ts';
import { analyzePosition, findPeriod, isOptimalMove, outcomeClasses, tabulate } from '../../games/analysis.ts';
import { allFamilies, getFamily, makeGame } from '../../games/index.ts';
import { nimValueCurve, outcomeStrip } from '../../tui/charts/analysis-plots.ts';
import { RUN, type CliIo, type WithRun } from '../io.ts';
import { PARSER_CONFIGURATION } from '../argv.ts';
import { flagValue, integerFlag, SEED_FLAG } from '../flags.ts';
import { buildCoinTable } from '../coin-table.ts';
import { COLD_BOUND, COLD_BOUND_EXPECTED, coldCountReport } from './analyze-squares.ts';
import { octalPeriodReport, parsePeriodLimit } from './analyze-octal.ts';

type Args = WithRun<{
  family: string;
  upto?: string;
  seed: string;
  move?: string;
  json: boolean;
  period: boolean;
  explain?: boolean;
  plot?: boolean;
  'build-table'?: boolean;
  'table-dir'?: string;
  workers?: string;
  'count-cold'?: string;
  'period-limit'?: string;
  [param: string]: unknown;
}>;

/** The numeric flags, read by their schemas. */
const UPTO = integerFlag(z.number().int().min(0)).optional();
const SEED = SEED_FLAG;
const WORKERS = integerFlag(z.number().int().min(1).max(64)).optional();

/** What a report gathers: the JSON document and the text lines. */
interface Report {
  readonly doc: Record<string, unknown>;
  readonly text: string[];
}

/** Each family parameter's name with the families that take it (they are `analyze`'s flags too). */
function familyParams(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const f of allFamilies()) for (const name of Object.keys(f.params)) byName.set(name, [...(byName.get(name) ?? []), f.id]);
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

/** Wraps a list of numbers to lines of at most `width` characters. */
function wrap(numbers: readonly number[], width = 78): string {
  const lines: string[] = [];
  const wrapper = wrapping((line) => lines.push(line), width);
  for (const n of numbers) wrapper.add(n);
  wrapper.end();
  return lines.join('\n');
}

/** Lays out numbers as `wrap` does, one at a time, handing each line (indented, without its newline) to `line`. */
function wrapping(line: (text: string) => void, width = 78): { add(n: number): void; end(): void } {
  let text = '';
  return {
    add(n) {
      const word = String(n);
      if (text && text.length + 1 + word.length > width) {
        line(`  ${text}`);
        text = word;
      } else text = text ? `${text} ${word}` : word;
    },
    end() {
      if (text) line(`  ${text}`);
      text = '';
    },
  };
}

/** Where a streamed list goes in a report's text and JSON until it is written (`writeReport`). */
const STREAMED = '\u0000streamed\u0000';

/**
 * A report's P-positions given a batch at a time (`FamilyAnalysis.pPositionBatches`) rather than
 * listed, so that a list too long to hold is written as it is made; each call walks them afresh.
 */
type PStream = () => Iterable<readonly number[]>;

/**
 * Text written through `io.out` in pieces of whole lines, each about `CHUNK` characters: a long
 * answer goes out as it is made, never held whole (`out` ends a piece that lacks it with a newline:
 * a piece is cut after one). `settle` waits until the reader has taken what was written.
 */
function chunkedOut(io: CliIo): { write(text: string): void; settle(): Promise<void>; end(): void } {
  const CHUNK = 1 << 16;
  let held = '';
  return {
    write(text) {
      held += text;
      if (held.length < CHUNK) return;
      const cut = held.lastIndexOf('\n') + 1;
      if (cut === 0) return;
      io.out(held.slice(0, cut));
      held = held.slice(cut);
    },
    settle: () => io.drained?.() ?? Promise.resolve(),
    end() {
      if (held !== '') io.out(held);
      held = '';
    },
  };
}

/**
 * Prints the report, text or JSON; a streamed list (`STREAMED` in its place) is written as the
 * stream gives it, in the layout the list would have had, a batch at a time as the reader takes it.
 */
async function writeReport(io: CliIo, json: boolean, { doc, text }: Report, stream: PStream | null): Promise<void> {
  if (!stream) {
    io.out(json ? JSON.stringify(doc, bigintAsString, 2) : text.join('\n'));
    return;
  }
  const out = chunkedOut(io);
  if (json) {
    // The array as JSON.stringify lays it out at this depth: an element a line, or `[]`.
    const whole = JSON.stringify(doc, bigintAsString, 2);
    const at = whole.indexOf(JSON.stringify(STREAMED));
    out.write(`${whole.slice(0, at)}[`);
    let first = true;
    for (const batch of stream()) {
      for (const n of batch) {
        out.write(`${first ? '' : ','}\n    ${n}`);
        first = false;
      }
      await out.settle();
    }
    out.write(`${first ? '' : '\n  '}]${whole.slice(at + JSON.stringify(STREAMED).length)}\n`);
  } else {
    const at = text.indexOf(STREAMED);
    out.write(`${text.slice(0, at).join('\n')}\n`);
    let lines = 0;
    const wrapper = wrapping((line) => {
      out.write(`${line}\n`);
      lines++;
    });
    for (const batch of stream()) {
      for (const n of batch) wrapper.add(n);
      await out.settle();
    }
    wrapper.end();
    // An empty list is an empty line between the header and what follows (none at the end).
    const after = text.slice(at + 1);
    if (after.length > 0) out.write(`${lines === 0 ? '\n' : ''}${after.join('\n')}\n`);
  }
  out.end();
}

/** The family parameters given as flags; a parameter of another family is refused with this one's. */
function familyArgs(args: Args, family: AnyFamily): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, families] of familyParams()) {
    if (args[name] === undefined) continue;
    if (!families.includes(family.id)) {
      const own = Object.keys(family.params).map((p) => `--${p}`);
      throw new UsageError(`\`--${name}\` is a parameter of ${families.join(', ')}, not of ${family.id} (its parameters: ${own.join(', ')})`);
    }
    raw[name] = args[name];
  }
  return raw;
}

/** `--build-table`: fills and writes a coin board's table, with a progress bar on stderr. */
async function buildTable(game: AnyGame, args: Args, io: CliIo): Promise<void> {
  if (game.family !== 'coins') throw new UsageError(`\`--build-table\` is for the coins family, got ${game.family}`);
  const board = game.params.board === 'square' ? 'square' : 'triangle';
  const size = Number(board === 'square' ? game.params.side : game.params.rows);
  const workers = flagValue('`--workers`', WORKERS, args.workers);
  const built = await buildCoinTable({ board, size, dir: args['table-dir'], workers, progress: (t) => io.status(t) });
  const verdict = built.fullBoardWins ? 'first player wins (N)' : 'second player wins (P)';
  const boardText = board === 'square' ? `${size}×${size} square` : `${size}-row triangle`;
  io.out(
    args.json
      ? JSON.stringify({ family: game.family, variant: game.id, table: built }, null, 2)
      : [
          `${boardText}: ${built.cells} coins, 2^${built.cells} subsets`,
          `full board: ${verdict}`,
          `built in ${(built.buildMs / 1000).toFixed(1)} s with ${built.workers} worker(s)`,
          `table:      ${built.path}`,
        ].join('\n'),
  );
}

/**
 * `--upto N`: the P-positions, outcome classes or nim-values of the start positions 0..N (with
 * `--plot`, as a picture `width` wide). A family that gives its P-positions one at a time has them
 * streamed instead of listed (without `--plot`): the stream is returned, its place in the report
 * marked `STREAMED`.
 */
function tableReport(game: AnyGame, upto: number, plot: boolean, width: number, { doc, text }: Report): PStream | null {
  const batches = getFamily(game.family).analysis?.pPositionBatches;
  if (batches && !plot) {
    const stream: PStream = () => batches(game.params, upto);
    let count = 0;
    // Counted first, in a pass of its own, for the header: nothing of the list is kept.
    for (const batch of stream()) count += batch.length;
    doc.pPositions = STREAMED;
    text.push(`P-positions up to ${upto} (${count}):`, STREAMED);
    return stream;
  }
  const table: Tabulation | undefined = tabulate(game, upto);
  if (!table) throw new UsageError(`\`--upto\` is not available for ${game.family}; analyse one position instead`);
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
  if (plot) {
    const lines = table.nimValues ? nimValueCurve(table.nimValues, width) : outcomeStrip(outcomeClasses(table, upto) ?? [], width, findPeriod(game)?.period);
    doc.plot = lines;
    text.push('', ...lines);
  }
  return null;
}

/** One dealt position: its outcome and best move, with `--move` judged and `--explain`'s reasons. */
function positionReport(game: AnyGame, seed: number, args: Args, { doc, text }: Report): void {
  const state = game.deal(createRng(seed));
  const verdict = analyzePosition(game, state);
  const position: Record<string, unknown> = {
    description: game.describe(state),
    state: game.toJSON(state),
    outcome: verdict.outcome,
    bestMove: verdict.bestMove,
    ...(verdict.value !== undefined ? { value: verdict.value } : {}),
    bestMoves: verdict.bestMoves,
    everyMoveLoses: verdict.everyMoveLoses,
  };
  doc.position = position;
  text.push(
    `position:   ${game.describe(state).replaceAll('\n', '\n            ')}`, // a user's game may draw several lines
    `outcome:    ${OUTCOME_TEXT[verdict.outcome] ?? verdict.outcome}`,
    ...(verdict.value !== undefined ? [`value:      ${verdict.value > 0 ? '+' : ''}${verdict.value} (final margin for the player to move)`] : []),
    `best move:  ${verdict.bestMove ?? '— (the game is over)'}${verdict.everyMoveLoses ? ' (every move loses against best play; this one prolongs the game)' : ''}`,
  );
  if (verdict.bestMoves.length > 1) text.push(`also best:  ${verdict.bestMoves.filter((m) => m !== verdict.bestMove).join(' ')}`);
  if (args.move !== undefined) {
    const move = game.parseMove(String(args.move), state);
    const optimal = isOptimalMove(game, state, move);
    const notation = game.formatMove(move);
    position.move = { move: notation, optimal };
    text.push(`your move:  ${notation} — ${optimal ? 'optimal: it keeps the best result' : `a mistake; best was ${verdict.bestMove}`}`);
  }
  if (args.explain === true) {
    const why = explainPosition(game, state);
    position.explanation = why ? why.lines : null;
    text.push('why:', ...(why ? why.lines.map((l) => `  ${l}`) : ['  the game is over']));
  }
}

/**
 * `--period`: the pre-period and period of the outcome (or nim-value) sequence over piles; for a
 * take-and-break family, the period proven by the Guy–Smith theorem (`--period-limit`).
 */
function periodReport(game: AnyGame, periodLimit: string | undefined, { doc, text }: Report): void {
  if (game.family === 'octal' || game.family === 'grundy') {
    const octal = octalPeriodReport(game, parsePeriodLimit(periodLimit));
    Object.assign(doc, octal.doc);
    text.push(...octal.text);
    return;
  }
  const found = findPeriod(game);
  if (found === undefined) {
    throw new UsageError(
      `\`--period\` is not available for ${game.id}; it applies to subtraction, no-repeat, partizan, piles with a finite rule and octal`,
    );
  }
  doc.period = found && { preperiod: found.preperiod, period: found.period };
  text.push(found ? `period: preperiod ${found.preperiod}, period ${found.period}` : 'period: not found within the table limit');
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
      .option('period-limit', { type: 'string', describe: 'octal, grundy --period: the largest nim-value table to search (default 2^24 heaps)' })
      // Parameters are read by their family, as text: piles above 2^53 (--n 1000000000000000001)
      // keep every digit, and no camelCase twin of a parameter name is made.
      .parserConfiguration({ ...PARSER_CONFIGURATION, 'camel-case-expansion': false })
      .epilog(
        'Family parameters are given as flags, e.g. --moves 1,5,8,10 --n 1764; --piles 3,4,5; --coins 1,2,5; --row "-1 3 9 4".',
      ) as unknown as Argv<Args>;
  },
  async handler(args) {
    const { io } = args[RUN];
    const variant = /^([^{]+)\{(.*)\}$/.exec(args.family);
    if (variant) {
      // A variant as play and tournaments write it: say the same in analyze's words.
      const flags = variant[2]!.split(';').filter((kv) => kv.includes('=')).map((kv) => `--${kv.slice(0, kv.indexOf('='))} ${kv.slice(kv.indexOf('=') + 1)}`);
      throw new UsageError(`Expected a family with its parameters as flags, got the variant \`${args.family}\`: write \`arena analyze ${[variant[1], ...flags].join(' ')}\``);
    }
    const family = getFamily(args.family);
    const raw = familyArgs(args, family);
    const upto = flagValue('`--upto`', UPTO, args.upto);
    if (args.explain === true && upto !== undefined) throw new UsageError('Expected `--explain` without `--upto`: it explains one position');
    const seed = flagValue('`--seed`', SEED, args.seed);
    const game = makeGame(family.id, raw);
    if (args['build-table'] === true) return buildTable(game, args, io);
    const report: Report = { doc: { family: family.id, variant: game.id, params: game.params }, text: [game.id] };
    let stream: PStream | null = null;
    if (args.plot === true && args['count-cold'] === undefined && upto === undefined) throw new UsageError('`--plot` goes with `--upto N` or `--count-cold N`');
    if (args['count-cold'] !== undefined) {
      if (family.id !== 'piles' || game.params.rule !== 'squares') {
        throw new UsageError(`\`--count-cold\` is for piles --rule squares, got ${game.id}`);
      }
      const cold = coldCountReport(flagValue('`--count-cold`', COLD_BOUND, args['count-cold'], COLD_BOUND_EXPECTED), args.plot === true);
      Object.assign(report.doc, cold.doc);
      report.text.push(...cold.text);
    } else if (upto !== undefined) stream = tableReport(game, upto, args.plot === true, io.columns || 80, report);
    else positionReport(game, seed, args, report);
    if (args.period) periodReport(game, args['period-limit'], report);
    await writeReport(io, args.json, report, stream);
  },
};
