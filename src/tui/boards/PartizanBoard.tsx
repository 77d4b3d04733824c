import { Box, Text } from 'ink';
import type { BoardProps, PileView } from './board-view.ts';
import { PileStones } from './PileStones.tsx';
import { useTheme } from '../text/theme.ts';

/** One pile with different takes for Left and Right: the pile, and whose side moves with which takes. */
export function PartizanBoard({ view, width, names }: BoardProps<PileView>) {
  const theme = useTheme();
  const side = view.side ?? 'Left';
  return (
    <Box flexDirection="column">
      <PileStones view={view} width={width} />
      <Text>
        <Text {...(side === 'Left' ? theme.you : theme.them)} bold>
          {side === 'Left' ? `${theme.glyph.leftEnd} Left` : `Right ${theme.glyph.rightEnd}`}
        </Text>
        <Text>{view.over ? ' · game over' : ` (${names[view.toMove]}) to move · takes ${view.takes.join(', ')}`}</Text>
      </Text>
    </Box>
  );
}
