/*
 * Subtract-a-square nim-values of piles 0..n (default 10^6): g(n) = mex of g(n - k^2). Eight
 * consecutive piles are decided together (lanes): for each square s >= 9 the eight options are
 * adjacent in the table and are stamped into eight lanes of one marks array; takes 1 and 4 stay
 * inside the group and are applied lane by lane. The marks are lane-major (lane * V + value: one
 * add per stamp, where value * 8 + lane needs a shift; measured about 10% faster). The same
 * algorithm and layout as squaresNimValues in src/solvers/grundy.ts; the lanes measured about 15%
 * faster than the one-pile loop here, so they are the C reference.
 *
 * Usage: squares_nim [upto] [runs]. One warm-up run. Prints `zeros=`, `max=`, `sum=` (checks
 * against the TypeScript table), `cpu_median_ms=<ms>` and `median_ms=<wall ms>`.
 * Benchmark code only (bench/c.ts compiles it with cc -O2).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "timing.h"

static uint16_t *nim(long upto) {
  uint16_t *g = calloc(upto + 1, sizeof *g);
  long r = 1;
  while ((r + 1) * (r + 1) <= upto) r++;
  long V = r + 2; /* values stay <= r, and the mex scan reads one slot past them */
  int32_t *marks = calloc(8 * V, sizeof *marks);
  long head = upto < 63 ? upto : 63, n;
  for (n = 1; n <= head; n++) {
    for (long d = 1, sq = 1; sq <= n; d += 2, sq += d) marks[g[n - sq]] = -n;
    int m = 0;
    while (marks[m] == -n) m++;
    g[n] = m;
  }
  for (n = 64; n + 7 <= upto; n += 8) {
    long sq = 9, d = 7;
    for (; sq <= n; sq += d, d += 2) {
      const uint16_t *b = g + n - sq;
      marks[b[0]] = n; marks[b[1] + V] = n; marks[b[2] + 2 * V] = n; marks[b[3] + 3 * V] = n;
      marks[b[4] + 4 * V] = n; marks[b[5] + 5 * V] = n; marks[b[6] + 6 * V] = n; marks[b[7] + 7 * V] = n;
    }
    for (long j = sq - n; j <= 7; j++) marks[g[n + j - sq] + j * V] = n;
    for (int j = 0; j < 8; j++) {
      long p = n + j;
      int32_t *mk = marks + j * V;
      mk[g[p - 1]] = n;
      mk[g[p - 4]] = n;
      int m = 0;
      while (mk[m] == n) m++;
      g[p] = m;
    }
  }
  for (; n <= upto; n++) {
    for (long d = 1, sq = 1; sq <= n; d += 2, sq += d) marks[g[n - sq]] = -n;
    int m = 0;
    while (marks[m] == -n) m++;
    g[n] = m;
  }
  free(marks);
  return g;
}

int main(int argc, char **argv) {
  long upto = argc > 1 ? atol(argv[1]) : 1000000;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  if (runs < 1) runs = 1;
  if (runs > 64) runs = 64;
  double wall[64], cpu[64];
  free(nim(upto)); /* warm-up, as the TypeScript side does */
  long zeros = 0, max = 0, sum = 0;
  for (int r = 0; r < runs; r++) {
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    uint16_t *g = nim(upto);
    cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    wall[r] = clock_ms(CLOCK_MONOTONIC) - w0;
    zeros = max = sum = 0;
    for (long n = 0; n <= upto; n++) {
      if (!g[n]) zeros++;
      if (g[n] > max) max = g[n];
      sum += g[n];
    }
    free(g);
  }
  qsort(wall, runs, sizeof wall[0], cmp_double);
  qsort(cpu, runs, sizeof cpu[0], cmp_double);
  printf("zeros=%ld\nmax=%ld\nsum=%ld\ncpu_median_ms=%.3f\nmedian_ms=%.3f\n", zeros, max, sum, cpu[runs / 2], wall[runs / 2]);
  return 0;
}
