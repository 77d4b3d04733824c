import { Box, Text } from 'ink';
import type { AnyGame, Seat, Solver } from '../../core/game.ts';
import { explainedMove, judgeMoves, tallyText, verdictText } from './verdicts.ts';
import { useTheme } from '../text/theme.ts';
import { Explain } from './Explain.tsx';
import { plyText } from '../boards/board-view.ts';

type Props = {
  readonly game: AnyGame;
  readonly solver: Solver<unknown, unknown> | undefined;
  readonly plies: readonly { readonly before: unknown; readonly after: unknown; readonly text: string; readonly seat: Seat }[];
  /** The player's seat: the header counts their moves first, and `e` explains their first mistake. */
  readonly seat: Seat;
  /** What to call each seat (`you` and the bot's label); every move is listed with its mover's name. */
  readonly names?: Readonly<Record<Seat, string>>;
  /** Most lines of moves to list; beyond it only the mistakes are listed. */
  readonly maxLines?: number;
  /** Show why the position before the first mistake (or the start) was won or lost (`e`). */
  readonly explain?: boolean;
};

const SEAT_NAMES: Readonly<Record<Seat, string>> = { first: 'first', second: 'second' };

/**
 * The end-of-game review: every move of both sides, named by its mover, marked optimal or a
 * mistake with the moves that kept the result; the player's own tally first, then the other side's.
 */
export function Review({ game, solver, plies, seat, names = SEAT_NAMES, maxLines = 12, explain = false }: Props) {
  const theme = useTheme();
  if (!solver) return <Text {...theme.muted}>No review: this variant has no exact solver.</Text>;
  const verdicts = judgeMoves(game, solver, plies);
  const rows = plies.map((p, i) => ({ n: i + 1, verdict: verdicts[i] ?? null, seat: p.seat }));
  const mine = rows.filter((r) => r.seat === seat);
  const theirs = rows.filter((r) => r.seat !== seat);
  const mistakes = rows.filter((r) => r.verdict !== null && !r.verdict.optimal);
  const listed = rows.length <= maxLines ? rows : mistakes.slice(0, maxLines);
  const nameWidth = Math.max(names.first.length, names.second.length);
  // `e`: the position of the player's first mistake, as it stood before it; without one, the first position they moved in.
  const at = explainedMove(plies, verdicts, seat);
  const why = at ? { state: plies[at.index]!.before, title: `before your move ${at.index + 1}${at.mistake ? ', your first mistake' : ''}` } : null;
  return (
    <Box flexDirection="column">
      <Text bold>
        Review: {tallyText(mine)}
        {theirs.length > 0 ? <Text {...theme.muted}>{` · ${names[seat === 'first' ? 'second' : 'first']}: ${tallyText(theirs)}`}</Text> : null}
      </Text>
      {listed.map((r) => {
        const v = r.verdict;
        const head = `${String(r.n).padStart(3)}. ${names[r.seat].padEnd(nameWidth)} ${plyText(game, plies[r.n - 1]!).padEnd(7)} `;
        if (!v) {
          return <Text key={r.n} {...theme.muted}>{`${head}— not judged`}</Text>;
        }
        return (
          <Text key={r.n}>
            {head}
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
