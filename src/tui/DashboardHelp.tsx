import { Box, Text } from 'ink';
import { KEYS } from './keys.ts';
import { useTheme } from './theme.ts';

type Props = { readonly pauseWorks: boolean };

/** The dashboard's keys, from the one key table. */
export function DashboardHelp({ pauseWorks }: Props) {
  const theme = useTheme();
  const rows = [KEYS.nextView, KEYS.view, KEYS.pause, KEYS.quit, KEYS.help];
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys</Text>
      {rows.map((b) => (
        <Text key={b.label}>
          <Text {...theme.accent}>{b.label.padEnd(10)}</Text>
          {b === KEYS.pause && !pauseWorks ? 'freeze or unfreeze the display (games go on)' : b.help}
        </Text>
      ))}
    </Box>
  );
}
