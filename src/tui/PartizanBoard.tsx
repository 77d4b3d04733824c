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

/** One pile with different takes for Left and Right: the pile, and whose side moves with which takes. */
export function PartizanBoard({ view, width, names }: Props) {
  const theme = useTheme();
  const scale = layoutStones(view.pile, view.taken, width).scale;
  const note = scaleNote(scale, theme.glyph.stone);
  const side = view.side ?? 'Left';
  return (
    <Box flexDirection="column">
      <StoneRow stones={view.pile} taken={view.taken} width={width} />
      <Text>
        <Text bold>{fmtInt(view.pile)}</Text> stone{view.pile === 1 ? '' : 's'}
        {view.taken > 0 ? <Text {...theme.taken}>{` (${fmtInt(view.taken)} just taken)`}</Text> : null}
        {note ? <Text {...theme.muted}>{` · ${note}`}</Text> : null}
      </Text>
      <Text>
        <Text {...(side === 'Left' ? theme.you : theme.them)} bold>
          {side === 'Left' ? `${theme.glyph.leftEnd} Left` : `Right ${theme.glyph.rightEnd}`}
        </Text>
        <Text>{` (${names[view.toMove]}) to move · takes ${view.takes.join(', ')}`}</Text>
      </Text>
    </Box>
  );
}
