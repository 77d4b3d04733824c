import { Text } from 'ink';
import { useTheme } from '../text/theme.ts';

type Props = { readonly isSelected?: boolean; readonly label: string };

/** A menu line in the theme's colours (none under NO_COLOR; bold marks the selection then). */
export function MenuItem({ isSelected = false, label }: Props) {
  const theme = useTheme();
  return (
    <Text {...(isSelected ? theme.accent : {})} bold={isSelected && !theme.color}>
      {label}
    </Text>
  );
}
