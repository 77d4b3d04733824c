import { Text } from 'ink';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly done: number;
  readonly total: number;
  /** Columns for the bar itself. */
  readonly width: number;
};

/** A bar of `width` cells, filled in proportion to done/total, with eighth-cell resolution. */
export function ProgressBar({ done, total, width }: Props) {
  const theme = useTheme();
  const frac = total > 0 ? Math.min(1, done / total) : 0;
  const full = Math.floor(frac * width);
  const partial = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'][Math.floor((frac * width - full) * 8)] ?? '';
  const empty = Math.max(0, width - full - (partial ? 1 : 0));
  return (
    <Text>
      <Text {...theme.good}>{theme.glyph.barFull.repeat(full) + partial}</Text>
      <Text {...theme.muted}>{theme.glyph.barEmpty.repeat(empty)}</Text>
    </Text>
  );
}
