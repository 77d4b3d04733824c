import { TextInput } from '@inkjs/ui';
import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import { ArenaError } from '../../core/errors.ts';
import type { AnyFamily, AnyGame } from '../../core/game.ts';
import { createVariant, formatParamValue } from '../../core/params.ts';
import { visible } from '../../core/text.ts';
import { useTheme } from '../text/theme.ts';
import { plays, type FirstMover, type Opponent, type PlayChoice } from '../../play/index.ts';
import { Menu } from '../ui/Menu.tsx';
import { STRENGTH_LEVELS } from '../../strategies/index.ts';
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

/** The menu line of an opponent at a strength below perfect: `easy: the best move 30% of the time, else a random one`. */
function levelText(o: Opponent): string | null {
  const p = o.options['strength'];
  if (typeof p !== 'number' || p >= 1) return null;
  const level = Object.entries(STRENGTH_LEVELS).find(([, v]) => v === p)?.[0] ?? `strength ${p}`;
  return `${level}: the best move ${Math.round(p * 100)}% of the time, else a random legal one`;
}

/**
 * The menus of `arena play` with no variant: the family, each parameter (its default first, then
 * its choices, or a typed value checked against the family's schema), the opponent among the bots
 * that support the variant, and who moves first.
 */
export function PlaySetup({ families, opponents, game: given, opponent: givenOpp, first: givenFirst, onDone }: Props) {
  const theme = useTheme();
  const keysEnabled = useKeysEnabled();
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
      {opponent ? <Text {...theme.muted}>{`opponent: ${opponent.label}`}</Text> : null}
      {error ? <Text {...theme.bad}>{error}</Text> : null}
      {step === 'family' ? (
        <>
          {title('Which game?')}
          <Menu
            items={families.map((f) => ({ key: f.id, label: `${f.id.padEnd(12)} ${f.title}`, value: f.id }))}
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
            items={opponents
              .filter((o) => plays(o, game))
              .map((o) => ({ key: o.label, label: visible(`${o.label.padEnd(10)} ${levelText(o) ?? o.bot.description}`), value: o.label }))}
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
              { label: `${opponent.label} moves first`, value: 'bot' as const },
            ]}
            onSelect={(value) => finish(game, opponent, value)}
          />
        </>
      ) : null}
      <Text {...theme.muted}>{step === 'typing' ? 'enter accept · esc back to the choices' : `↑↓ choose · enter pick · ${step === 'family' ? 'q or esc quit' : 'esc back · q quit'}`}</Text>
    </Box>
  );
}
