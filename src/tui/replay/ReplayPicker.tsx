import { Box, Text } from 'ink';
import { useMemo, useRef, useState } from 'react';
import type { GameRecord } from '../../arena/match.ts';
import { visible } from '../../core/text.ts';
import { footer, KEYS } from '../text/keys.ts';
import { windowAround } from '../text/layout.ts';
import { resultText } from '../text/result-text.ts';
import { useTheme } from '../text/theme.ts';
import { KeyHelp } from '../ui/KeyHelp.tsx';
import { moveCursor } from '../ui/list-cursor.ts';
import { useTerminalSize } from '../ui/Screen.tsx';
import { useKeys } from '../ui/use-keys.ts';

type Props = {
  readonly records: readonly GameRecord[];
  /** The highlighted game (index into `records`): kept by the caller, so the list comes back where it was. */
  readonly cursor: number;
  readonly onCursor: (index: number) => void;
  /** What is typed after `/`: games whose line holds every word of it are listed. */
  readonly filter: string;
  readonly onFilter: (filter: string) => void;
  readonly onOpen: (index: number) => void;
  readonly onQuit: () => void;
};

/** A logged game's line in the list: number, seats, result, variant, and how it ended when not by the rules. */
export function gameLabel(r: GameRecord): string {
  const end = r.faulty !== null ? ` · forfeit: ${r.termination}${r.reason ? ` (${r.reason})` : ''}` : r.termination === 'adjudicated' ? ' · adjudicated' : '';
  // The reason may quote a bot: control characters made visible.
  return visible(`#${r.index + 1} ${r.seats.first} vs ${r.seats.second} ${resultText(r)} · ${r.variant}${end}`);
}

/** The records whose line holds every word of `filter` (case ignored), as indices into `records`. */
export function filterGames(labels: readonly string[], filter: string): number[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const all = labels.map((_, i) => i);
  if (words.length === 0) return all;
  return all.filter((i) => {
    const line = labels[i]!.toLowerCase();
    return words.every((w) => line.includes(w));
  });
}

const PICKER_KEYS = [
  [KEYS.up, 'previous game (also k)'],
  [KEYS.down, 'next game (also j)'],
  [KEYS.pageUp, 'a page up'],
  [KEYS.pageDown, 'a page down'],
  [KEYS.start, 'first game (also g)'],
  [KEYS.end, 'last game (also G)'],
  [KEYS.filter, 'filter: type words (a bot, a variant, forfeit, timeout, crash…); enter keeps it, esc clears it'],
  [KEYS.choose, 'open the game'],
  [KEYS.help, 'show or hide this help'],
  [KEYS.quit, 'quit'],
] as const;

/** `arena replay`'s list of games: a cursor, pages, a filter, and the game under the cursor opened with enter. */
export function ReplayPicker({ records, cursor, onCursor, filter, onFilter, onOpen, onQuit }: Props) {
  const theme = useTheme();
  const { rows } = useTerminalSize();
  const [typing, setTyping] = useState(false);
  const [help, setHelp] = useState(false);
  const labels = useMemo(() => records.map(gameLabel), [records]);
  const shown = useMemo(() => filterGames(labels, filter), [labels, filter]);
  // The cursor's place among the games shown; a game the filter hides gives way to the first shown.
  const at = Math.max(0, shown.indexOf(cursor));
  const page = Math.max(3, Math.min(30, rows - 7 - (help ? PICKER_KEYS.length + 3 : 0)));

  // Keys read and write the latest cursor and filter, not this render's: keys typed faster than
  // the screen redraws (a burst, a paste) each apply, in order.
  const latest = useRef({ cursor, filter, typing });
  latest.current = { cursor, filter, typing };
  const setLatest = (next: Partial<typeof latest.current>): void => {
    latest.current = { ...latest.current, ...next };
    if (next.cursor !== undefined) onCursor(next.cursor);
    if (next.filter !== undefined) onFilter(next.filter);
    if (next.typing !== undefined) setTyping(next.typing);
  };
  useKeys((input, key) => {
    const now = latest.current;
    const games = filterGames(labels, now.filter);
    const place = Math.max(0, games.indexOf(now.cursor));
    const moved = moveCursor(place, games.length, page, now.typing ? '' : input, key);
    if (moved !== null) {
      if (games.length > 0) setLatest({ cursor: games[moved]! });
      return;
    }
    if (key.return) {
      if (now.typing) setLatest({ typing: false });
      else if (games.length > 0) onOpen(games[place]!);
      return;
    }
    if (now.typing) {
      if (key.escape) setLatest({ typing: false, filter: '' });
      else if (key.backspace || key.delete) setLatest({ filter: now.filter.slice(0, -1) });
      else if (!key.ctrl && !key.meta && input !== '' && !/[\u0000-\u001F\u007F]/.test(input)) setLatest({ filter: now.filter + input });
      else if (KEYS.quit.match(input, key)) onQuit(); // ctrl-c
      return;
    }
    if (KEYS.filter.match(input, key)) setLatest({ typing: true });
    else if (key.escape && now.filter !== '') setLatest({ filter: '' });
    else if (KEYS.help.match(input, key)) setHelp((h) => !h);
    else if (KEYS.quit.match(input, key)) onQuit();
  });

  const [from, to] = windowAround(shown.length, at, page);
  return (
    <Box flexDirection="column">
      <Text bold>
        {`Which game? (${records.length} in the log`}
        {filter !== '' || typing ? `, ${shown.length} shown` : ''})
      </Text>
      {filter !== '' || typing ? (
        <Text>
          <Text {...theme.muted}>filter: </Text>
          {filter}
          {typing ? <Text inverse> </Text> : null}
        </Text>
      ) : null}
      {shown.length === 0 ? <Text {...theme.muted}>no game matches the filter (esc clears it)</Text> : null}
      {from > 0 ? <Text {...theme.muted}>{`  ↑ ${from} more`}</Text> : null}
      {shown.slice(from, to).map((i) => (
        <Text key={i} wrap="truncate-end" {...(i === shown[at] ? theme.accent : {})} bold={i === shown[at] && !theme.color}>
          {`${i === shown[at] ? theme.glyph.pointer : ' '} ${labels[i]}`}
        </Text>
      ))}
      {to < shown.length ? <Text {...theme.muted}>{`  ↓ ${shown.length - to} more`}</Text> : null}
      {help ? <KeyHelp keys={PICKER_KEYS} /> : null}
      <Text {...theme.muted} wrap="truncate-end">
        {typing
          ? footer([KEYS.choose, 'keep the filter'], [KEYS.clear, 'clear it'])
          : footer([KEYS.up, 'and ↓ choose'], [KEYS.pageDown, 'pages'], [KEYS.filter, 'filter'], [KEYS.choose, 'open'], [KEYS.help, 'keys'], [KEYS.quit, 'quit'])}
      </Text>
    </Box>
  );
}
