import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { AnyGame } from '../../core/game.ts';
import { explainPosition } from '../../games/explain.ts';
import { glossaryFor } from '../../games/goals.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly game: AnyGame;
  readonly state: unknown;
  /** What the explanation is about, e.g. `your position` or `before move 5`. */
  readonly title: string;
  /** Who "the player to move" is, for the verdict line. */
  readonly mover: string;
};

/**
 * Why a position is won or lost (`e`): the argument of src/games/explain.ts, line by line. The TUI
 * only renders it; the argument and its check against the solver live below. The terms it uses are
 * glossed under it.
 */
export function Explain({ game, state, title, mover }: Props) {
  const theme = useTheme();
  const result = useMemo(() => {
    try {
      return { ok: true as const, explanation: explainPosition(game, state) };
    } catch (err) {
      return { ok: false as const, reason: err instanceof Error ? err.message : String(err) };
    }
  }, [game, state]);
  if (!result.ok) return <Text {...theme.muted}>{`no explanation: ${result.reason}`}</Text>;
  const e = result.explanation;
  if (!e) return <Text {...theme.muted}>no explanation: the game is over</Text>;
  const verdict = e.outcome === 'N' ? `won for ${mover}` : e.outcome === 'P' ? `lost for ${mover}` : e.outcome === 'D' ? 'a draw with best play' : `class ${e.outcome}`;
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...theme.warn}>{`why (${title}): `}</Text>
        <Text bold>{verdict}</Text>
        {e.move !== null ? <Text>{` · play ${e.move}`}</Text> : null}
      </Text>
      {e.lines.map((line, i) => (
        <Text key={i} wrap="wrap">{`  ${line}`}</Text>
      ))}
      {/* The terms the argument uses, each glossed once (P-position, class L, nim-sum, …). */}
      {glossaryFor(`${verdict} ${e.lines.join(' ')}`).map((gloss) => (
        <Text key={gloss} {...theme.muted} wrap="wrap">{`  ${gloss}`}</Text>
      ))}
    </Box>
  );
}
