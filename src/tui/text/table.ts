import { fit } from './layout.ts';

/** A column of a text table: its header, its cells, alignment and how readily it is dropped. */
export interface Column {
  readonly header: string;
  readonly cells: readonly string[];
  readonly align: 'left' | 'right';
  /** Lower is kept longer: when the width runs out, the highest priorities go first. */
  readonly priority: number;
  /** The column may be cut to this many characters before being dropped (names). */
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
  const line = (cell: (i: number) => string): string =>
    keep
      .map((i) => fit(cell(i), widths[i]!, columns[i]!.align))
      .join('  ')
      .trimEnd();
  const rows = (columns[0]?.cells ?? []).map((_, r) => line((i) => columns[i]!.cells[r] ?? ''));
  return { header: line((i) => columns[i]!.header), rows };
}
