import { Box, Text } from 'ink';
import type { FormatStandings } from '../../arena/staged/format.ts';
import { bracketLines, SWISS_HEADER, swissRows } from '../../arena/staged/text.ts';
import { fit } from '../text/layout.ts';
import { layoutTable, type Column } from '../text/table.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly format: FormatStandings;
  readonly width: number;
  /** Most lines of table or bracket shown (the rest are counted, or the earliest rounds left out). */
  readonly maxRows: number;
};

/** Which Swiss columns go first when the width runs out: game points, then rounds, S-B, Buchholz. */
const SWISS_PRIORITY = [0, 0, 1, 2, 3, 5, 4] as const;

/**
 * A staged format's standings view: a Swiss's score table with its tie-breaks (the leaders; the
 * others counted), or a knockout's bracket (the latest rounds when it is taller than the view).
 */
export function FormatPanel({ format, width, maxRows }: Props) {
  const theme = useTheme();
  if (format.format === 'swiss') {
    const rows = swissRows(format.lines).slice(0, Math.max(1, maxRows - 2));
    const columns: Column[] = SWISS_HEADER.map((header, i) => ({
      header,
      cells: rows.map((r) => r[i]!),
      align: i === 1 ? 'left' : 'right',
      priority: SWISS_PRIORITY[i]!,
      ...(i === 1 ? { minWidth: 8 } : {}),
    }));
    const table = layoutTable(columns, width);
    return (
      <Box flexDirection="column">
        <Text {...theme.muted} wrap="truncate-end">{`Swiss, round ${format.round} of ${format.rounds}: by score, then Buchholz, Sonneborn–Berger, game points`}</Text>
        <Text bold>{table.header}</Text>
        {table.rows.map((r, i) => (
          <Text key={rows[i]![1]} {...(i === 0 ? theme.good : {})}>
            {r}
          </Text>
        ))}
        {format.lines.length > rows.length ? <Text {...theme.muted}>{`… ${format.lines.length - rows.length} more bots`}</Text> : null}
      </Box>
    );
  }
  const lines = bracketLines(format);
  const shown = lines.length > maxRows ? lines.slice(lines.length - maxRows + 1) : lines;
  return (
    <Box flexDirection="column">
      {lines.length > shown.length ? <Text {...theme.muted}>{`… ${lines.length - shown.length} lines of earlier rounds`}</Text> : null}
      {shown.map((l, i) => (
        <Text key={i} {...(l.startsWith('Champion') ? theme.good : l.startsWith(' ') ? {} : { bold: true })}>
          {fit(l, width, 'left')}
        </Text>
      ))}
    </Box>
  );
}
