/* Memoized misère search of coin positions on the 6×6 square, single-threaded: negamax with a
 * transposition table keyed by the canonical mask (least image under the 8 symmetries), "a take
 * leaving one coin wins", a pass over the children's table entries (whose canonical keys are then
 * reused when a child is searched; children known won are skipped), then the largest takes first
 * (the algorithm of src/solvers/coin-search.ts, with 64-bit masks). argv: a time budget per
 * position in ms (0: none), then the board masks to solve (decimal), each with a fresh table.
 * Prints win_<i>=0|1 per position (2: not proved within the budget, counted at the budget) and
 * median_ms. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

#define N 36
#define TT_BITS 22
#define PROBE 8
static uint64_t takes[400];
static int takeSize[400], nTakes;
static uint64_t symByte[8][5][256];
static uint64_t *ttKey; /* key | (win << 62) | (1 << 63) */
static long nodes;
static double deadline; /* now_ms() clock; 0: none */
static int outOfTime;

static uint64_t image(uint64_t m, int k) {
  uint64_t r = 0;
  for (int b = 0; b < 5; b++) r |= symByte[k][b][(m >> (8 * b)) & 255];
  return r;
}
static uint64_t canon(uint64_t m) {
  uint64_t best = image(m, 0);
  for (int k = 1; k < 8; k++) {
    uint64_t x = image(m, k);
    if (x < best) best = x;
  }
  return best;
}
static uint32_t slotOf(uint64_t key) {
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> (64 - TT_BITS)) & ((1u << TT_BITS) - PROBE);
}
static int probe(uint64_t key) {
  uint32_t s0 = slotOf(key);
  for (uint32_t s = s0; s < s0 + PROBE; s++) {
    uint64_t e = ttKey[s];
    if (!(e >> 63)) return -1;
    if ((e & ((1ull << 36) - 1)) == key) return (int)((e >> 62) & 1);
  }
  return -1;
}
static void store(uint64_t key, int win) {
  uint32_t s0 = slotOf(key), s = s0;
  for (; s < s0 + PROBE; s++) if (!(ttKey[s] >> 63) || (ttKey[s] & ((1ull << 36) - 1)) == key) break;
  if (s == s0 + PROBE) s = s0;
  ttKey[s] = key | ((uint64_t)win << 62) | (1ull << 63);
}

/* keyed: the caller passes m's canonical key (found by its transposition cutoff pass). */
static int solve(uint64_t m, int keyed, uint64_t key) {
  if (m == 0) return 1;
  int coins = __builtin_popcountll(m);
  if (coins <= 2) return coins == 2;
  if (!keyed) key = canon(m);
  int known = probe(key);
  if (known >= 0) return known;
  nodes++;
  if (outOfTime || ((nodes & 1023) == 0 && deadline > 0 && now_ms() > deadline)) {
    outOfTime = 1; /* unwind without storing anything: the caller reports "not proved" */
    return 0;
  }
  uint64_t moves[400], childKey[400];
  int sizes[400], childWon[400], len = 0, win = 0;
  for (int t = 0; t < nTakes; t++) {
    if ((m & takes[t]) != takes[t]) continue;
    if (coins - takeSize[t] == 1) { win = 1; goto done; }
    moves[len] = takes[t];
    sizes[len++] = takeSize[t];
  }
  if (len == coins) { win = (coins & 1) == 0; goto done; } /* only single coins: parity decides */
  /* Children already proved lost win at once; their keys are kept for the search below, and
   * children already proved won are skipped. */
  for (int i = 0; i < len; i++) {
    childKey[i] = canon(m ^ moves[i]);
    int k = probe(childKey[i]);
    if (k == 0) { win = 1; goto done; }
    childWon[i] = k == 1;
  }
  for (int size = 6; size >= 1 && !win; size--)
    for (int i = 0; i < len; i++)
      if (sizes[i] == size && !childWon[i] && !solve(m ^ moves[i], 1, childKey[i])) { win = 1; break; }
done:
  if (outOfTime) return 0;
  store(key, win);
  return win;
}

int main(int argc, char **argv) {
  const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
  for (int cell = 0; cell < N; cell++) {
    takes[nTakes] = 1ull << cell;
    takeSize[nTakes++] = 1;
    for (int d = 0; d < 4; d++) {
      uint64_t m = 1ull << cell;
      int r = cell / 6, c = cell % 6, k = 1;
      for (r += dr[d], c += dc[d]; r < 6 && c >= 0 && c < 6; r += dr[d], c += dc[d]) {
        m |= 1ull << (r * 6 + c);
        takes[nTakes] = m;
        takeSize[nTakes++] = ++k;
      }
    }
  }
  for (int k = 0; k < 8; k++) {
    for (int b = 0; b < 5; b++) {
      for (int v = 0; v < 256; v++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++) {
          int cell = b * 8 + i;
          if (cell >= N || !((v >> i) & 1)) continue;
          int r = cell / 6, c = cell % 6, r2, c2;
          switch (k) {
            case 0: r2 = r, c2 = c; break;
            case 1: r2 = c, c2 = 5 - r; break;
            case 2: r2 = 5 - r, c2 = 5 - c; break;
            case 3: r2 = 5 - c, c2 = r; break;
            case 4: r2 = r, c2 = 5 - c; break;
            case 5: r2 = 5 - r, c2 = c; break;
            case 6: r2 = c, c2 = r; break;
            default: r2 = 5 - c, c2 = 5 - r; break;
          }
          x |= 1ull << (r2 * 6 + c2);
        }
        symByte[k][b][v] = x;
      }
    }
  }
  ttKey = malloc(sizeof(uint64_t) << TT_BITS);
  if (argc < 2) return 2;
  double budget = atof(argv[1]);
  int count = argc - 2;
  double *times = malloc(sizeof(double) * (count > 0 ? count : 1));
  for (int i = 0; i < count; i++) {
    uint64_t m = strtoull(argv[i + 2], NULL, 10);
    memset(ttKey, 0, sizeof(uint64_t) << TT_BITS);
    double t0 = now_ms();
    deadline = budget > 0 ? t0 + budget : 0;
    outOfTime = 0;
    int w = solve(m, 0, 0);
    times[i] = outOfTime ? budget : now_ms() - t0;
    printf("win_%d=%d\n", i, outOfTime ? 2 : w);
  }
  qsort(times, count, sizeof(double), cmp_double);
  printf("nodes=%ld\nmedian_ms=%.3f\n", nodes, count ? times[count / 2] : 0.0);
  return 0;
}
