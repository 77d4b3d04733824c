import { Box, Text } from 'ink';
import type { Seat } from '../core/game.ts';
import type { PileView } from './board-view.ts';
import { PileStones } from './PileStones.tsx';
import { useTheme } from './theme.ts';

type Props = {
  readonly view: PileView;
  readonly width: number;
  readonly names: Readonly<Record<Seat, string>>;
};

/** One pile and a subtraction set: the stones, the count, what was just taken and who moves. */
export function SubtractionBoard({ view, width, names }: Props) {
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
