/**
 * A command line as a person would type it: `name` then each word, a word the shell would split or
 * expand written in double quotes (`arena replay "my results/x" --game 3`).
 */
export function commandText(words: readonly string[], name = 'arena'): string {
  return [name, ...words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w)))].join(' ');
}
