import { Box, Text } from 'ink';
import type { GameRecord } from '../../arena/match.ts';
import { visible } from '../../core/text.ts';
import { windowAround } from '../text/layout.ts';
import { wrapLines } from '../text/wrap-lines.ts';
import { resultText } from '../text/result-text.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  /** Finished games, newest last. */
  readonly results: readonly GameRecord[];
  /** Lines for the list, and its width. */
  readonly max: number;
  readonly width: number;
  /** The highlighted game (its schedule index), or null for the newest. */
  readonly selected: number | null;
  /** The results folder, for the command that replays the highlighted game later. */
  readonly dir: string;
  /** A command line in the CLI's words. */
  readonly command: (words: readonly string[]) => string;
};

/** The finished games newest first, as a list the cursor scrolls through, and each game's place in a results view. */
export function resultsOrder(results: readonly GameRecord[]): GameRecord[] {
  return results.slice().reverse();
}

/** Where the highlighted game is in `resultsOrder` (0, the newest, when it is not there). */
export function selectedPlace(shown: readonly GameRecord[], selected: number | null): number {
  return selected === null ? 0 : Math.max(0, shown.findIndex((r) => r.index === selected));
}

/**
 * The latest finished games, newest first, with a cursor (↑↓, PgUp/PgDn, Home/End); forfeits are
 * marked with the faulty bot, the kind and the reason. Under the list: how to open the game under
 * the cursor, here and later (`arena replay DIR --game N`).
 */
export function RecentResults({ results, max, width, selected, dir, command }: Props) {
  const theme = useTheme();
  if (results.length === 0) return <Text {...theme.muted}>no finished games yet</Text>;
  const shown = resultsOrder(results);
  const at = selectedPlace(shown, selected);
  const pick = shown[at]!;
  const later = `later: ${command(['replay', dir, '--game', String(pick.index + 1)])}`;
  // The list, the lines above and below it, the keys, and the command (wrapped, never cut) fit in `max`.
  const [from, to] = windowAround(shown.length, at, Math.max(1, max - 3 - wrapLines(later, Math.max(1, width)).length));
  return (
    <Box flexDirection="column">
      <Text {...theme.muted}>{from > 0 ? `↑ ${from} newer` : ' '}</Text>
      {shown.slice(from, to).map((r) => {
        const forfeit = r.faulty !== null;
        const here = r === pick;
        return (
          <Text key={r.key} wrap="truncate-end" inverse={here}>
            <Text {...(here ? {} : theme.muted)}>{`${here ? theme.glyph.pointer : ' '} #${r.index + 1} `}</Text>
            {`${r.seats.first} vs ${r.seats.second} ${resultText(r)}`}
            <Text {...theme.muted}>{` · ${r.variant}`}</Text>
            {forfeit ? (
              <Text {...theme.bad}>{` · ${theme.glyph.mistake} ${r.faulty ? r.seats[r.faulty] : '?'} forfeits: ${r.termination}${r.reason ? ` — ${visible(r.reason)}` : ''}`}</Text>
            ) : (
              <Text {...theme.muted}>{` · ${r.moves.length} moves`}</Text>
            )}
          </Text>
        );
      })}
      <Text {...theme.muted}>{to < shown.length ? `↓ ${shown.length - to} older (the oldest are in games.jsonl)` : ' '}</Text>
      <Text {...theme.muted} wrap="truncate-end">{`↑↓ pgup pgdn home end: choose · enter: open #${pick.index + 1} here`}</Text>
      {/* A command is never cut: it wraps. */}
      <Text {...theme.muted}>{later}</Text>
    </Box>
  );
}
