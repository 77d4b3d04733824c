/**
 * Zeroed typed arrays for the small tables of period detection, carved from shared chunks.
 *
 * Why: V8 keeps a typed array of at most 64 bytes on its heap, but gives a larger one its own
 * off-heap buffer, which costs about 0.4–1.5 µs to allocate and track: as much as a whole period
 * detection of a seed set. Views carved in turn from one 64 KiB buffer cost about 40 ns. A chunk is
 * never reused: its memory is freed by the garbage collector once no view into it is left, so a
 * table kept by a caller (a period's proof table) stays valid. Large tables get their own buffer.
 */
const CHUNK_BYTES = 1 << 16;
/** Largest table carved from a chunk; one kept alive keeps at most its chunk's 64 KiB alive. */
const MAX_CARVED_BYTES = 1 << 12;

let chunk = new ArrayBuffer(CHUNK_BYTES);
let used = 0;

/** Byte offset of `bytes` fresh zero bytes in `chunk` (8-byte aligned). */
function carve(bytes: number): number {
  if (used + bytes > CHUNK_BYTES) {
    chunk = new ArrayBuffer(CHUNK_BYTES);
    used = 0;
  }
  const at = used;
  used = (used + bytes + 7) & ~7;
  return at;
}

/** A zeroed Uint8Array of `length` bytes. */
export function zeroedBytes(length: number): Uint8Array {
  if (length > MAX_CARVED_BYTES) return new Uint8Array(length);
  const at = carve(length);
  return new Uint8Array(chunk, at, length);
}

/** A zeroed Uint32Array of `length` words. */
export function zeroedWords(length: number): Uint32Array {
  if (length * 4 > MAX_CARVED_BYTES) return new Uint32Array(length);
  const at = carve(length * 4);
  return new Uint32Array(chunk, at, length);
}
