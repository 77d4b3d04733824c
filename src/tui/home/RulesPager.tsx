import { Box, Text } from 'ink';
import { useMemo, useRef, useState } from 'react';
import { footer, KEYS } from '../text/keys.ts';
import { useTheme } from '../text/theme.ts';
import { moveCursor } from '../ui/list-cursor.ts';
import { useTerminalSize } from '../ui/Screen.tsx';
import { useKeys } from '../ui/use-keys.ts';
import type { RulesSection } from './rules.ts';

type Props = {
  readonly section: RulesSection;
  /** Lines of the screen the pager may not use (the menu's title above it). */
  readonly reserved: number;
};

/** Splits text into lines of at most `width` columns at spaces, keeping its own line breaks and indents. */
export function wrapLines(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const indent = /^\s*(?:[-*] |\d+\. )?/.exec(line)![0].length;
    let rest = line;
    while (rest.length > width) {
      const cut = rest.lastIndexOf(' ', width);
      const at = cut > indent ? cut : width;
      out.push(rest.slice(0, at));
      rest = ' '.repeat(Math.min(indent, width / 2)) + rest.slice(at).trimStart();
    }
    out.push(rest);
  }
  return out;
}

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
