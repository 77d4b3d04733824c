import { TextInput } from '@inkjs/ui';
import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import type { AnyFamily } from '../../core/game.ts';
import { KEYS } from '../text/keys.ts';
import { useTheme } from '../text/theme.ts';
import { Menu } from '../ui/Menu.tsx';
import { useKeys, useKeysEnabled } from '../ui/use-keys.ts';

type Props = {
  /** Tournament spec files found in `tournaments/` (paths as the CLI takes them). */
  readonly specs: readonly string[];
  readonly families: readonly AnyFamily[];
  /** Called once with the command line to run next, or null to quit. */
  readonly onChoose: (argv: readonly string[] | null) => void;
};

type Screen = 'home' | 'spec' | 'family' | 'position';

/** Splits typed arguments on spaces, keeping "quoted parts" whole. */
export function splitArgs(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/**
 * `arena` with no command in a terminal: run a tournament (a spec from `tournaments/`), play a bot,
 * list the bots, or analyse a position. It only chooses; the chosen command then runs as if typed.
 */
export function HomeApp({ specs, families, onChoose }: Props) {
  const theme = useTheme();
  const { exit } = useApp();
  const keysEnabled = useKeysEnabled();
  const [screen, setScreen] = useState<Screen>('home');
  const [family, setFamily] = useState<AnyFamily | null>(null);
  const choose = (argv: readonly string[] | null): void => {
    onChoose(argv);
    exit();
  };
  useKeys((input, key) => {
    if (screen === 'position') {
      if (key.escape) setScreen('family');
      return;
    }
    if (KEYS.quit.match(input, key)) choose(null);
    else if (key.escape && screen !== 'home') setScreen('home');
  });

  return (
    <Box flexDirection="column">
      <Text bold {...theme.accent}>
        take-arena
      </Text>
      <Text {...theme.muted}>two-player take-away games: bot tournaments, drop-in bots, play a bot</Text>
      <Box marginTop={1} flexDirection="column">
        {screen === 'home' ? (
          <Menu
            items={[
              { label: 'Run a tournament', value: 'tournament' },
              { label: 'Play a bot', value: 'play' },
              { label: 'List the bots', value: 'bots' },
              { label: 'Analyse a position', value: 'analyze' },
              { label: 'Quit', value: 'quit' },
            ]}
            onSelect={(value) => {
              if (value === 'tournament') setScreen('spec');
              else if (value === 'analyze') setScreen('family');
              else if (value === 'quit') choose(null);
              else choose([value]);
            }}
          />
        ) : null}
        {screen === 'spec' ? (
          specs.length === 0 ? (
            <Text {...theme.warn}>No tournament specs in tournaments/ (esc: back)</Text>
          ) : (
            <>
              <Text bold>Which tournament?</Text>
              <Menu items={specs.map((s) => ({ key: s, label: s, value: s }))} onSelect={(value) => choose(['tournament', value])} />
            </>
          )
        ) : null}
        {screen === 'family' ? (
          <>
            <Text bold>Analyse which game?</Text>
            <Menu
              items={families.map((f) => ({ key: f.id, label: `${f.id.padEnd(12)} ${f.title}`, value: f.id }))}
              onSelect={(value) => {
                setFamily(families.find((f) => f.id === value) ?? null);
                setScreen('position');
              }}
            />
          </>
        ) : null}
        {screen === 'position' && family ? (
          <>
            <Text bold>{`arena analyze ${family.id} …`}</Text>
            <Text {...theme.muted}>
              {`parameters as flags (${Object.keys(family.params).map((p) => `--${p}`).join(' ')}), and the position or --upto N; enter alone for the defaults`}
            </Text>
            <TextInput isDisabled={!keysEnabled} placeholder="--upto 50" onSubmit={(v) => choose(['analyze', family.id, ...splitArgs(v)])} />
          </>
        ) : null}
      </Box>
      <Text {...theme.muted}>{screen === 'home' ? 'q quit' : 'esc back · q quit'}</Text>
    </Box>
  );
}
