import { Box, Text } from 'ink';
import type { GameGoal } from '../../core/game.ts';
import { glossaryFor } from '../../games/goals.ts';
import { useTheme } from '../text/theme.ts';

/** The words the play screen's hints and explanations use, glossed under `?` whatever the game. */
const TERMS = 'P-position N-position';

/** `?` on the play screen, above the keys: how the game is won in full, and the terms its explanations use. */
export function GoalHelp({ goal }: { readonly goal: GameGoal<never> }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" {...(theme.plain ? {} : { borderStyle: 'round' as const })} paddingX={1}>
      <Text bold>How to win</Text>
      {goal.full.map((line) => (
        <Text key={line} wrap="wrap">
          {line}
        </Text>
      ))}
      {glossaryFor(TERMS).map((line) => (
        <Text key={line} {...theme.muted} wrap="wrap">
          {line}
        </Text>
      ))}
    </Box>
  );
}
