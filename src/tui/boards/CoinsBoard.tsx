import { Box, Text } from 'ink';
import { turnText, type BoardProps, type CoinsView } from './board-view.ts';
import { coinRows, type CoinCursor } from './coin-grid.ts';
import { useTheme } from '../text/theme.ts';

type Props = BoardProps<CoinsView> & {
  /** Play's cursor, mark and previewed take, drawn over the cells; absent elsewhere. */
  readonly cursor?: CoinCursor | undefined;
};

/**
 * The coin triangle (centred, as drawn in GAMES.md 5) or square as a grid: coins on the board show their
 * numbers (what a move types), coins just taken show `×` in the taken colour, older gaps `·`.
 * When the numbers do not fit, each cell shrinks to one glyph. With a cursor, its cell is bracketed
 * `[13]` and inverse, the mark `{11}`, and a legal take's coins between them `(12)`: brackets, not
 * colour alone, so the cursor shows under NO_COLOR too; a take that is not legal is drawn red and dim.
 */
export function CoinsBoard({ view, width, names, cursor }: Props) {
  const theme = useTheme();
  const rows = coinRows(view.shape, view.size);
  const total = rows.reduce((n, r) => n + r.length, 0);
  const digits = String(total).length;
  const widest = view.size; // both shapes: the bottom row of the triangle, any row of the square
  const numbered = widest * (digits + 2) <= width;
  const cellW = numbered ? digits + 2 : 2;
  const last = new Set(view.lastTaken);
  const line = new Set(cursor?.legal ? cursor.line : []);
  const left = view.present.filter(Boolean).length;
  // One glyph cells keep only the opening bracket, where the other cells have their space.
  const cell = (inner: string, pair = '  '): string => (numbered ? `${pair[0]}${inner.padStart(digits)}${pair[1]}` : `${pair[0]}${inner}`);
  return (
    <Box flexDirection="column">
      {rows.map((row, r) => {
        // Centring the triangle puts each coin between the two below it, as on paper.
        const indent = view.shape === 'triangle' ? ' '.repeat(Math.floor(((view.size - row.length) * cellW) / 2)) : '';
        return (
          <Text key={r}>
            {indent}
            {row.map((coin) => {
              const here = view.present[coin - 1] === true;
              const inner = here ? (numbered ? String(coin) : theme.glyph.coin) : last.has(coin) ? theme.glyph.takenCoin : theme.glyph.emptyCell;
              if (cursor && (cursor.at === coin || cursor.mark === coin || line.has(coin))) {
                const pair = cursor.at === coin ? theme.glyph.cursorPair : cursor.mark === coin ? theme.glyph.markPair : theme.glyph.linePair;
                return (
                  <Text key={coin} {...(cursor.legal ? theme.good : theme.bad)} bold inverse={cursor.at === coin || line.has(coin)} dimColor={!cursor.legal && cursor.at !== coin}>
                    {cell(inner, pair)}
                  </Text>
                );
              }
              if (here) return <Text key={coin} {...theme.coin}>{cell(inner)}</Text>;
              return last.has(coin) ? (
                <Text key={coin} {...theme.taken} bold>
                  {cell(inner)}
                </Text>
              ) : (
                <Text key={coin} {...theme.muted}>
                  {cell(inner)}
                </Text>
              );
            })}
          </Text>
        );
      })}
      <Text {...theme.muted}>
        {`${left} of ${total} coins left · ${turnText(view, names)}`}
        {view.lastTaken.length > 0 ? ` · last took ${rangeText(view.lastTaken)}` : ''}
        {view.scores ? ` · points ${names.first} ${view.scores[0]}, ${names.second} ${view.scores[1]}` : ''}
      </Text>
    </Box>
  );
}

/** `13-15` for a run of coins, `8` for one. */
function rangeText(coins: readonly number[]): string {
  const sorted = [...coins].sort((a, b) => a - b);
  return sorted.length === 1 ? String(sorted[0]) : `${sorted[0]}-${sorted[sorted.length - 1]}`;
}
