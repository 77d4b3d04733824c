import { Box, Text } from 'ink';
import { turnText, type BoardProps, type EndGameView } from './board-view.ts';
import { useTheme } from '../text/theme.ts';

/**
 * The End Game row: the numbers still in play between the two marked ends (`L ▶ … ◀ R`), the number
 * the last move took shown struck beside its end, and both scores. A long row shows its two ends
 * and how many numbers lie between.
 */
export function EndGameBoard({ view, width, names }: BoardProps<EndGameView>) {
  const theme = useTheme();
  const { row, lo, hi } = view;
  const live = row.slice(lo, hi);
  const cellW = Math.max(2, ...live.map((v) => String(v).length)) + 1;
  const lastLeft = view.lastIndex !== null && view.lastIndex === lo - 1;
  const lastRight = view.lastIndex !== null && view.lastIndex === hi;
  const lastText = view.lastIndex !== null ? `×${row[view.lastIndex]}` : '';
  // Room for the cells between the end markers (and the taken number on one side).
  const room = Math.max(2, Math.floor((width - 8 - lastText.length) / cellW));
  let cells: readonly (number | null)[] = live;
  let hidden = 0;
  if (live.length > room) {
    const half = Math.max(1, Math.floor((room - 1) / 2));
    cells = [...live.slice(0, half), null, ...live.slice(live.length - half)];
    hidden = live.length - 2 * half;
  }
  return (
    <Box flexDirection="column">
      <Text>
        {lastLeft ? <Text {...theme.taken}>{`${lastText} `}</Text> : null}
        <Text {...theme.accent} bold>{`L ${theme.glyph.leftEnd}`}</Text>
        {cells.length === 0 ? <Text {...theme.muted}> (empty) </Text> : null}
        {cells.map((v, i) =>
          v === null ? (
            <Text key={i} {...theme.muted}>
              {` …${hidden}… `}
            </Text>
          ) : (
            <Text key={i} bold={i === 0 || i === cells.length - 1}>
              {String(v).padStart(cellW)}
            </Text>
          ),
        )}
        <Text {...theme.accent} bold>{` ${theme.glyph.rightEnd} R`}</Text>
        {lastRight ? <Text {...theme.taken}>{` ${lastText}`}</Text> : null}
      </Text>
      <Text>
        <Text {...theme.you}>{`${names.first} ${view.scores[0]}`}</Text>
        <Text {...theme.muted}> · </Text>
        <Text {...theme.them}>{`${names.second} ${view.scores[1]}`}</Text>
        <Text {...theme.muted}>{` · ${live.length} left · ${turnText(view, names)}`}</Text>
      </Text>
    </Box>
  );
}
