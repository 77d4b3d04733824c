import { Box, Text } from 'ink';
import type { StandingsTable as Table } from '../../arena/fold/standings.ts';
import { anchorLine } from '../../arena/staged/text.ts';
import { fmtPoints } from '../text/layout.ts';
import { layoutTable, type Column } from '../text/table.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly table: Table;
  readonly width: number;
  /** Most bots listed (the rest are counted). */
  readonly maxRows?: number;
};

/**
 * Standings: rank, bot, points, W/D/L, rating ± 95 % interval, accuracy and forfeits. Narrow
 * terminals drop the least important columns first (forfeits, accuracy, rating) and cut names.
 */
export function StandingsTable({ table, width, maxRows = 50 }: Props) {
  const theme = useTheme();
  const rating = new Map(table.ratings.ratings.map((r) => [r.bot, r]));
  const bots = table.bots.slice(0, maxRows);
  const col = (header: string, cells: string[], align: 'left' | 'right', priority: number, minWidth?: number): Column => ({
    header,
    cells,
    align,
    priority,
    ...(minWidth !== undefined ? { minWidth } : {}),
  });
  const columns: Column[] = [
    col('#', bots.map((_, i) => String(i + 1)), 'right', 0),
    col('bot', bots.map((b) => b.bot), 'left', 0, 6),
    col('points', bots.map((b) => `${fmtPoints(b.points)}/${b.games}`), 'right', 1),
    col('W/D/L', bots.map((b) => `${b.wins}/${b.draws}/${b.losses}`), 'right', 2),
    col(
      'rating',
      bots.map((b) => {
        const r = rating.get(b.bot);
        return r ? `${r.elo >= 0 ? '+' : ''}${r.elo.toFixed(0)} ±${r.ci95.toFixed(0)}` : '–';
      }),
      'right',
      3,
    ),
    col(
      'accuracy',
      bots.map((b) => (b.accuracy && b.accuracy.moves > 0 ? `${((100 * b.accuracy.accurate) / b.accuracy.moves).toFixed(1)}% ${b.accuracy.blunders}✗` : '–')),
      'right',
      4,
    ),
    col(
      'forfeits',
      bots.map((b) => {
        const f = b.forfeits;
        const parts = [f.timeout ? `${f.timeout} time` : '', f.crash ? `${f.crash} crash` : '', f['illegal-move'] ? `${f['illegal-move']} illegal` : ''].filter(Boolean);
        return parts.join(', ') || '0';
      }),
      'left',
      5,
    ),
  ];
  const { header, rows } = layoutTable(columns, width);
  const anchor = anchorLine(table.ratings);
  const forfeited = new Set(bots.filter((b) => b.forfeits.timeout + b.forfeits.crash + b.forfeits['illegal-move'] > 0).map((b) => b.bot));
  return (
    <Box flexDirection="column">
      <Text bold>{header}</Text>
      {rows.map((r, i) => (
        <Text key={bots[i]!.bot} {...(i === 0 ? theme.good : forfeited.has(bots[i]!.bot) ? theme.warn : {})}>
          {r}
        </Text>
      ))}
      {table.bots.length > bots.length ? <Text {...theme.muted}>{`… ${table.bots.length - bots.length} more bots`}</Text> : null}
      {/* The legend where two lines are to spare (it is under ? too), wrapped to the table's width. */}
      {table.bots.length + 2 <= maxRows ? (
        <Box width={Math.max(header.length, ...rows.map((r) => r.length))}>
          <Text {...theme.muted} wrap="wrap">
            {standingsLegend(theme.color)}
          </Text>
        </Box>
      ) : null}
      <Text {...theme.muted}>
        {`${table.games} games · first-seat advantage ${table.ratings.firstSeatElo >= 0 ? '+' : ''}${table.ratings.firstSeatElo.toFixed(0)} ±${table.ratings.firstSeatCi95.toFixed(0)} Elo${anchor ? ` · ${anchor}` : ''}`}
      </Text>
    </Box>
  );
}

/** What the standings' colours and marks mean (the row colours only where there are colours). */
export function standingsLegend(color: boolean): string {
  return `${color ? 'green: the leader · yellow: a bot with forfeits · ' : ''}accuracy: its moves that kept the solver's best result · n✗: moves that threw a won position away`;
}
