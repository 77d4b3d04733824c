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

  /** An empty set of the same size. */
  emptyCopy(): IndexSet {
    return new IndexSet(this.#bits.length * 8);
  }
}
