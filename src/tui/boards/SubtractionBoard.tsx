import { Box, Text } from 'ink';
import { turnText, type BoardProps, type PileView } from './board-view.ts';
import { PileStones } from './PileStones.tsx';
import { useTheme } from '../text/theme.ts';

/** One pile and a subtraction set: the stones, the count, what was just taken and who moves. */
export function SubtractionBoard({ view, width, names }: BoardProps<PileView>) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <PileStones view={view} width={width} />
      <Text {...theme.muted}>
        {view.over ? turnText(view, names) : `${turnText(view, names)} · takes ${view.takes.join(', ')}`}
      </Text>
    </Box>
  );
}
