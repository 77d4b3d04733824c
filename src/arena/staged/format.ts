/**
 * Formats played in stages (Swiss rounds, knockout rounds): the games of a stage are known only
 * once every game of the stages before it is folded. A stage's plan is a pure function of the spec,
 * the seed and the results of the earlier stages, so a resumed run plans exactly what an
 * uninterrupted one did (docs/TOURNAMENTS.md "Swiss" and "Knockout").
 */
import type { GameRecord } from '../match.ts';

/** One (variant, deal) a match plays in both seatings. */
export interface StageCell {
  readonly variant: string;
  readonly deal: number;
}

/** A match of a stage: bots `a` and `b` (a sits first in seating 0) play each cell in both seatings. */
export interface StageMatch {
  readonly a: string;
  readonly b: string;
  readonly cells: readonly StageCell[];
}

/** A Swiss standings line: match points (1 a round won, ½ level, 0 lost; a bye is 1) and the tie-breaks. */
export interface SwissLine {
  readonly bot: string;
  readonly score: number;
  /** Sum of the final scores of the bots it met (a bye adds nothing). */
  readonly buchholz: number;
  /** Sum over its rounds of the opponent's final score times the round's result (1, ½, 0). */
  readonly sonnebornBerger: number;
  /** Game points over all its games (1 a win, ½ a draw). */
  readonly gamePoints: number;
  readonly rounds: number;
  readonly byes: number;
}

/** One match of a bracket as it stands. */
export interface BracketMatch {
  /** Bots and their seeds (1 the top seed); `b` null for a bye. */
  readonly a: string;
  readonly seedA: number;
  readonly b: string | null;
  readonly seedB: number | null;
  readonly pointsA: number;
  readonly pointsB: number;
  readonly games: number;
  /** The bot through, once the match has ended (or at once, for a bye). */
  readonly winner: string | null;
  /** How it was decided: on points, on extra pairs, on seed (still level), or a bye. */
  readonly decidedBy: 'points' | 'extra' | 'seed' | 'bye' | null;
}

/** What a staged format shows beside the standings (the dashboard, plain lines, the summary, the report). */
export type FormatStandings =
  | { readonly format: 'swiss'; readonly round: number; readonly rounds: number; readonly lines: readonly SwissLine[] }
  | {
      readonly format: 'knockout';
      /** Rounds of matches, the first round first; later rounds hold the matches known so far. */
      readonly rounds: readonly (readonly BracketMatch[])[];
      readonly champion: string | null;
    };

/** What every staged format is made from. */
export interface StageSetup {
  readonly bots: readonly string[];
  readonly variants: readonly string[];
  readonly deals: number;
  /** Prior ratings by bot label (the seeding), from a ratings file. */
  readonly prior?: Readonly<Record<string, number>>;
}

/** A format played in stages (see the module's comment). */
export interface StagedFormat {
  /** Stages at most. */
  readonly stages: number;
  /** Pair slots each stage may use: stage s owns the pair indices `s * slots …`. */
  readonly slots: number;
  /** Games each stage reserves in the total (those it does not plan count as skipped). */
  reserved(stage: number): number;
  /**
   * The matches of `stage`, asked once, in stage order, after every game of the earlier stages has
   * been handed to `add`; `stage === stages` asks for none and closes the last stage.
   */
  plan(stage: number): readonly StageMatch[];
  /** Folds a game of the stage last planned. */
  add(rec: GameRecord): void;
  /** The format's standings as they stand. */
  standings(): FormatStandings;
}

/** Adds a game's points to its match's tally (the pairing's bots `a`, `b` of a `StageMatch`). */
export function tally(points: { a: number; b: number; games: number }, match: { readonly a: string }, rec: GameRecord): void {
  points.games++;
  if (rec.winner === null) {
    points.a += 0.5;
    points.b += 0.5;
  } else if (rec.winner === match.a) points.a++;
  else points.b++;
}

/**
 * The seed order of bots: by prior rating (highest first; unrated bots after the rated ones),
 * then by their place in the spec.
 */
export function seedOrder(bots: readonly string[], prior: Readonly<Record<string, number>> = {}): string[] {
  const place = new Map(bots.map((b, i) => [b, i]));
  const rating = (b: string): number => prior[b] ?? -Infinity;
  return [...bots].sort((x, y) => rating(y) - rating(x) || place.get(x)! - place.get(y)!);
}
