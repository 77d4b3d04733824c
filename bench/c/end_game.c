/*
 * End Game value of a row of n numbers (default 20,000) by diagonals in place: O(n) memory,
 * n^2/2 cells. v[j] = V(j, j+d) becomes V(j, j+d+1) = max(row[j] - v[j+1], row[j+d] - v[j]).
 * Eight diagonals per pass, skewed (level t at position i-t+1 on trip i, every level taking the
 * right end row[i+d]), so intermediate diagonals stay in registers: the same algorithm as
 * endGameValue in src/solvers/end-game.ts, which does twelve per pass. Here eight per pass
 * measured 25% faster than one per pass (0.25 s against 0.34 s at 20,000), and twelve no faster.
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

/* Eight diagonals: length d to d+8 (m >= 8 intervals of length d+1). */
static void step8(const int32_t *row, int32_t *v, int d, int m) {
  int32_t p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0;
  int32_t r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, w0 = v[0];
  for (int i = 0; i < m; i++) {
    int32_t r0 = row[i], R = row[i + d], w1 = v[i + 1];
    int32_t a1 = MAX(r0 - w1, R - w0), a2 = MAX(r1 - a1, R - p1), a3 = MAX(r2 - a2, R - p2);
    int32_t a4 = MAX(r3 - a3, R - p3), a5 = MAX(r4 - a4, R - p4), a6 = MAX(r5 - a5, R - p5);
    int32_t a7 = MAX(r6 - a6, R - p6), a8 = MAX(r7 - a7, R - p7);
    if (i >= 7) v[i - 7] = a8;
    p1 = a1; p2 = a2; p3 = a3; p4 = a4; p5 = a5; p6 = a6; p7 = a7;
    r7 = r6; r6 = r5; r5 = r4; r4 = r3; r3 = r2; r2 = r1; r1 = r0;
    w0 = w1;
  }
}

static int32_t value(const int32_t *row, int n) {
  int32_t *v = calloc(n + 1, sizeof *v);
  int d = 0;
  for (; n - d >= 8; d += 8) step8(row, v, d, n - d);
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
