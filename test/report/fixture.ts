/** A small real tournament over all six families for the report tests (one per process: a test file, or the files sharing a worker). */
import { runSpec } from '../arena/helpers.ts';

/** One variant of each family, small enough to play in a second. */
export const REPORT_VARIANTS = [
  'subtraction{moves=1,3,4;n=10..30}',
  'no-repeat{moves=1,2,3;n=8..20}',
  'partizan{left=1,2;right=1,3;n=5..20;start=left}',
  'piles{rule=squares;piles=2;size=1..9}',
  'coins{board=triangle;rows=3}',
  'end-game{length=6;values=-5..5}',
];

let dir: Promise<string> | undefined;

/**
 * The results folder of optimal, greedy and a bot that always sleeps past its deadline (so the
 * report has time forfeits to mark), in process, one deal per variant.
 */
export function reportFixture(): Promise<string> {
  return (dir ??= runSpec(
    { name: 'report-fixture', seed: 7, games: REPORT_VARIANTS, bots: ['optimal', 'greedy', 'fx-sleeps'], deals: 1, timePerMoveMs: 20, isolation: 'none' },
    { graceMs: 10 },
  ).then((r) => r.dir));
}
