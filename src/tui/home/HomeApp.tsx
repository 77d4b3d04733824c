import { TextInput } from '@inkjs/ui';
import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import type { AnyFamily } from '../../core/game.ts';
import { KEYS } from '../text/keys.ts';
import { useTheme } from '../text/theme.ts';
import { Menu } from '../ui/Menu.tsx';
import { useKeys, useKeysEnabled } from '../ui/use-keys.ts';
import type { RulesSection } from './rules.ts';
import { RulesPager } from './RulesPager.tsx';

type Props = {
  /** Tournament spec files found in `tournaments/` (paths as the CLI takes them). */
  readonly specs: readonly string[];
  readonly families: readonly AnyFamily[];
  /** Results folders (with a games log), newest first, as the CLI takes them. */
  readonly results?: readonly string[];
  /** The rulebook (docs/GAMES.md) in parts. */
  readonly rules?: readonly RulesSection[];
  /** Called once with the command line to run next, or null to quit. */
  readonly onChoose: (argv: readonly string[] | null) => void;
};

type Screen = 'home' | 'spec' | 'family' | 'position' | 'folder' | 'report-file' | 'rules' | 'rule';

/** Screens with a text field: their keys are its own (esc goes back). */
const TYPING: ReadonlySet<Screen> = new Set(['position', 'report-file']);

/** Splits typed arguments on spaces, keeping "quoted parts" whole. */
export function splitArgs(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/**
 * `arena` with no command in a terminal: run a tournament (a spec from `tournaments/`), play a bot,
 * list the bots, analyse a position, replay a game or write the report of a results folder, or read
 * the rules. It only chooses; the chosen command then runs as if typed (the rules are read here).
 */
export function HomeApp({ specs, families, results = [], rules = [], onChoose }: Props) {
  const theme = useTheme();
  const { exit } = useApp();
  const keysEnabled = useKeysEnabled();
  const [screen, setScreen] = useState<Screen>('home');
  const [family, setFamily] = useState<AnyFamily | null>(null);
  // What a results folder is picked for, the folder, and the part of the rules being read.
  const [forCommand, setForCommand] = useState<'replay' | 'report'>('replay');
  const [folder, setFolder] = useState('');
  const [rule, setRule] = useState(0);
  const choose = (argv: readonly string[] | null): void => {
    onChoose(argv);
    exit();
  };
  useKeys((input, key) => {
    if (TYPING.has(screen)) {
      if (key.escape) setScreen(screen === 'position' ? 'family' : 'folder');
      return;
    }
    if (KEYS.quit.match(input, key)) choose(null);
    else if (key.escape && screen === 'rule') setScreen('rules');
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
              { label: 'Replay a game of a tournament', value: 'replay' },
              { label: 'Write the report of a tournament', value: 'report' },
              { label: 'Read the rules', value: 'rules' },
              { label: 'Quit', value: 'quit' },
            ]}
            onSelect={(value) => {
              if (value === 'tournament') setScreen('spec');
              else if (value === 'analyze') setScreen('family');
              else if (value === 'replay' || value === 'report') {
                setForCommand(value);
                setScreen('folder');
              } else if (value === 'rules') setScreen('rules');
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
              {`parameters as flags (${Object.keys(family.params).map((p) => `--${p}`).join(' ')}) and the position, or --upto N for a table (e.g. --upto 50)`}
            </Text>
            <Text {...theme.muted}>{`enter alone: arena analyze ${family.id}, its default position`}</Text>
            <Box>
              <Text {...theme.accent}>{'› '}</Text>
              <TextInput isDisabled={!keysEnabled} onSubmit={(v) => choose(['analyze', family.id, ...splitArgs(v)])} />
            </Box>
          </>
        ) : null}
        {screen === 'folder' ? (
          results.length === 0 ? (
            <Text {...theme.warn}>No results folders in tournaments/results yet: run a tournament first (esc: back)</Text>
          ) : (
            <>
              <Text bold>{forCommand === 'replay' ? 'Replay a game of which tournament?' : 'Write the report of which tournament?'}</Text>
              <Menu
                limit={12}
                items={results.map((d) => ({ key: d, label: d, value: d }))}
                onSelect={(dir) => {
                  if (forCommand === 'replay') choose(['replay', dir]);
                  else {
                    setFolder(dir);
                    setScreen('report-file');
                  }
                }}
              />
            </>
          )
        ) : null}
        {screen === 'report-file' ? (
          <>
            <Text bold>{`arena report ${folder} --out …`}</Text>
            <Text {...theme.muted}>{`the HTML file to write; enter alone: ${folder}/report.html`}</Text>
            <Box>
              <Text {...theme.accent}>{'› '}</Text>
              <TextInput isDisabled={!keysEnabled} onSubmit={(v) => choose(['report', folder, ...(v.trim() === '' ? [] : ['--out', v.trim()])])} />
            </Box>
          </>
        ) : null}
        {screen === 'rules' ? (
          rules.length === 0 ? (
            <Text {...theme.warn}>The rulebook (docs/GAMES.md) is not here; arena games lists each game in a line (esc: back)</Text>
          ) : (
            <>
              <Text bold>The rules of which game?</Text>
              <Menu items={rules.map((r, i) => ({ key: String(i), label: r.title, value: i }))} onSelect={(i) => (setRule(i), setScreen('rule'))} />
            </>
          )
        ) : null}
        {screen === 'rule' && rules[rule] ? <RulesPager section={rules[rule]} reserved={4} /> : null}
      </Box>
      {screen === 'rule' ? null : <Text {...theme.muted}>{screen === 'home' ? 'q quit' : TYPING.has(screen) ? 'enter run · esc back' : 'esc back · q quit'}</Text>}
    </Box>
  );
}
