import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import { KEYS, MOVE_CHAR } from '../text/keys.ts';
import { windowAround } from '../text/layout.ts';
import { useTheme } from '../text/theme.ts';
import { useKeys } from '../ui/use-keys.ts';

type Props = {
  /** The legal moves in notation, in the game's order. */
  readonly moves: readonly string[];
  /** Moves to mark as winning (hints on), or null to mark none. */
  readonly good: ReadonlySet<string> | null;
  /** Word beside a marked move: `wins`, or `best` in scored games. */
  readonly goodLabel?: string;
  /** Called with the chosen move's text: a listed move, or what was typed (the game parses it). */
  readonly onChoose: (text: string) => void;
  /** Keys go to the list only while it is active. */
  readonly active: boolean;
  /**
   * True while the other side moves: typing still goes into the box (type-ahead, and no keystroke
   * is lost while the list re-renders), but enter waits.
   */
  readonly waiting?: boolean;
  /** Rows of moves shown at once. */
  readonly limit?: number;
  /** A word beside a move where its notation does not say what it takes (End Game: `takes 9`). */
  readonly notes?: ReadonlyMap<string, string>;
};

/**
 * The human's move: a list of the legal moves to pick with the arrows and enter, which typing
 * filters (`2:` narrows to pile 2); enter on typed text the list does not hold (a coin line typed
 * as `15-13`) hands it to the game's parser.
 */
export function MoveList({ moves, good, goodLabel = 'wins', onChoose, active, waiting = false, limit = 8, notes }: Props) {
  const theme = useTheme();
  // What was typed and the highlighted row live in a ref that each key updates at once, and a render
  // follows: a key that comes before React has re-rendered (a burst, a loaded machine) still sees the
  // keys before it, never the state of an older frame.
  const [, rendered] = useState(0);
  const input = useRef({ typed: '', index: 0 });
  const set = (typed: string, index: number): void => {
    input.current = { typed, index };
    rendered((n) => n + 1);
  };
  const view = (typed: string, index: number) => {
    const needle = typed.toLowerCase();
    const shown = needle === '' ? moves : moves.filter((m) => m.toLowerCase().startsWith(needle));
    return { needle, shown, at: Math.min(index, Math.max(0, shown.length - 1)) };
  };
  const { typed } = input.current;
  const { shown, at } = view(typed, input.current.index);

  useKeys(
    (text, key) => {
      const { typed } = input.current;
      const { needle, shown, at } = view(typed, input.current.index);
      if (KEYS.up.match(text, key)) set(typed, Math.max(0, at - 1));
      else if (KEYS.down.match(text, key)) set(typed, Math.min(shown.length - 1, at + 1));
      else if (KEYS.erase.match(text, key)) set(typed.slice(0, -1), 0);
      else if (KEYS.clear.match(text, key)) set('', 0);
      else if (KEYS.choose.match(text, key)) {
        if (waiting) return;
        const exact = shown.find((m) => m.toLowerCase() === needle);
        const pick = exact ?? (shown.length > 0 ? shown[at] : typed);
        if (pick === undefined || pick === '') return;
        set('', 0);
        onChoose(pick);
      } else if (!key.ctrl && !key.meta && [...text].every((ch) => MOVE_CHAR.test(ch)) && text !== '') {
        // Pasted text arrives as one input; keep it whole.
        set(typed + text, 0);
      }
    },
    { isActive: active },
  );

  const [from, to] = windowAround(shown.length, at, limit);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{waiting ? 'Next move: ' : 'Your move: '}</Text>
        <Text {...theme.accent}>{typed}</Text>
        <Text {...theme.muted}>{waiting ? ' (waiting for the reply)' : typed === '' ? '(↑↓ enter, or type it)' : '▏'}</Text>
      </Text>
      {waiting ? null : shown.length === 0 ? (
        <Text {...theme.muted}>{`no listed move starts with "${typed}" — enter tries it as typed`}</Text>
      ) : null}
      {!waiting && from > 0 ? <Text {...theme.muted}>{`  ↑ ${from} more`}</Text> : null}
      {(waiting ? [] : shown.slice(from, to)).map((m, i) => {
        const selected = from + i === at;
        const mark = good?.has(m) ? ` ${theme.glyph.ok} ${goodLabel}` : '';
        return (
          <Text key={m} {...(selected ? theme.accent : {})} bold={selected}>
            {selected ? `${theme.glyph.pointer} ` : '  '}
            {m}
            {notes?.has(m) ? <Text {...theme.muted}>{` ${notes.get(m)!}`}</Text> : null}
            {mark ? <Text {...theme.good}>{mark}</Text> : null}
          </Text>
        );
      })}
      {!waiting && to < shown.length ? <Text {...theme.muted}>{`  ↓ ${shown.length - to} more`}</Text> : null}
    </Box>
  );
}
