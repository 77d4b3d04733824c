import { Box, Text } from 'ink';
import type { StandingsTable } from '../../arena/fold/standings.ts';
import { intervalChart } from '../charts/interval-chart.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly table: StandingsTable;
  readonly width: number;
  /** Most bots drawn, as in the table beside it. */
  readonly maxRows?: number;
};

/**
 * Each bot's rating with its 95 % interval on one Elo axis, a row per bot in the standings'
 * order, so it lines up with the table it is drawn beside (a header row, then the bots).
 */
export function RatingsChart({ table, width, maxRows = 50 }: Props) {
  const theme = useTheme();
  const rating = new Map(table.ratings.ratings.map((r) => [r.bot, r]));
  const bots = table.bots.slice(0, maxRows).filter((b) => rating.has(b.bot));
  const lines = intervalChart(
    bots.map((b) => ({ label: b.bot, value: rating.get(b.bot)!.elo, halfWidth: rating.get(b.bot)!.ci95 })),
    width,
  );
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>Elo, 95 % interval</Text>
      {lines.map((l, i) => (
        <Text key={i} {...(i < bots.length ? theme.accent : theme.muted)}>
          {l}
        </Text>
      ))}
    </Box>
  );
}
