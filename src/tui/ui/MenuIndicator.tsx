import { Box, Text } from 'ink';
import { useTheme } from '../text/theme.ts';

type Props = { readonly isSelected?: boolean };

/** The pointer beside the selected menu line, in the theme's colours. */
export function MenuIndicator({ isSelected = false }: Props) {
  const theme = useTheme();
  return <Box marginRight={1}>{isSelected ? <Text {...theme.accent}>{theme.glyph.pointer}</Text> : <Text> </Text>}</Box>;
}
