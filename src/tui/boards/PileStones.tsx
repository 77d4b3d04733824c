import { Text } from 'ink';
import type { PileView } from './board-view.ts';
import { fmtInt, layoutStones, scaleNote } from '../text/layout.ts';
import { StoneRow } from './StoneRow.tsx';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly view: PileView;
  readonly width: number;
};

/** The stones of one pile and its count line (what was just taken, the glyph scale): shared by the one-pile boards. */
export function PileStones({ view, width }: Props) {
  const theme = useTheme();
  const note = scaleNote(layoutStones(view.pile, view.taken, width).scale, theme.glyph.stone);
  return (
    <>
      <StoneRow stones={view.pile} taken={view.taken} width={width} />
      <Text>
        <Text bold>{fmtInt(view.pile)}</Text> stone{view.pile === 1 ? '' : 's'}
        {view.taken > 0 ? <Text {...theme.taken}>{` (${fmtInt(view.taken)} just taken)`}</Text> : null}
        {note ? <Text {...theme.muted}>{` · ${note}`}</Text> : null}
      </Text>
    </>
  );
}
