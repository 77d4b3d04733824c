import { Text } from 'ink';
import type { SprtResult } from '../../arena/summary.ts';
import { decisionText, sprtBar } from './sprt-text.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly result: SprtResult;
  readonly width: number;
};

/**
 * One pairing's sequential test: the LLR on a bar from the lower bound (H0 accepted) to the upper
 * one (H1 accepted), with `|` at zero, then the LLR, pairs and the decision once there is one.
 */
export function SprtBar({ result: r, width }: Props) {
  const theme = useTheme();
  const label = `SPRT ${r.a} vs ${r.b} `;
  const tail = ` LLR ${r.llr.toFixed(2)} (${r.lower.toFixed(2)}, ${r.upper.toFixed(2)}) · ${r.pairs} pairs · ${decisionText(r)}`;
  const barW = Math.max(5, Math.min(30, width - label.length - tail.length - 9)); // 8 for "H0 [" and "] H1"
  const paint = r.decision === 'H1' ? theme.good : r.decision === 'H0' ? theme.bad : theme.accent;
  return (
    <Text wrap="truncate-end">
      <Text {...theme.muted}>{label}</Text>
      <Text {...paint}>{sprtBar(r, barW)}</Text>
      <Text {...(r.decision ? paint : theme.muted)} bold={r.decision !== null}>
        {tail}
      </Text>
    </Text>
  );
}
