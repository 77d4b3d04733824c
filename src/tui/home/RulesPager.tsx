import { Box, Text } from 'ink';
import { useMemo, useRef, useState } from 'react';
import { footer, KEYS } from '../text/keys.ts';
import { useTheme } from '../text/theme.ts';
import { moveCursor } from '../ui/list-cursor.ts';
import { useTerminalSize } from '../ui/Screen.tsx';
import { useKeys } from '../ui/use-keys.ts';
import type { RulesSection } from './rules.ts';
import { wrapLines } from '../text/wrap-lines.ts';

type Props = {
  readonly section: RulesSection;
  /** Lines of the screen the pager may not use (the menu's title above it). */
  readonly reserved: number;
};

/** One part of the rulebook, a screen at a time: ↑↓ a line, PgUp/PgDn a page, Home/End. */
export function RulesPager({ section, reserved }: Props) {
  const theme = useTheme();
  const { columns, rows } = useTerminalSize();
  const lines = useMemo(() => wrapLines(section.text, Math.max(20, columns - 2)), [section.text, columns]);
  const page = Math.max(3, rows - reserved - 4);
  const [top, setTop] = useState(0);
  const latest = useRef(top); // keys faster than the redraw each apply
  latest.current = top;
  const lastTop = Math.max(0, lines.length - page);
  useKeys((input, key) => {
    const moved = moveCursor(latest.current, lastTop + 1, page, input, key);
    if (moved !== null) setTop((latest.current = moved));
  });
  const shown = lines.slice(top, top + page);
  return (
    <Box flexDirection="column">
      <Text bold>{section.title}</Text>
      {shown.map((l, i) => (
        <Text key={top + i}>{l === '' ? ' ' : l}</Text>
      ))}
      <Text {...theme.muted}>
        {lines.length > page ? `lines ${top + 1}–${Math.min(lines.length, top + page)} of ${lines.length} · ` : ''}
        {footer([KEYS.up, '↓ scroll'], [KEYS.pageDown, 'pgup pages'], [KEYS.clear, 'back to the games'], [KEYS.quit, 'quit'])}
      </Text>
    </Box>
  );
}
