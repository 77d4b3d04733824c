import { TextInput } from '@inkjs/ui';
import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import { ArenaError } from '../../core/errors.ts';
import type { AnyFamily, AnyGame } from '../../core/game.ts';
import { createVariant, formatParamValue } from '../../core/params.ts';
import { visible } from '../../core/text.ts';
import { useTheme } from '../text/theme.ts';
import { opponentName, opponentWords, plays, type FirstMover, type Opponent, type PlayChoice } from '../../play/index.ts';
import { useWidth } from '../ui/use-width.ts';
import { Menu } from '../ui/Menu.tsx';
import { useKeys, useKeysEnabled } from '../ui/use-keys.ts';

/** What the setup menus choose from, and the choices the command line already made (their menus are skipped). */
export type SetupChoices = {
  readonly families: readonly AnyFamily[];
  /** Every bot the player may choose, with default options. */
  readonly opponents: readonly Opponent[];
  readonly game?: AnyGame;
  readonly opponent?: Opponent;
  readonly first?: FirstMover;
};

type Props = SetupChoices & { readonly onDone: (choice: PlayChoice) => void };

type Step = 'family' | 'param' | 'typing' | 'opponent' | 'first';

/** `text` in lines of at most `width` columns, broken between words (a longer word stands alone). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/**
 * Menu entries of two columns: a name (`optimal (easy)`, a family id) and what it is in words,
 * wrapped under itself so the column stays straight at any width. Both made visible (a bot's
 * texts are other people's).
 */
function columnItems(rows: readonly { readonly name: string; readonly words: string; readonly value: string }[], width: number): { key: string; label: string; value: string }[] {
  const nameWidth = Math.min(24, Math.max(...rows.map((r) => r.name.length)));
  // The menu's pointer and its margin take two columns; two more part the name from its words.
  const room = Math.max(20, width - 2 - nameWidth - 2);
  const indent = ' '.repeat(nameWidth + 2);
  return rows.map((r) => ({
    key: r.value,
    label: `${visible(r.name).padEnd(nameWidth)}  ${wrapWords(visible(r.words), room).join(`\n${indent}`)}`,
    value: r.value,
  }));
}

/**
 * The menus of `arena play` with no variant: the family, each parameter (its default first, then
 * its choices, or a typed value checked against the family's schema), the opponent among the bots
 * that support the variant, and who moves first.
 */
export function PlaySetup({ families, opponents, game: given, opponent: givenOpp, first: givenFirst, onDone }: Props) {
  const theme = useTheme();
  const keysEnabled = useKeysEnabled();
  const width = useWidth();
  const [family, setFamily] = useState<AnyFamily | null>(null);
  const [raw, setRaw] = useState<Record<string, unknown>>({});
  const [paramIndex, setParamIndex] = useState(0);
  const [game, setGame] = useState<AnyGame | null>(given ?? null);
  const [opponent, setOpponent] = useState<Opponent | null>(givenOpp ?? null);
  const [error, setError] = useState<string | null>(null);
  const [typing, setTyping] = useState(false);

  const finish = (g: AnyGame, o: Opponent | null, f: FirstMover | undefined): void => {
    if (o && f) onDone({ game: g, opponent: o, first: f });
  };

  const step: Step = !game ? (!family ? 'family' : typing ? 'typing' : 'param') : !opponent ? 'opponent' : 'first';
  const paramNames = family ? Object.keys(family.params) : [];
  const paramName = paramNames[paramIndex];
  const spec = family && paramName !== undefined ? family.params[paramName] : undefined;

  const acceptParam = (value: unknown): void => {
    if (!family || paramName === undefined) return;
    const next = value === undefined ? raw : { ...raw, [paramName]: value };
    if (value !== undefined && spec && !spec.schema.safeParse(value).success) {
      setError(`Expected \`${paramName}\` to be ${spec.expected}, got ${JSON.stringify(value)}`);
      return;
    }
    setError(null);
    setTyping(false);
    setRaw(next);
    if (paramIndex + 1 < paramNames.length) {
      setParamIndex(paramIndex + 1);
      return;
    }
    try {
      const g = createVariant(family, next);
      setGame(g);
      finish(g, opponent, givenFirst);
    } catch (err) {
      // A cross-field check failed: start the parameters over with the message on screen.
      setError(err instanceof ArenaError ? err.message : String(err));
      setRaw({});
      setParamIndex(0);
    }
  };

  // Esc goes back one step (from the first, it leaves); q leaves; in a typed value Esc returns to the choices.
  const { exit } = useApp();
  const startOver = (): void => {
    setGame(null);
    setRaw({});
    setParamIndex(0);
  };
  const back = (): void => {
    setError(null);
    if (step === 'first' && !givenOpp) setOpponent(null);
    else if ((step === 'first' || step === 'opponent') && !given) startOver();
    else if (step === 'param' && paramIndex > 0) setParamIndex(paramIndex - 1);
    else if (step === 'param') setFamily(null);
    else exit();
  };
  useKeys((input, key) => {
    if (step === 'typing') {
      if (key.escape) {
        setError(null);
        setTyping(false);
      }
      return;
    }
    if (input === 'q' && !key.ctrl && !key.meta) exit();
    else if (key.escape) back();
  });

  const title = (text: string) => <Text bold>{text}</Text>;
  return (
    <Box flexDirection="column">
      {game ? <Text {...theme.muted}>{`game: ${game.id}`}</Text> : family ? <Text {...theme.muted}>{`family: ${family.id}`}</Text> : null}
      {opponent ? <Text {...theme.muted}>{`opponent: ${opponentName(opponent)}`}</Text> : null}
      {error ? <Text {...theme.bad}>{error}</Text> : null}
      {step === 'family' ? (
        <>
          {title('Which game?')}
          <Menu
            items={columnItems(families.map((f) => ({ name: f.id, words: f.title, value: f.id })), width)}
            onSelect={(value) => setFamily(families.find((f) => f.id === value) ?? null)}
          />
        </>
      ) : null}
      {step === 'param' && spec && paramName !== undefined ? (
        <>
          {title(visible(`${paramName}: ${spec.description}`))}
          <Menu
            key={paramName}
            items={[
              ...(spec.default !== undefined
                ? [{ key: 'default', label: `${formatParamValue(spec.default)} (default)`, value: 'default' }]
                : []),
              ...(spec.choices ?? [])
                .filter((c) => spec.default === undefined || c !== formatParamValue(spec.default))
                .map((c) => ({ key: `choice-${c}`, label: c, value: `choice:${c}` })),
              ...(spec.optional && spec.default === undefined ? [{ key: 'skip', label: '(leave out)', value: 'default' }] : []),
              { key: 'type', label: 'type a value…', value: 'type' },
            ]}
            onSelect={(value) => {
              if (value === 'default') acceptParam(undefined);
              else if (value === 'type') setTyping(true);
              else acceptParam(value.slice('choice:'.length));
            }}
          />
        </>
      ) : null}
      {step === 'typing' && spec && paramName !== undefined ? (
        <>
          {title(`${paramName}: ${spec.expected}`)}
          <TextInput isDisabled={!keysEnabled} key={paramName} placeholder={spec.default !== undefined ? formatParamValue(spec.default) : ''} onSubmit={(v) => acceptParam(v.trim() === '' ? undefined : v.trim())} />
        </>
      ) : null}
      {step === 'opponent' && game ? (
        <>
          {title('Which bot do you play?')}
          <Menu
            items={columnItems(
              opponents.filter((o) => plays(o, game)).map((o) => ({ name: opponentName(o), words: opponentWords(o), value: o.label })),
              width,
            )}
            onSelect={(value) => {
              const o = opponents.find((x) => x.label === value) ?? null;
              setOpponent(o);
              if (o) finish(game, o, givenFirst);
            }}
          />
        </>
      ) : null}
      {step === 'first' && game && opponent && !givenFirst ? (
        <>
          {title('Who moves first?')}
          <Menu
            items={[
              { label: 'I move first', value: 'me' as const },
              { label: `${opponentName(opponent)} moves first`, value: 'bot' as const },
            ]}
            onSelect={(value) => finish(game, opponent, value)}
          />
        </>
      ) : null}
      <Text {...theme.muted}>{step === 'typing' ? 'enter accept · esc back to the choices' : `↑↓ choose · enter pick · ${step === 'family' ? 'q or esc quit' : 'esc back · q quit'}`}</Text>
    </Box>
  );
}
