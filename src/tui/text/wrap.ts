/**
 * Word wrapping for text printed to a terminal: a long line breaks between words, never inside one,
 * and its continuation lines start under its text (a hanging indent), so lists stay aligned at any width.
 */

/**
 * Wraps `text` to `width` columns. The first line starts with `lead` (e.g. `  :depth=  `); the
 * following ones with as many spaces. A word longer than the room left stays whole on its own line.
 * `width` Infinity (output to a pipe) leaves the line as it is.
 */
export function hanging(lead: string, text: string, width: number): string[] {
  if (!Number.isFinite(width) || lead.length + text.length <= width) return [lead + text];
  const indent = ' '.repeat(lead.length);
  const room = Math.max(20, width - lead.length);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i === 0 ? lead : indent) + l);
}
