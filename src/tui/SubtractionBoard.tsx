import { Box, Text } from 'ink';
import type { BoardProps, PileView } from './board-view.ts';
import { PileStones } from './PileStones.tsx';
import { useTheme } from './theme.ts';

/** One pile and a subtraction set: the stones, the count, what was just taken and who moves. */
export function SubtractionBoard({ view, width, names }: BoardProps<PileView>) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <PileStones view={view} width={width} />
      <Text {...theme.muted}>
        {names[view.toMove]} to move · takes {view.takes.join(', ')}
      </Text>
    </Box>
  );
}
