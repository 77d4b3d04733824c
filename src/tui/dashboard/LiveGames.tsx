import { Box, Text } from 'ink';
import type { AnyGame } from '../../core/game.ts';
import { pictureLines, viewFromJson, type BoardView } from '../boards/board-view.ts';
import { BoardPicture } from '../boards/BoardPicture.tsx';
import type { LiveBoard } from './dashboard-store.ts';
import { fmtDuration } from '../text/layout.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly games: readonly LiveBoard[];
  /** The Game of a variant id (cached by the caller), or undefined when it cannot be built. */
  readonly gameOf: (variant: string) => AnyGame | undefined;
  readonly width: number;
  /** Lines available: boards are added while they fit, so the dashboard never outgrows the terminal. */
  readonly height: number;
};

/** The games in flight, each as its board picture with the two bots, whose turn, and the last move with its time. */
export function LiveGames({ games, gameOf, width, height }: Props) {
  const theme = useTheme();
  if (games.length === 0) return <Text {...theme.muted}>no games in flight</Text>;
  // Two columns when each still has room for a readable board.
  const cols = width >= 100 ? 2 : 1;
  const boxW = Math.floor(width / cols);
  const views = games.map((g) => {
    const game = gameOf(g.variant);
    const toMove = g.position.toMove ?? 'first';
    const view: BoardView = game
      ? viewFromJson(game, g.position.state, g.prevState, toMove, g.position.text)
      : { kind: 'text', text: g.position.text, toMove };
    return view;
  });
  // Fill rows of `cols` boxes while they fit; a row is as tall as its tallest box (+4: title, last move, border).
  let used = 1; // the "… more in flight" line
  let count = 0;
  while (count < games.length) {
    const row = views.slice(count, count + cols);
    const rowH = Math.max(...row.map((v) => pictureLines(v, boxW - 4) + 4));
    if (used + rowH > height && count > 0) break;
    used += rowH;
    count += row.length;
  }
  const shown = games.slice(0, count);
  return (
    <Box flexDirection="column">
      <Box flexWrap="wrap" width={width}>
        {shown.map((g, i) => {
          const view = views[i]!;
          return (
            <Box key={g.key} width={boxW} flexDirection="column" {...(theme.plain ? {} : { borderStyle: 'round' as const })} paddingX={1}>
              <Text wrap="truncate-end">
                <Text bold>{`#${g.index + 1} `}</Text>
                <Text {...theme.you}>{g.seats.first}</Text>
                <Text {...theme.muted}> vs </Text>
                <Text {...theme.them}>{g.seats.second}</Text>
                <Text {...theme.muted}>{` · ${g.variant}${g.worker !== undefined ? ` · on ${g.worker}` : ''}`}</Text>
              </Text>
              <BoardPicture view={view} width={boxW - 4} names={g.seats} />
              <Text {...theme.muted} wrap="truncate-end">
                {g.last ? `ply ${g.ply}: ${g.last.bot} played ${g.last.move} in ${fmtDuration(g.last.ms)}` : 'start'}
                {g.position.toMoveBot ? ` · ${g.position.toMoveBot} to move` : ''}
              </Text>
            </Box>
          );
        })}
      </Box>
      {games.length > shown.length ? <Text {...theme.muted}>{`… and ${games.length - shown.length} more in flight`}</Text> : null}
    </Box>
  );
}
