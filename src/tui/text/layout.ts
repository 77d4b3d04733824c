/**
 * Pure layout arithmetic shared by the board pictures: how many stones one glyph stands for, how
 * glyphs wrap into lines, how long lists are windowed. No React here, so it is tested directly.
 */

/** One line of a stone picture: remaining stones, then the stones the last move took. */
export interface StoneLine {
  readonly stones: number;
  readonly taken: number;
}

/** A pile drawn in at most `maxLines` lines; `scale` stones per glyph (1 when each stone is drawn). */
export interface StoneLayout {
  readonly scale: number;
  readonly lines: readonly StoneLine[];
  /** Glyphs per line, so callers can align several piles. */
  readonly perLine: number;
}

const NICE = [1, 2, 5];

/** The smallest 1-2-5 number (1, 2, 5, 10, 20, …) that is at least `x`. */
export function niceCeil(x: number): number {
  if (x <= 1) return 1;
  let decade = 1;
  for (;;) {
    for (const n of NICE) if (n * decade >= x) return n * decade;
    decade *= 10;
  }
}

/** Glyphs that fit in `width` columns, grouped in fives (at least one). */
export function glyphsFitting(width: number): number {
  const groups = Math.floor((width + 1) / 6);
  return Math.max(1, groups > 0 ? groups * 5 : width);
}

/**
 * Lays out a pile of `stones` (plus `taken` hollow ones, the last move) in `width` columns and at
 * most `maxLines` lines. When the pile does not fit one glyph per stone, each glyph stands for a
 * 1-2-5 number of stones (`scale`), so a pile of 10^18 still draws as a few lines.
 * `scaleAtLeast` lets several piles share one scale.
 */
export function layoutStones(stones: number, taken: number, width: number, maxLines = 3, scaleAtLeast = 1): StoneLayout {
  const perLine = glyphsFitting(width);
  const total = stones + taken;
  const room = perLine * Math.max(1, maxLines);
  // A take is always visible, however small beside the scale.
  const glyphs = (k: number): [number, number] => [Math.ceil(stones / k), taken > 0 ? Math.max(1, Math.round(taken / k)) : 0];
  let scale = Math.max(scaleAtLeast, niceCeil(total / room));
  // Rounding up can overflow the room by a glyph; the next 1-2-5 step always fits.
  while (glyphs(scale)[0] + glyphs(scale)[1] > room) scale = niceCeil(scale + 1);
  const [stoneGlyphs, takenGlyphs] = glyphs(scale);
  const lines: StoneLine[] = [];
  let s = stoneGlyphs;
  let t = takenGlyphs;
  while (s > 0 || t > 0) {
    const ls = Math.min(s, perLine);
    const lt = Math.min(t, perLine - ls);
    lines.push({ stones: ls, taken: lt });
    s -= ls;
    t -= lt;
  }
  return { scale, lines, perLine };
}

/** Splits `glyphs` positions starting at `offset` into the fives-grouped text of `glyph`. */
export function groupedRun(glyph: string, count: number, offset: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const pos = offset + i;
    if (pos > 0 && pos % 5 === 0) out += ' ';
    out += glyph;
  }
  return out;
}

/** A number with thousands separators: 1,764. */
export function fmtInt(n: number | bigint): string {
  // Integers are grouped here, as toLocaleString('en-US') groups them, so the dashboard's first
  // frame does not wait for ICU's number formatting to load (docs/PERFORMANCE.md). Anything else
  // (fractions, -0, beyond 2^53) is left to it.
  if (typeof n === 'bigint' || (Number.isSafeInteger(n) && !Object.is(n, -0))) {
    const text = String(n);
    const sign = text.startsWith('-') ? '-' : '';
    const digits = text.slice(sign.length);
    let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
    for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
    return sign + out;
  }
  return n.toLocaleString('en-US');
}

/** Milliseconds as a short duration: `840 ms`, `2.4 s`, `3m 05s`, `1h 02m`. */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** A window of at most `max` indices out of `length`, centred on `focus`: [start, end). */
export function windowAround(length: number, focus: number, max: number): readonly [number, number] {
  if (length <= max) return [0, length];
  const start = Math.min(Math.max(0, focus - Math.floor(max / 2)), length - max);
  return [start, start + max];
}

/** Pads or cuts text to exactly `width` columns (ellipsis when cut). */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return align === 'left' ? text.padEnd(width) : text.padStart(width);
}

/** The legend under a scaled picture: `each ● ≈ 10 stones`, or '' when one glyph is one stone. */
export function scaleNote(scale: number, glyph: string, what = 'stones'): string {
  return scale > 1 ? `each ${glyph} ≈ ${fmtInt(scale)} ${what}` : '';
}

/** Points as standings show them: `3`, `2.5`. */
export function fmtPoints(p: number): string {
  return Number.isInteger(p) ? String(p) : p.toFixed(1);
}
