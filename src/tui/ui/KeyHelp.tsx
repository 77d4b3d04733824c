import { Box, Text } from 'ink';
import type { Binding } from '../text/keys.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  /** Every key of the current screen, each with what it does here. */
  readonly keys: readonly (readonly [Binding, string])[];
};

/** The `?` overlay: every key of the current screen in one box (no box under `--plain`). */
export function KeyHelp({ keys }: Props) {
  const theme = useTheme();
  const width = Math.max(...keys.map(([b]) => b.label.length));
  return (
    <Box flexDirection="column" {...(theme.plain ? {} : { borderStyle: 'round' as const })} paddingX={1}>
      <Text bold>Keys</Text>
      {keys.map(([b, what]) => (
        <Text key={`${b.label} ${what}`}>
          <Text {...theme.accent}>{b.label.padEnd(width + 2)}</Text>
          {what}
        </Text>
      ))}
    </Box>
  );
}
