import { Box, Text } from 'ink';
import { turnText, type BoardProps, type PilesView } from './board-view.ts';
import { fmtInt, layoutStones, scaleNote } from '../text/layout.ts';
import { StoneRow } from './StoneRow.tsx';
import { useTheme } from '../text/theme.ts';

/** Several piles, one row of stones each on one shared scale, numbered as moves name them (`2:9`). */
export function PilesBoard({ view, width, names }: BoardProps<PilesView>) {
  const theme = useTheme();
  const labelW = String(view.piles.length).length + 1;
  const countW = Math.max(...view.piles.map((p) => fmtInt(p).length), 1);
  const stoneW = Math.max(5, width - labelW - countW - 3);
  const takenOf = (i: number): number => (view.last && view.last.pile === i ? view.last.amount : 0);
  // One scale for every pile, so rows compare at a glance.
  const scale = Math.max(1, ...view.piles.map((p, i) => layoutStones(p, takenOf(i), stoneW, 1).scale));
  const note = scaleNote(scale, theme.glyph.stone);
  return (
    <Box flexDirection="column">
      {view.piles.map((p, i) => (
        <Box key={i}>
          <Text {...(view.last?.pile === i ? theme.taken : theme.muted)}>{`${String(i + 1).padStart(labelW - 1)} `}</Text>
          <Box width={countW + 1}>
            <Text bold>{fmtInt(p).padStart(countW)}</Text>
          </Box>
          <StoneRow stones={p} taken={takenOf(i)} width={stoneW} maxLines={1} scale={scale} />
        </Box>
      ))}
      <Text {...theme.muted}>
        {`${turnText(view, names)} · rule ${view.rule}`}
        {view.last ? ` · last took ${fmtInt(view.last.amount)} from pile ${view.last.pile + 1}` : ''}
        {note ? ` · ${note}` : ''}
      </Text>
    </Box>
  );
}
