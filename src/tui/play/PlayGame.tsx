import { Box, Text, type Key } from 'ink';
import { useMemo, useState } from 'react';
import { ArenaError } from '../../core/errors.ts';
import type { Seat } from '../../core/game.ts';
import { Board } from '../boards/Board.tsx';
import { boardView, outcomeText, pictureLines } from '../boards/board-view.ts';
import { footer, KEYS, type Binding } from '../text/keys.ts';
import { KeyHelp } from '../ui/KeyHelp.tsx';
import { fmtDuration } from '../text/layout.ts';
import { MoveList } from './MoveList.tsx';
import { Review } from '../review/Review.tsx';
import { useTheme } from '../text/theme.ts';
import { opponentName, type PlaySession } from '../../play/index.ts';
import { usePlay } from './use-play.ts';
import { previewTake, type CursorDir } from './coin-cursor.ts';
import { useCoinCursor } from './use-coin-cursor.ts';
import { hintFor, standingText } from '../review/verdicts.ts';
import { Explain } from '../review/Explain.tsx';
import { useKeys } from '../ui/use-keys.ts';
import { endingSentence } from '../../games/goals.ts';
import { goalFor } from '../../games/index.ts';
import { GoalHelp } from './GoalHelp.tsx';
import { MoveHistory } from './MoveHistory.tsx';
import { moveNote, plyText } from '../boards/board-view.ts';

/** The cursor direction of an arrow key (only called when one was pressed). */
function arrow(key: Key): CursorDir {
  return key.upArrow ? 'up' : key.downArrow ? 'down' : key.leftArrow ? 'left' : 'right';
}

/** What the player chose at the end of a game. */
export type PlayEnd = 'again' | 'quit';

type Props = {
  /** The game, open at the play table: this screen draws it and sends the human's moves. */
  readonly session: PlaySession;
  readonly width: number;
  /** Terminal rows: the review lists fewer moves on a short terminal. */
  readonly height?: number;
  readonly onEnd: (choice: PlayEnd) => void;
};

/**
 * One game against a bot: the board, the human's move list, the bot's replies with their thinking
 * time, hints (`h`), undo (`u`), and at the end the review and a choice to play again or quit. On the
 * coin board `c` swaps the list for a cursor over the coins: the arrows move it, space marks a line's
 * first coin, enter takes the line to the cursor, esc clears the mark or goes back to the list.
 */
export function PlayGame({ session, width, height = 40, onEnd }: Props) {
  const theme = useTheme();
  const { game, human, opponent } = session;
  const play = usePlay(session);
  const solver = useMemo(() => game.solver?.(), [game]);
  const [hints, setHints] = useState(false);
  const [explain, setExplain] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const names: Record<Seat, string> = human === 'first' ? { first: 'you', second: opponent.label } : { first: opponent.label, second: 'you' };
  const yourTurn = play.outcome === null && play.toMove === human && !play.thinking;
  const hint = useMemo(() => (hints && yourTurn ? hintFor(game, solver, play.state) : null), [hints, yourTurn, game, solver, play.state]);
  const good = hint?.ok && (hint.value > 0 || hint.scored) ? new Set(hint.best) : null;
  const view = boardView(game, play.state, play.prev);
  const cursor = useCoinCursor(view.kind === 'coins' ? view : null);
  const cursorOn = cursor.on && play.outcome === null;
  // The rules judge what the cursor points at: the line from the mark (or the cursor alone) to the cursor.
  const preview = useMemo(
    () => (cursorOn ? previewTake(game, play.state, play.moves, cursor.mark ?? cursor.at, cursor.at) : null),
    [cursorOn, game, play.state, play.moves, cursor.mark, cursor.at],
  );

  const takeAtCursor = (): void => {
    if (!preview || !yourTurn) return;
    if (preview.error !== null) {
      setError(preview.error);
      return;
    }
    session.play(preview.move);
    cursor.played();
    setError(null);
  };

  const [help, setHelp] = useState(false);
  // Every key of the screen as it is now: the move list, the coin cursor, or the end of the game.
  const keys: (readonly [Binding, string])[] =
    play.outcome !== null
      ? [[KEYS.again, 'play again'], [KEYS.explain, 'why your first mistake lost'], [KEYS.undo, 'take back your last move (and play on)'], [KEYS.help, 'show or hide this help'], [KEYS.quit, 'quit']]
      : [
          ...(cursorOn
            ? ([[KEYS.cursorMove, KEYS.cursorMove.help], [KEYS.mark, KEYS.mark.help], [KEYS.take, KEYS.take.help], [KEYS.unmark, KEYS.unmark.help]] as const)
            : ([[KEYS.up, 'and ↓ choose a move'], [KEYS.choose, KEYS.choose.help], [KEYS.typeMove, KEYS.typeMove.help], [KEYS.erase, KEYS.erase.help], [KEYS.clear, KEYS.clear.help]] as const)),
          ...(view.kind === 'coins' ? ([[KEYS.cursor, KEYS.cursor.help]] as const) : []),
          [KEYS.hints, KEYS.hints.help],
          [KEYS.explain, KEYS.explain.help],
          [KEYS.undo, KEYS.undo.help],
          [KEYS.help, 'show or hide this help'],
          [KEYS.quit, 'quit'],
        ];
  useKeys((input, key) => {
    if (KEYS.help.match(input, key)) setHelp((h) => !h);
    else if (KEYS.quit.match(input, key)) onEnd('quit');
    // Undo works after the end too: take back the losing move and play on.
    else if (KEYS.undo.match(input, key)) setError(session.undo() ? null : 'nothing to undo yet');
    else if (KEYS.explain.match(input, key)) setExplain((e) => !e);
    else if (play.outcome !== null) {
      if (KEYS.again.match(input, key)) onEnd('again');
    } else if (KEYS.hints.match(input, key)) setHints((h) => !h);
    else if (view.kind === 'coins' && KEYS.cursor.match(input, key)) {
      cursor.toggle();
      setError(null);
    } else if (cursorOn) {
      if (KEYS.cursorMove.match(input, key)) cursor.move(arrow(key));
      else if (KEYS.mark.match(input, key)) cursor.markHere();
      else if (KEYS.take.match(input, key)) takeAtCursor();
      else if (KEYS.unmark.match(input, key)) {
        cursor.back();
        setError(null);
      }
    }
  });

  const choose = (text: string): void => {
    try {
      session.play(game.parseMove(text, play.state));
      setError(null);
    } catch (err) {
      setError(err instanceof ArenaError ? err.message : String(err));
    }
  };

  // The footer's end while the game is on, under the move list and under the coin cursor alike.
  const footerTail = [
    [KEYS.hints, hints ? 'hide hints' : 'hints'],
    [KEYS.explain, explain ? 'hide why' : 'why'],
    [KEYS.undo, 'undo'],
    [KEYS.help, 'keys'],
    [KEYS.quit, 'quit'],
  ] as const;
  // Fit an 80×24 terminal: the move list gets the rows the board and the other lines leave.
  const boardRows = pictureLines(view, width - 4) + 4;
  const listRows = Math.max(3, Math.min(8, height - boardRows - 12));
  const goal = goalFor(game);
  // The rule that decided the game, unless a forfeit did: `You took the last coin: who takes the last coin loses`.
  const ending = play.outcome !== null && play.forfeit === null ? endingSentence(game, play.state, names) : null;
  // End Game's moves say only which end: the list says which number each takes.
  const notes = new Map<string, string>();
  for (const m of yourTurn ? play.moves : []) {
    const text = game.formatMove(m);
    const note = moveNote(game, play.state, text);
    if (note !== null) notes.set(text, note);
  }
  const lastBot = [...play.history].reverse().find((p) => p.seat !== human);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{game.title}</Text>
        <Text {...theme.muted}>{` · you play ${human} against ${opponentName(opponent)}`}</Text>
      </Text>
      <Text {...theme.muted} wrap="wrap">
        {goal.short}
      </Text>
      <Box marginY={1} paddingX={1} {...(theme.plain ? {} : { borderStyle: 'round' as const })} flexDirection="column">
        <Board
          game={game}
          state={play.state}
          prev={play.prev}
          width={width - 4}
          names={names}
          cursor={preview ? { at: cursor.at, mark: cursor.mark, legal: preview.error === null, line: preview.line } : undefined}
        />
      </Box>
      <MoveHistory game={game} plies={play.history} names={names} width={width} />
      {play.thinking ? <Text {...theme.accent}>{`${opponent.label} is thinking…`}</Text> : null}
      {lastBot && !play.thinking ? (
        <Text>
          <Text {...theme.them}>{opponent.label}</Text>
          {` played ${plyText(game, lastBot)}`}
          <Text {...theme.muted}>{` in ${fmtDuration(lastBot.ms)}`}</Text>
        </Text>
      ) : null}
      {error ? <Text {...theme.bad}>{error}</Text> : null}
      {help ? <GoalHelp goal={goal} /> : null}
      {help ? <KeyHelp keys={keys} /> : null}
      {hint ? (
        <Text>
          <Text {...theme.warn}>hint: </Text>
          {standingText(hint)}
          {hint.ok && hint.value > 0 && !hint.scored ? ` · winning moves: ${hint.best.join(', ')}` : ''}
          {hint.ok && hint.scored ? ` · best moves: ${hint.best.join(', ')}` : ''}
        </Text>
      ) : null}
      {explain && yourTurn ? <Explain game={game} state={play.state} title="your position" mover="you" /> : null}
      {play.outcome === null && preview ? (
        <>
          <Text>
            <Text bold>{yourTurn ? 'Your move: ' : 'Next move: '}</Text>
            <Text {...(preview.error === null ? theme.good : theme.bad)}>
              {`${preview.text} ${preview.error === null ? theme.glyph.ok : theme.glyph.mistake}`}
            </Text>
            <Text {...theme.muted}>{preview.error === null ? ` takes ${preview.line.join(', ')}` : ` ${preview.error}`}</Text>
            {good?.has(preview.text) ? <Text {...theme.good}>{` · ${solver?.scored ? 'best' : 'wins'}`}</Text> : null}
          </Text>
          <Text {...theme.muted}>
            {!yourTurn
              ? '(waiting for the reply)'
              : cursor.mark === null
                ? 'enter takes the coin under the cursor; space marks the first coin of a longer line'
                : `line from ${cursor.mark}: move to its last coin and press enter; esc clears the mark`}
          </Text>
          <Text {...theme.muted}>
            {footer(
              [KEYS.cursorMove, 'move'],
              [KEYS.mark, 'mark'],
              [KEYS.take, 'take'],
              [KEYS.unmark, cursor.mark === null ? 'move list' : 'clear mark'],
              ...footerTail,
            )}
          </Text>
        </>
      ) : play.outcome === null ? (
        <>
          {/* Always mounted, so keys typed while the bot replies are kept rather than lost. */}
          <MoveList
            moves={yourTurn ? play.moves.map((m) => game.formatMove(m)) : []}
            good={good}
            goodLabel={solver?.scored ? 'best' : 'wins'}
            onChoose={choose}
            active
            waiting={!yourTurn}
            limit={listRows}
            notes={notes}
          />
          <Text {...theme.muted}>
            {footer(
              ...(view.kind === 'coins' ? [[KEYS.cursor, 'cursor'] as const] : []),
              ...footerTail,
            )}
          </Text>
        </>
      ) : (
        <Box flexDirection="column">
          <Text bold {...(play.forfeit !== null || play.outcome.winner === human ? theme.good : play.outcome.winner === null ? theme.warn : theme.bad)}>
            {play.forfeit ?? 'Game over'}: {outcomeText(play.outcome, names)}
          </Text>
          {ending ? <Text wrap="wrap">{ending}</Text> : null}
          <Box marginY={1}>
            <Review game={game} solver={solver} plies={play.history} seat={human} names={names} maxLines={Math.max(3, height - boardRows - 12)} explain={explain} />
          </Box>
          {/* Keys only, no menu: an Enter pressed as the game ends must not skip the review. */}
          <Text bold>{footer([KEYS.again, 'play again'], [KEYS.explain, explain ? 'hide why' : 'why your first mistake lost'], [KEYS.undo, 'take back your last move'], [KEYS.help, 'keys'], [KEYS.quit, 'quit'])}</Text>
        </Box>
      )}
    </Box>
  );
}
