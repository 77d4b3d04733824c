/*
 * Subtraction table to n (default 10^8) for seed 002's set, as a word-parallel bitset: bit n set
 * when pile n is an N-position. Chunks of k = min(min S, 63) piles are decided at once as the OR
 * over s of the negated k-bit run at n - s (every pile depends only on piles at least min S below).
 * When max S <= 64 the runs are read from a 64-pile window held in one register (bit 63 = pile
 * n-1), shifted by k after each chunk, so the table is only written (from pile 0: piles below 0
 * read as N); otherwise they are read back from the table (k = min(min S, 64)) after the piles
 * below max S are decided one by one. The same algorithm as subtractionTable in
 * src/solvers/subtraction.ts, with 64-bit words (the TypeScript side holds the window in two
 * int32 halves and caps k at 31).
 *
 * Usage: subtraction [upto] [runs] [takes, e.g. 15,19,20]. The set is read at run time, as the
 * TypeScript side gets it (a compile-time constant set would let the compiler unroll the take loop
 * with immediates, which no solver of user-given sets can do).
 * Prints `n_positions=<count of N piles>` and `median_ms=<ms>`.
 * Benchmark code only (bench/c.ts compiles it with cc -O2), not part of the product.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

static int S[64];
static int K;

/* The 64 bits starting at bit o, low bit first (reads one word past o's word). */
static inline uint64_t bits_at(const uint64_t *b, uint64_t o) {
  uint64_t w = o >> 6;
  unsigned sh = o & 63;
  return sh == 0 ? b[w] : (b[w] >> sh) | (b[w + 1] << (64 - sh));
}

/* Fills b (upto / 64 + 2 words, cleared here) for piles 0..upto. */
static uint64_t *table(long upto, uint64_t *b) {
  memset(b, 0, (upto / 64 + 2) * sizeof *b);
  int min_s = S[0], max_s = S[K - 1];
  int k = min_s < 64 ? min_s : 64;
  uint64_t mask = k == 64 ? ~0ull : (1ull << k) - 1;
  if (max_s <= 64) {
    /* From pile 0: the window reads piles below 0 as N (no take reaches them). */
    int kw = min_s < 63 ? min_s : 63; /* a shift by 64 is undefined in C */
    uint64_t wmask = (1ull << kw) - 1;
    unsigned sh[64];
    for (int i = 0; i < K; i++) sh[i] = 64 - S[i];
    uint64_t W = ~0ull; /* piles n-64 .. n-1 */
    for (long n = 0; n <= upto; n += kw) {
      uint64_t acc = ~0ull;
      for (int i = 0; i < K; i++) acc &= W >> sh[i];
      uint64_t win = ~acc & wmask;
      W = (W >> kw) | (win << (64 - kw));
      long w = n >> 6;
      unsigned s = n & 63;
      b[w] |= win << s;
      if (s + kw > 64) b[w + 1] = win >> (64 - s);
    }
    return b;
  }
  long prefix = upto < max_s - 1 ? upto : max_s - 1;
  /* Below max S some takes do not fit: decide those piles one by one. */
  for (long n = 0; n <= prefix; n++)
    for (int i = 0; i < K && S[i] <= n; i++) {
      long p = n - S[i];
      if (!((b[p >> 6] >> (p & 63)) & 1)) { b[n >> 6] |= 1ull << (n & 63); break; }
    }
  long from = prefix + 1;
  for (long n = from; n <= upto; n += k) {
    uint64_t win = 0;
    for (int i = 0; i < K; i++) win |= ~bits_at(b, n - S[i]);
    win &= mask;
    long w = n >> 6;
    unsigned sh = n & 63;
    b[w] |= win << sh;
    if (sh + k > 64) b[w + 1] |= win >> (64 - sh);
  }
  return b;
}

int main(int argc, char **argv) {
  long upto = argc > 1 ? atol(argv[1]) : 100000000L;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  char *list = strdup(argc > 3 ? argv[3] : "15,19,20,22,23,24,26,27,28,33,38,41");
  for (char *tok = strtok(list, ","); tok && K < 64; tok = strtok(NULL, ",")) S[K++] = atoi(tok);
  if (runs < 1) runs = 1;
  if (runs > 64) runs = 64;
  double t[64];
  long count = 0;
  /* One table for every run, cleared in the timed region, as the TypeScript side does. */
  uint64_t *b = malloc((upto / 64 + 2) * sizeof *b);
  table(upto, b); /* warm-up, as the TypeScript side does */
  for (int r = 0; r < runs; r++) {
    double t0 = now_ms();
    table(upto, b);
    t[r] = now_ms() - t0;
    count = 0;
    for (long n = 0; n <= upto; n++) count += (b[n >> 6] >> (n & 63)) & 1;
  }
  free(b);
  qsort(t, runs, sizeof t[0], cmp_double);
  printf("n_positions=%ld\nmedian_ms=%.3f\n", count, t[runs / 2]);
  return 0;
}
