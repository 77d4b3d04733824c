import { Box, Text } from 'ink';
import type { StandingsTable } from '../../arena/fold/standings.ts';
import { fit, fmtPoints } from '../text/layout.ts';
import { shortNames } from '../text/table.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly table: StandingsTable;
  readonly width: number;
  /** The bots in the order the standings view lists them (a Swiss's score table); default the table's own. */
  readonly order?: readonly string[];
};

/**
 * The crosstable: the row bot's points against each column bot, out of the games between them.
 * Rows are in the standings' order and columns numbered as the rows; names are cut to distinct
 * names that fit, and columns beyond the width dropped.
 */
export function Crosstable({ table, width, order }: Props) {
  const theme = useTheme();
  const bots = order && order.length === table.bots.length ? [...order] : table.bots.map((b) => b.bot);
  const cells = bots.map((a) =>
    bots.map((b) => {
      if (a === b) return '·';
      const c = table.crosstable[a]?.[b];
      return c && c.games > 0 ? `${fmtPoints(c.points)}/${c.games}` : '–';
    }),
  );
  const cellW = Math.max(3, ...cells.flat().map((c) => c.length));
  const nameW = Math.min(Math.max(...bots.map((b) => b.length), 3) + 3, Math.max(8, width - bots.length * (cellW + 1)));
  const fitting = Math.max(1, Math.floor((width - nameW) / (cellW + 1)));
  const shown = Math.min(bots.length, fitting);
  const digits = String(bots.length).length;
  const names = shortNames(bots, nameW - digits - 1);
  return (
    <Box flexDirection="column">
      <Text bold>
        {fit('', nameW)}
        {bots.slice(0, shown).map((_, j) => ` ${fit(String(j + 1), cellW, 'right')}`).join('')}
      </Text>
      {bots.map((a, i) => (
        <Text key={a}>
          {fit(`${String(i + 1).padStart(digits)} ${names[i]}`, nameW)}
          {cells[i]!.slice(0, shown).map((c, j) => (
            <Text key={j} {...(c === '·' || c === '–' ? theme.muted : {})}>{` ${fit(c, cellW, 'right')}`}</Text>
          ))}
        </Text>
      ))}
      {shown < bots.length ? <Text {...theme.muted}>{`${bots.length - shown} columns do not fit; widen the terminal`}</Text> : null}
    </Box>
  );
}
