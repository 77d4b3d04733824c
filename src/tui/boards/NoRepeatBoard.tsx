import { Box, Text } from 'ink';
import { turnText, type BoardProps, type PileView } from './board-view.ts';
import { PileStones } from './PileStones.tsx';
import { useTheme } from '../text/theme.ts';

/** One pile where a take may not repeat the opponent's last take: the forbidden amount is struck out. */
export function NoRepeatBoard({ view, width, names }: BoardProps<PileView>) {
  const theme = useTheme();
  const forbidden = view.forbidden ?? null;
  return (
    <Box flexDirection="column">
      <PileStones view={view} width={width} />
      <Text>
        <Text {...theme.muted}>{turnText(view, names)}{view.over ? '' : ' · takes '}</Text>
        {view.over ? null : view.takes.map((t, i) => (
          <Text key={t}>
            {i > 0 ? ', ' : ''}
            {t === forbidden ? (
              <Text {...theme.bad} strikethrough>
                {String(t)}
              </Text>
            ) : (
              <Text {...theme.muted}>{String(t)}</Text>
            )}
          </Text>
        ))}
      </Text>
      <Text {...(forbidden === null ? theme.muted : theme.warn)}>
        {forbidden === null ? 'nothing forbidden (first move is free)' : `may not take ${forbidden} (the opponent just took it)`}
      </Text>
    </Box>
  );
}
