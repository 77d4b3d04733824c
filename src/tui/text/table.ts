import { fit } from './layout.ts';

/** A column of a text table: its header, its cells, alignment and how readily it is dropped. */
export interface Column {
  readonly header: string;
  readonly cells: readonly string[];
  readonly align: 'left' | 'right';
  /** Lower is kept longer: when the width runs out, the highest priorities go first. */
  readonly priority: number;
  /** The column may be cut to this many characters before being dropped (names: cut to distinct names, see `shortNames`). */
  readonly minWidth?: number;
}

/**
 * Lays out columns in `width` characters: natural widths, dropping the least important columns
 * that do not fit, then cutting a shrinkable column (with an ellipsis). Returns the header line
 * and one line per row.
 */
export function layoutTable(columns: readonly Column[], width: number): { header: string; rows: string[] } {
  const natural = columns.map((c) => Math.max(c.header.length, ...c.cells.map((x) => x.length)));
  let keep = columns.map((_, i) => i);
  const total = (idx: readonly number[], widths: readonly number[]): number => idx.reduce((s, i) => s + widths[i]!, 0) + 2 * Math.max(0, idx.length - 1);
  const widths = [...natural];
  const order = [...keep].sort((a, b) => columns[b]!.priority - columns[a]!.priority);
  for (const drop of order) {
    if (total(keep, widths) <= width) break;
    const c = columns[drop]!;
    if (c.minWidth !== undefined) {
      const over = total(keep, widths) - width;
      const cut = Math.min(over, widths[drop]! - c.minWidth);
      if (cut > 0) widths[drop] = widths[drop]! - cut;
      if (total(keep, widths) <= width) break;
    }
    if (keep.length > 1) keep = keep.filter((i) => i !== drop);
  }
  // A cut column of names stays a column of different names.
  const cells = columns.map((c, i) => (c.minWidth !== undefined && widths[i]! < natural[i]! ? shortNames(c.cells, widths[i]!) : c.cells));
  const line = (cell: (i: number) => string): string =>
    keep
      .map((i) => fit(cell(i), widths[i]!, columns[i]!.align))
      .join('  ')
      .trimEnd();
  const rows = (columns[0]?.cells ?? []).map((_, r) => line((i) => cells[i]![r] ?? ''));
  return { header: line((i) => columns[i]!.header), rows };
}

/**
 * Names cut to at most `width` characters that stay as different as they were: a name that fits
 * is kept; a longer one is cut with an ellipsis, and names that would then read the same keep
 * their ends too (`optim…asy`, `optim…ium` for optimal:strength=easy and =medium), the ends as
 * short as tells them apart.
 */
export function shortNames(names: readonly string[], width: number): string[] {
  const cut = (name: string, tail: number): string =>
    name.length <= width ? name : width <= 1 ? '…' : `${name.slice(0, Math.max(0, width - 1 - tail))}…${tail > 0 ? name.slice(-tail) : ''}`;
  const out = names.map((n) => cut(n, 0));
  for (let tail = 1; tail < width; tail++) {
    const seen = new Map<string, number>();
    for (const s of out) seen.set(s, (seen.get(s) ?? 0) + 1);
    const clash = names.flatMap((n, i) => (n.length > width && seen.get(out[i]!)! > 1 ? [i] : []));
    if (clash.length === 0) break;
    for (const i of clash) out[i] = cut(names[i]!, tail);
  }
  return out;
}
