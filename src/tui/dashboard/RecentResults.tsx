import { Box, Text } from 'ink';
import type { GameRecord } from '../../arena/match.ts';
import { visible } from '../../core/text.ts';
import { resultText } from '../text/result-text.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly results: readonly GameRecord[];
  readonly max: number;
};

/** The latest finished games, newest first; forfeits are marked with the faulty bot, the kind and the reason. */
export function RecentResults({ results, max }: Props) {
  const theme = useTheme();
  if (results.length === 0) return <Text {...theme.muted}>no finished games yet</Text>;
  const shown = results.slice(-max).reverse();
  return (
    <Box flexDirection="column">
      {shown.map((r) => {
        const forfeit = r.faulty !== null;
        return (
          <Text key={r.key} wrap="truncate-end">
            <Text {...theme.muted}>{`#${r.index + 1} `}</Text>
            {`${r.seats.first} vs ${r.seats.second} ${resultText(r)}`}
            <Text {...theme.muted}>{` · ${r.variant}`}</Text>
            {forfeit ? (
              <Text {...theme.bad}>{` · ${theme.glyph.mistake} ${r.faulty ? r.seats[r.faulty] : '?'} forfeits: ${r.termination}${r.reason ? ` — ${visible(r.reason)}` : ''}`}</Text>
            ) : (
              <Text {...theme.muted}>{` · ${r.moves.length} moves`}</Text>
            )}
          </Text>
        );
      })}
    </Box>
  );
}
