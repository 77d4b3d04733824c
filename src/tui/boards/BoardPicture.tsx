import { Box, Text } from 'ink';
import type { BoardProps } from './board-view.ts';
import type { CoinCursor } from './coin-grid.ts';
import { CoinsBoard } from './CoinsBoard.tsx';
import { EndGameBoard } from './EndGameBoard.tsx';
import { NoRepeatBoard } from './NoRepeatBoard.tsx';
import { PartizanBoard } from './PartizanBoard.tsx';
import { PilesBoard } from './PilesBoard.tsx';
import { SubtractionBoard } from './SubtractionBoard.tsx';

type Props = BoardProps & {
  /** Play's cursor over the coin board (other pictures have none). */
  readonly cursor?: CoinCursor | undefined;
};

/** The picture of a position's view data, by family. */
export function BoardPicture({ view, width, names, cursor }: Props) {
  const w = Math.max(10, width);
  switch (view.kind) {
    case 'pile':
      if (view.family === 'no-repeat') return <NoRepeatBoard view={view} width={w} names={names} />;
      if (view.family === 'partizan') return <PartizanBoard view={view} width={w} names={names} />;
      return <SubtractionBoard view={view} width={w} names={names} />;
    case 'piles':
      return <PilesBoard view={view} width={w} names={names} />;
    case 'coins':
      return <CoinsBoard view={view} width={w} names={names} cursor={cursor} />;
    case 'end-game':
      return <EndGameBoard view={view} width={w} names={names} />;
    case 'text':
      // Each line cut at the width on its own: a board of rows stays a board of rows.
      return (
        <Box flexDirection="column">
          {view.text.split('\n').map((line, i) => (
            <Text key={i} wrap="truncate-end">
              {line}
            </Text>
          ))}
        </Box>
      );
  }
}
