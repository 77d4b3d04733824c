import { Box, Text } from 'ink';
import { groupedRun, layoutStones } from '../text/layout.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  /** Stones left in the pile. */
  readonly stones: number;
  /** Stones the last move took, drawn hollow after the rest. */
  readonly taken?: number;
  /** Columns available for the stones. */
  readonly width: number;
  readonly maxLines?: number;
  /** Forces at least this many stones per glyph, so several piles share one scale. */
  readonly scale?: number;
};

/** A pile as stones in groups of five, wrapped into a few lines; a glyph stands for several stones when large. */
export function StoneRow({ stones, taken = 0, width, maxLines = 3, scale = 1 }: Props) {
  const theme = useTheme();
  const layout = layoutStones(stones, taken, width, maxLines, scale);
  if (layout.lines.length === 0) return <Text {...theme.muted}>(empty)</Text>;
  let offset = 0;
  return (
    <Box flexDirection="column">
      {layout.lines.map((line, i) => {
        const lineStart = offset;
        offset += line.stones + line.taken;
        // Groups of five restart on every line: the offset is only for the spacing within a line.
        const start = lineStart - i * layout.perLine;
        return (
          <Text key={i}>
            <Text {...theme.stone}>{groupedRun(theme.glyph.stone, line.stones, start)}</Text>
            <Text {...theme.taken}>{groupedRun(theme.glyph.takenStone, line.taken, start + line.stones)}</Text>
          </Text>
        );
      })}
    </Box>
  );
}

