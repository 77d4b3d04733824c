/*
 * Nim-values of an octal game or Grundy's game by the sparse space method: the same algorithm,
 * layout and probe as src/solvers/octal.ts (`octalNimTable`), for the TS/C comparison of
 * bench/octal.bench.ts.
 *
 * usage: octal CODE UPTO RUNS MASK KIND
 *   CODE  an octal code such as 0.6 or 4.07, or `grundy`
 *   MASK  the sparse space's 16-bit mask, KIND `range` or `domain` (the TS side's choice)
 * prints rare=, full_scans=, scan_pairs=, max=, sum= (over G(0..UPTO)), median_ms=, cpu_median_ms=,
 * rss_mb= (peak resident set). With OCTAL_PROGRESS set in the environment, a progress line on stderr every
 * 2^24 heaps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "timing.h"

#define MAX_VALUE 0xffff
#define PROBE 2048

static int take_all[64], leave_one[64], split[65];
static int n_all, n_one, n_split, unequal;
static int32_t marks[MAX_VALUE + 2];
static int32_t pending_at[MAX_VALUE + 2];
static uint8_t par[MAX_VALUE + 1];

static void parse_rule(const char *code) {
  if (strcmp(code, "grundy") == 0) {
    split[n_split++] = 0;
    unequal = 1;
    return;
  }
  const char *dot = strchr(code, '.');
  if (!dot) {
    fprintf(stderr, "bad code %s\n", code);
    exit(2);
  }
  if (dot > code && code[0] == '4') split[n_split++] = 0;
  for (int k = 1; dot[k]; k++) {
    int d = dot[k] - '0';
    if (d & 1) take_all[n_all++] = k;
    if (d & 2) leave_one[n_one++] = k;
    if (d & 4) split[n_split++] = k;
  }
}

static void too_large(int64_t n) {
  fprintf(stderr, "nim-value of heap %lld exceeds %d\n", (long long)n, MAX_VALUE);
  exit(3);
}

static void fill_by_definition(uint16_t *g, int32_t from, int32_t upto) {
  for (int32_t n = from; n <= upto; n++) {
    int32_t stamp = -n;
    for (int i = 0; i < n_all; i++)
      if (take_all[i] == n) marks[0] = stamp;
    for (int i = 0; i < n_one; i++) {
      int k = leave_one[i];
      if (k >= n) break;
      marks[g[n - k]] = stamp;
    }
    for (int s = 0; s < n_split; s++) {
      int32_t m = n - split[s];
      int32_t half = unequal ? (m - 1) >> 1 : m >> 1;
      for (int32_t a = 1; a <= half; a++) marks[g[a] ^ g[m - a]] = stamp;
    }
    int32_t v = 0;
    while (marks[v] == stamp) v++;
    if (v > MAX_VALUE) too_large(n);
    g[n] = (uint16_t)v;
  }
}

static int32_t *rare_heaps, *rare_values;
static int32_t rare_count, rare_cap;

static void push_rare(int32_t n, int32_t v) {
  if (rare_count == rare_cap) {
    rare_cap *= 2;
    rare_heaps = realloc(rare_heaps, sizeof(int32_t) * rare_cap);
    rare_values = realloc(rare_values, sizeof(int32_t) * rare_cap);
  }
  rare_heaps[rare_count] = n;
  rare_values[rare_count] = v;
  rare_count++;
}

static int64_t full_scans, scan_pairs;
/* OCTAL_PROGRESS set: a line on stderr every 2^24 heaps (for the long runs of bench/octal.bench.ts). */
static int progress;

static void sparse_fill(uint16_t *g, int domain, int t0, int32_t from, int32_t upto) {
  int same = unequal ? 1 : 0;
  for (int32_t n = from; n <= upto; n++) {
    int32_t stamp = n;
    for (int i = 0; i < n_all; i++)
      if (take_all[i] == n) marks[0] = stamp;
    for (int i = 0; i < n_one; i++) {
      int k = leave_one[i];
      if (k >= n) break;
      marks[g[n - k]] = stamp;
    }
    int32_t count = rare_count;
    for (int s = 0; s < n_split; s++) {
      int32_t m = n - split[s];
      int32_t end = count;
      if (count > 0 && rare_heaps[count - 1] >= m) {
        end = 0;
        while (rare_heaps[end] < m) end++;
      }
      if (same) {
        for (int32_t i = 0; i < end; i++) {
          int32_t r = rare_heaps[i], b = m - r;
          if (b != r) marks[rare_values[i] ^ g[b]] = stamp;
        }
      } else {
        for (int32_t i = 0; i < end; i++) marks[rare_values[i] ^ g[m - rare_heaps[i]]] = stamp;
      }
    }
    int cp = 1 ^ (domain & (n - t0));
    int32_t v = 0, pending = 0, first = -1;
    for (;;) {
      if (marks[v] != stamp) {
        if (par[v] == cp) break;
        if (pending == 0) first = v;
        pending_at[v] = stamp;
        pending++;
      }
      v++;
      if (v > MAX_VALUE) too_large(n);
    }
    int32_t c = v, value = c;
    if (pending > 0) {
      for (int s = 0; s < n_split && pending > 0; s++) {
        int32_t m = n - split[s];
        int32_t half = (m - same) >> 1;
        /* Two pairs a trip, as scanPairsFor in octal.ts. */
        int32_t a = 1, b = m - 1, hit = 0;
        for (; a < half; a += 2, b -= 2) {
          int32_t x0 = g[a] ^ g[b], x1 = g[a + 1] ^ g[b - 1];
          if (pending_at[x0] == stamp) {
            pending_at[x0] = 0;
            if (--pending == 0) { hit = a; break; }
          }
          if (pending_at[x1] == stamp) {
            pending_at[x1] = 0;
            if (--pending == 0) { hit = a + 1; break; }
          }
        }
        if (pending > 0 && a == half) {
          int32_t x = g[a] ^ g[b];
          if (pending_at[x] == stamp) {
            pending_at[x] = 0;
            if (--pending == 0) hit = a;
          }
        }
        scan_pairs += pending == 0 ? hit : half;
      }
      if (pending > 0) {
        full_scans++;
        for (int32_t u = first; u < c; u++)
          if (pending_at[u] == stamp) {
            value = u;
            break;
          }
      }
    }
    g[n] = (uint16_t)value;
    if (par[value] != cp) push_rare(n, value);
    if ((n & 0xffffff) == 0 && progress) {
      fprintf(stderr, "progress n=%d cpu_s=%.1f rare=%d\n", n, clock_ms(CLOCK_PROCESS_CPUTIME_ID) / 1000, rare_count);
      fflush(stderr);
    }
  }
}

static int parity16(int x) {
  x ^= x >> 8;
  x ^= x >> 4;
  x ^= x >> 2;
  x ^= x >> 1;
  return x & 1;
}

static void table(uint16_t *g, int32_t upto, int mask, int domain) {
  memset(marks, 0, sizeof marks);
  memset(pending_at, 0, sizeof pending_at);
  g[0] = 0;
  int32_t probe = upto < PROBE ? upto : PROBE;
  fill_by_definition(g, 1, probe);
  rare_count = 0;
  full_scans = scan_pairs = 0;
  if (n_split == 0 || upto == probe) return;
  for (int v = 0; v <= MAX_VALUE; v++) par[v] = (uint8_t)parity16(v & mask);
  int t0 = split[0];
  for (int32_t n = 1; n <= probe; n++)
    if ((par[g[n]] ^ (domain & (n - t0))) == 0) push_rare(n, g[n]);
  sparse_fill(g, domain, t0, probe + 1, upto);
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: octal CODE UPTO RUNS MASK range|domain\n");
    return 2;
  }
  parse_rule(argv[1]);
  int32_t upto = (int32_t)atoll(argv[2]);
  int runs = atoi(argv[3]);
  int mask = atoi(argv[4]);
  int domain = strcmp(argv[5], "domain") == 0;
  progress = getenv("OCTAL_PROGRESS") != NULL;
  rare_cap = 1024;
  rare_heaps = malloc(sizeof(int32_t) * rare_cap);
  rare_values = malloc(sizeof(int32_t) * rare_cap);
  uint16_t *g = calloc((size_t)upto + 1, sizeof(uint16_t));
  double *wall = malloc(sizeof(double) * runs), *cpu = malloc(sizeof(double) * runs);
  for (int r = 0; r < runs; r++) {
    double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = now_ms();
    table(g, upto, mask, domain);
    wall[r] = now_ms() - t0;
    cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
  }
  int64_t sum = 0;
  int max = 0;
  for (int32_t n = 0; n <= upto; n++) {
    sum += g[n];
    if (g[n] > max) max = g[n];
  }
  qsort(wall, runs, sizeof(double), cmp_double);
  qsort(cpu, runs, sizeof(double), cmp_double);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("rare=%d\nfull_scans=%lld\nscan_pairs=%lld\nmax=%d\nsum=%lld\n", rare_count, (long long)full_scans, (long long)scan_pairs, max, (long long)sum);
  printf("rss_mb=%.0f\ncpu_median_ms=%.1f\nmedian_ms=%.1f\n", ru.ru_maxrss / 1024.0, cpu[runs / 2], wall[runs / 2]);
  return 0;
}
