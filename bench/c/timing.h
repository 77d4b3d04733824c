/* Timing helpers shared by the C benchmarks in bench/c, compiled by bench/c.ts with cc -O2. */
#ifndef TAKE_ARENA_TIMING_H
#define TAKE_ARENA_TIMING_H
#include <stdlib.h>
#include <time.h>

/* Milliseconds on the given clock (CLOCK_MONOTONIC for wall time, CLOCK_PROCESS_CPUTIME_ID for CPU). */
static inline double clock_ms(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Wall-clock milliseconds. */
static inline double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

/* qsort comparator of doubles, for medians. */
static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
#endif
