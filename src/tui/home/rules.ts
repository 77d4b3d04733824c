/** One part of the rulebook (docs/GAMES.md): its heading and its text. */
export interface RulesSection {
  readonly title: string;
  readonly text: string;
}

/**
 * The rulebook cut at its `## ` headings: the vocabulary before the first one, then a part per
 * family (and misère play). Emphasis marks are dropped; code marks and the rest are kept as written.
 */
export function rulesSections(markdown: string): RulesSection[] {
  const parts = markdown.replace(/\r\n/g, '\n').split(/^## /m);
  const clean = (text: string): string => text.replace(/\*\*/g, '').replace(/^---\s*$/gm, '').trim();
  const intro = clean(parts[0]!.replace(/^# .*\n/, ''));
  return [
    ...(intro ? [{ title: 'Vocabulary: normal play, misère, P- and N-positions, seats, deals', text: intro }] : []),
    ...parts.slice(1).map((p) => {
      const nl = p.indexOf('\n');
      return { title: clean(nl < 0 ? p : p.slice(0, nl)), text: clean(nl < 0 ? '' : p.slice(nl + 1)) };
    }),
  ];
}
