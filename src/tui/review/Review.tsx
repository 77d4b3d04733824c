import { Box, Text } from 'ink';
import type { AnyGame, Seat, Solver } from '../../core/game.ts';
import { judgeMoves, verdictText } from './verdicts.ts';
import { useTheme } from '../text/theme.ts';
import { Explain } from './Explain.tsx';

type Props = {
  readonly game: AnyGame;
  readonly solver: Solver<unknown, unknown> | undefined;
  readonly plies: readonly { readonly before: unknown; readonly after: unknown; readonly text: string; readonly seat: Seat }[];
  /** Whose moves are judged. */
  readonly seat: Seat;
  /** Most lines of moves to list; beyond it only the mistakes are listed. */
  readonly maxLines?: number;
  /** Show why the position before the first mistake (or the start) was won or lost (`e`). */
  readonly explain?: boolean;
};

/** The end-of-game review: each of one seat's moves marked optimal or a mistake, with the move that kept the result. */
export function Review({ game, solver, plies, seat, maxLines = 12, explain = false }: Props) {
  const theme = useTheme();
  if (!solver) return <Text {...theme.muted}>No review: this variant has no exact solver.</Text>;
  const verdicts = judgeMoves(game, solver, plies, seat);
  const rows = plies
    .map((p, i) => ({ n: i + 1, verdict: verdicts[i] ?? null, seat: p.seat }))
    .filter((r) => r.seat === seat);
  const judged = rows.filter((r) => r.verdict !== null);
  const mistakes = judged.filter((r) => !r.verdict!.optimal);
  const listed = rows.length <= maxLines ? rows : mistakes.slice(0, maxLines);
  // `e`: the position of the first mistake, as it stood before it; without one, the first position you moved in.
  const first = mistakes[0] ?? rows[0];
  const why = first ? { state: plies[first.n - 1]!.before, title: `before your move ${first.n}${mistakes[0] ? ', your first mistake' : ''}` } : null;
  return (
    <Box flexDirection="column">
      <Text bold>
        Review: {judged.length - mistakes.length} of {rows.length} moves optimal
        {mistakes.length > 0 ? `, ${mistakes.length} mistake${mistakes.length === 1 ? '' : 's'}` : ''}
        {judged.length < rows.length ? ` (${rows.length - judged.length} beyond the solver)` : ''}
      </Text>
      {listed.map((r) => {
        const v = r.verdict;
        if (!v) {
          return (
            <Text key={r.n} {...theme.muted}>
              {`${String(r.n).padStart(3)}. ${plies[r.n - 1]!.text} — not judged`}
            </Text>
          );
        }
        return (
          <Text key={r.n}>
            {`${String(r.n).padStart(3)}. ${v.move.padEnd(7)} `}
            <Text {...(v.optimal ? theme.good : theme.bad)}>
              {v.optimal ? theme.glyph.ok : theme.glyph.mistake} {verdictText(v, solver.scored)}
            </Text>
          </Text>
        );
      })}
      {rows.length > maxLines && mistakes.length > maxLines ? (
        <Text {...theme.muted}>{`… ${mistakes.length - maxLines} more mistakes`}</Text>
      ) : null}
      {explain && why ? <Explain game={game} state={why.state} title={why.title} mover="you" /> : null}
    </Box>
  );
}
