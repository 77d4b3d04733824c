/** Splits text into lines of at most `width` columns at spaces, keeping its own line breaks and indents. */
export function wrapLines(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const indent = /^\s*(?:[-*] |\d+\. )?/.exec(line)![0].length;
    let rest = line;
    while (rest.length > width) {
      const cut = rest.lastIndexOf(' ', width);
      const at = cut > indent ? cut : width;
      out.push(rest.slice(0, at));
      rest = ' '.repeat(Math.min(indent, Math.floor(width / 2))) + rest.slice(at).trimStart();
    }
    out.push(rest);
  }
  return out;
}
