/**
 * A set of schedule indexes, one bit each: all a runner keeps per game of a tournament of any size
 * (a million games cost 125 kB).
 */
export class IndexSet {
  readonly #bits: Uint8Array;

  /** A set that can hold the indexes `0 … size - 1`. */
  constructor(size: number) {
    this.#bits = new Uint8Array(Math.ceil(size / 8));
  }

  has(index: number): boolean {
    return (this.#bits[index >>> 3]! & (1 << (index & 7))) !== 0;
  }

  add(index: number): void {
    this.#bits[index >>> 3]! |= 1 << (index & 7);
  }

  /** The set's bits as base64 (see `load`). */
  toBase64(): string {
    return Buffer.from(this.#bits.buffer, this.#bits.byteOffset, this.#bits.byteLength).toString('base64');
  }

  /** Adds the indexes of a set of the same size written by `toBase64`; false (and nothing added) when it is not one. */
  load(base64: string): boolean {
    const bits = Buffer.from(base64, 'base64');
    if (bits.length !== this.#bits.length) return false;
    for (let i = 0; i < bits.length; i++) this.#bits[i]! |= bits[i]!;
    return true;
  }

  /** An empty set of the same size. */
  emptyCopy(): IndexSet {
    return new IndexSet(this.#bits.length * 8);
  }
}
