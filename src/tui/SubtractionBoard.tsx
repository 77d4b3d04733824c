import { Box, Text } from 'ink';
import type { Seat } from '../core/game.ts';
import type { PileView } from './board-view.ts';
import { fmtInt, layoutStones, scaleNote } from './layout.ts';
import { StoneRow } from './StoneRow.tsx';
import { useTheme } from './theme.ts';

type Props = {
  readonly view: PileView;
  readonly width: number;
  readonly names: Readonly<Record<Seat, string>>;
};

/** One pile and a subtraction set: the stones, the count, what was just taken and who moves. */
export function SubtractionBoard({ view, width, names }: Props) {
  const theme = useTheme();
  const scale = layoutStones(view.pile, view.taken, width).scale;
  const note = scaleNote(scale, theme.glyph.stone);
  return (
    <Box flexDirection="column">
      <StoneRow stones={view.pile} taken={view.taken} width={width} />
      <Text>
        <Text bold>{fmtInt(view.pile)}</Text> stone{view.pile === 1 ? '' : 's'}
        {view.taken > 0 ? <Text {...theme.taken}>{` (${fmtInt(view.taken)} just taken)`}</Text> : null}
        {note ? <Text {...theme.muted}>{` · ${note}`}</Text> : null}
      </Text>
      <Text {...theme.muted}>
        {names[view.toMove]} to move · takes {view.takes.join(', ')}
      </Text>
    </Box>
  );
}
