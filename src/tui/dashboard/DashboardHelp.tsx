import { Box, Text } from 'ink';
import { KEYS } from '../text/keys.ts';
import { useTheme } from '../text/theme.ts';
import { standingsLegend } from './StandingsTable.tsx';

type Props = {
  readonly pauseWorks: boolean;
  /** The tournament has ended: no pause; `q` closes the dashboard. */
  readonly finished?: boolean;
};

/** Every key of the dashboard as it is now, from the one key table. */
export function DashboardHelp({ pauseWorks, finished = false }: Props) {
  const theme = useTheme();
  const rows = [KEYS.nextView, KEYS.prevView, KEYS.view, ...(finished ? [] : [KEYS.pause]), KEYS.quit, KEYS.help];
  return (
    <Box flexDirection="column" {...(theme.plain ? {} : { borderStyle: 'round' as const })} paddingX={1}>
      <Text bold>Keys</Text>
      {rows.map((b) => (
        <Text key={b.label}>
          <Text {...theme.accent}>{b.label.padEnd(10)}</Text>
          {b === KEYS.pause && !pauseWorks ? 'freeze or unfreeze the display (games go on)' : b === KEYS.quit && finished ? 'close the dashboard' : b.help}
        </Text>
      ))}
      <Text>
        <Text {...theme.accent}>{'↑↓ pgup pgdn'.padEnd(14)}</Text>
        results view: choose a game, enter opens it (l goes back)
      </Text>
      <Text bold>Marks</Text>
      <Text wrap="wrap">{standingsLegend(theme.color)}</Text>
      <Text wrap="wrap">{`results: ${theme.glyph.mistake} a forfeit, with the bot at fault and why`}</Text>
    </Box>
  );
}
