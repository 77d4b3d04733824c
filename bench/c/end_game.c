/*
 * End Game value of a row of n numbers (default 20,000) by diagonals in place: O(n) memory,
 * n^2/2 cells. v[j] = V(j, j+d) becomes V(j, j+d+1) = max(row[j] - v[j+1], row[j+d] - v[j]).
 * Four diagonals per pass, skewed (level t at position i-t+1 on trip i, every level taking the
 * right end row[i+d]), so intermediate diagonals stay in registers: the same algorithm as
 * endGameValue in src/solvers/end-game.ts, which does six per pass. The number per pass is each
 * side's best: measured at 20,000 on a 2-core AMD EPYC (gcc 12 -O2), 2, 3, 4, 5, 6, 7, 8, 10 and
 * 12 per pass took 98, 97, 91, 93, 101, 103, 110, 122 and 123 ms.
 *
 * The row is row[i] = fmix32(i) mod 21 - 10 (MurmurHash3's finalizer: random-looking, so the
 * max is unpredictable, as on dealt rows), so that the TypeScript side builds the same row. Usage: end_game [n] [runs]. One warm-up run. Prints
 * `value=`, `cpu_median_ms=<ms>` and `median_ms=<wall ms>`. Benchmark code only (bench/c.ts).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "timing.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* One diagonal: length d to d+1 for the m intervals of length d+1. */
static void step1(const int32_t *row, int32_t *v, int d, int m) {
  for (int j = 0; j < m; j++) v[j] = MAX(row[j] - v[j + 1], row[j + d] - v[j]);
}

/* Four diagonals: length d to d+4 (m >= 4 intervals of length d+1). */
static void step4(const int32_t *row, int32_t *v, int d, int m) {
  int32_t p1 = 0, p2 = 0, p3 = 0, r1 = 0, r2 = 0, r3 = 0, w0 = v[0];
  for (int i = 0; i < m; i++) {
    int32_t r0 = row[i], R = row[i + d], w1 = v[i + 1];
    int32_t a1 = MAX(r0 - w1, R - w0), a2 = MAX(r1 - a1, R - p1);
    int32_t a3 = MAX(r2 - a2, R - p2), a4 = MAX(r3 - a3, R - p3);
    if (i >= 3) v[i - 3] = a4;
    p1 = a1; p2 = a2; p3 = a3;
    r3 = r2; r2 = r1; r1 = r0;
    w0 = w1;
  }
}

static int32_t value(const int32_t *row, int n) {
  int32_t *v = calloc(n + 1, sizeof *v);
  int d = 0;
  for (; n - d >= 4; d += 4) step4(row, v, d, n - d);
  for (; d < n; d++) step1(row, v, d, n - d);
  int32_t out = v[0];
  free(v);
  return out;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  if (runs < 1) runs = 1;
  if (runs > 64) runs = 64;
  int32_t *row = calloc(n > 0 ? n : 1, sizeof *row);
  for (int i = 0; i < n; i++) {
    uint32_t h = (uint32_t)i;
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    row[i] = (int32_t)(h % 21u) - 10;
  }
  double wall[64], cpu[64];
  int32_t v = value(row, n); /* warm-up */
  for (int r = 0; r < runs; r++) {
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    v = value(row, n);
    cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    wall[r] = clock_ms(CLOCK_MONOTONIC) - w0;
  }
  qsort(wall, runs, sizeof wall[0], cmp_double);
  qsort(cpu, runs, sizeof cpu[0], cmp_double);
  printf("value=%d\ncpu_median_ms=%.3f\nmedian_ms=%.3f\n", v, cpu[runs / 2], wall[runs / 2]);
  free(row);
  return 0;
}
