/**
 * Start-position suites in a tournament (spec `starts`, docs/TOURNAMENTS.md "Start positions"):
 * the suite's lines read, put in the order they are played (as written or shuffled by the master
 * seed), cut to `startsPerPair`, and each start made a variant of its own (src/games/starts.ts),
 * which every pairing plays in both seatings. The schedule, the log, resume and remote workers then
 * need nothing new: a start is a variant whose every deal is that position.
 */
import { readFileSync } from 'node:fs';
import { ArenaError, SpecError } from '../core/errors.ts';
import type { AnyGame } from '../core/game.ts';
import { createRng, deriveSeed } from '../core/rng.ts';
import { startVariant, suitePositions } from '../games/starts.ts';
import { textFileProblem } from '../platform/files.ts';
import type { Standings } from './fold/standings.ts';
import type { TournamentSpec } from './spec.ts';

/** One start as played: where it is in the suite, its position, and the variant it is played as. */
export interface StartEntry {
  /** Line of the suite (1-based, comments and blank lines counted). */
  readonly line: number;
  /** The position in the family's start notation, as written. */
  readonly position: string;
  /** The spec's variant the start belongs to. */
  readonly base: string;
  /** The variant that starts at the position (its games' `variant`). */
  readonly variant: string;
}

/** The largest start-suite file read (an EPD-like suite of a million lines is well under it). */
const MAX_SUITE_BYTES = 64 << 20;

/**
 * The suite's lines: the spec's own, or the file's (a missing file is a SpecError naming it), with
 * how messages name the suite and one of its lines (`suite.txt`, `suite.txt:7`).
 */
export function suiteLines(starts: string | readonly string[], where: string): { readonly lines: readonly string[]; readonly name: string; readonly at: (line: number) => string } {
  if (typeof starts !== 'string') return { lines: starts, name: `${where}: \`starts\``, at: (line) => `${where}: \`starts\` line ${line}` };
  const problem = textFileProblem(starts, MAX_SUITE_BYTES);
  if (problem !== null) throw new SpecError(`${where}: \`starts\`: cannot read the start suite ${starts}: ${problem}`);
  return { lines: readFileSync(starts, 'utf8').split(/\r?\n/), name: starts, at: (line) => `${starts}:${line}` };
}

/**
 * The variants a suite makes of the spec's `bases`, in play order (base by base, start by start),
 * with the starts they are. Throws a one-line SpecError for a bad line (naming the file or the
 * spec, the line and the notation expected), a repeated position, an empty suite or a
 * `startsPerPair` beyond it.
 */
export function expandStarts(
  spec: Pick<TournamentSpec, 'seed' | 'startsOrder' | 'startsPerPair'> & { readonly starts: string | readonly string[] },
  bases: readonly AnyGame[],
  where: string,
): { readonly variants: AnyGame[]; readonly starts: StartEntry[] } {
  const { lines, name, at } = suiteLines(spec.starts, where);
  let positions = suitePositions(lines);
  if (positions.length === 0) throw new SpecError(`${name}: expected start positions, one a line, got none`);
  const perPair = spec.startsPerPair ?? positions.length;
  if (perPair > positions.length) {
    throw new SpecError(`${where}: \`startsPerPair\`: expected at most the suite's ${positions.length} positions, got ${perPair}`);
  }
  if (spec.startsOrder === 'random') positions = createRng(deriveSeed(spec.seed, 'starts')).shuffle(positions);
  const variants: AnyGame[] = [];
  const starts: StartEntry[] = [];
  const seen = new Map<string, number>();
  for (const base of bases) {
    for (const { line, text } of positions.slice(0, perPair)) {
      let game: AnyGame;
      try {
        game = startVariant(base, text);
      } catch (err) {
        if (err instanceof ArenaError) throw new SpecError(`${at(line)}: ${err.message}`);
        throw err;
      }
      const before = seen.get(game.id);
      if (before !== undefined) throw new SpecError(`${at(line)}: the position ${text} is already in the suite (line ${before}); each start is played once per deal`);
      seen.set(game.id, line);
      variants.push(game);
      starts.push({ line, position: text, base: base.id, variant: game.id });
    }
  }
  return { variants, starts };
}

/** One start's results, as the plain output and the report tabulate them. */
export interface StartResult {
  readonly start: StartEntry;
  /** Games played from the start. */
  readonly games: number;
  /** Each bot's `points/games` on it (`1.5/4`), in the order asked, or null where it played none. */
  readonly scores: readonly (string | null)[];
}

/** The results of each start (in play order) from the standings' per-variant tables, a score per bot of `bots`. */
export function startResults(starts: readonly StartEntry[], standings: Standings, bots: readonly string[]): StartResult[] {
  return starts.map((start) => {
    const t = standings.variants[start.variant];
    const scores = bots.map((bot) => {
      const b = t?.bots.find((x) => x.bot === bot);
      return b && b.games ? `${b.points % 1 ? b.points.toFixed(1) : b.points}/${b.games}` : null;
    });
    return { start, games: t?.games ?? 0, scores };
  });
}
