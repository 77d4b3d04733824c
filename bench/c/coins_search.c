/* Memoized misère search of coin positions on the 6×6 square, single-threaded (the algorithm of
 * src/solvers/coin-search.ts, with 64-bit masks): negamax with a transposition table keyed by the
 * canonical position (least image under the 8 symmetries). Isolated coins (no neighbour on any
 * line) are single-coin games and two of them cancel in misère play (* + * = 0), so a position is
 * searched as its core (the coins with a neighbour) and the parity of its isolated coins. At a
 * node: first the two takes that won last at this ply and the last answer to the take that led
 * here, when they reach a position the table holds as lost; then every take, in order, with its
 * child: a take leaving one coin in all wins, one leaving none is skipped, one reaching a position
 * the table holds as lost wins (enhanced transposition cutoff); then the children not known won,
 * fewest core coins first. argv: a time budget per position in ms (0: none), then the board masks
 * to solve (decimal), each with a fresh table. Prints win_<i>=0|1 per position (2: not proved
 * within the budget, counted at the budget) and median_ms. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

#define N 36
#define DIRS 4
#define TT_BITS 22
#define PROBE 8
#define MAXM 512
#define PLIES 38
#define MAXT 400
static uint64_t takes[MAXT + 1], around[MAXT + 1], nb[N];
static int nTakes, iso; /* take ids: every segment, then iso: the isolated coin of the parity */
static int rayOff[N * DIRS + 1], rayTake[MAXT]; /* per cell and direction: its takes of 2, 3, … */
static uint64_t symByte[8][5][256];
static uint64_t *tt; /* key (37 bits: core image, parity at bit 36) | (win << 62) | (1 << 63) */
static long nodes;
static double deadline; /* now_ms() clock; 0: none */
static int outOfTime;
static int killer1[PLIES], killer2[PLIES], lastTake[PLIES], counter[MAXT + 2];
static uint64_t childCore[PLIES][MAXM], childKey[PLIES][MAXM];
static int childP[PLIES][MAXM], moveT[PLIES][MAXM], order[PLIES][MAXM];

#define KEY_MASK ((1ull << 37) - 1)
static uint64_t image(uint64_t m, int k) {
  uint64_t r = 0;
  for (int b = 0; b < 5; b++) r |= symByte[k][b][(m >> (8 * b)) & 255];
  return r;
}
static uint64_t canon(uint64_t core, int p) {
  uint64_t best = image(core, 0);
  for (int k = 1; k < 8; k++) {
    uint64_t x = image(core, k);
    if (x < best) best = x;
  }
  return best | (uint64_t)p << 36;
}
static uint32_t slotOf(uint64_t key) {
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> (64 - TT_BITS)) & ((1u << TT_BITS) - PROBE);
}
static int probe(uint64_t key) {
  uint32_t s0 = slotOf(key);
  for (uint32_t s = s0; s < s0 + PROBE; s++) {
    uint64_t e = tt[s];
    if (!(e >> 63)) return -1;
    if ((e & KEY_MASK) == key) return (int)((e >> 62) & 1);
  }
  return -1;
}
static void store(uint64_t key, int win) {
  uint32_t s0 = slotOf(key), s = s0;
  for (; s < s0 + PROBE; s++) if (!(tt[s] >> 63) || (tt[s] & KEY_MASK) == key) break;
  if (s == s0 + PROBE) s = s0;
  tt[s] = key | ((uint64_t)win << 62) | (1ull << 63);
}

/* The child of (core, p) after take t: 1 when it holds one coin in all (the take wins at once), 2
 * when it holds none (the take took the last coin), else 0. */
static int makeChild(uint64_t core, int p, int t, uint64_t *cc, int *cp) {
  if (t == iso) {
    *cc = core, *cp = 0;
    return core == 0 ? 2 : 0;
  }
  uint64_t c = core ^ takes[t], r = around[t] & c;
  int q = p;
  while (r) {
    int x = __builtin_ctzll(r);
    r &= r - 1;
    if (!(nb[x] & c)) c ^= 1ull << x, q ^= 1;
  }
  *cc = c, *cp = q;
  return c ? 0 : q == 1 ? 1 : 2;
}
static int won(int ply, int t) {
  if (killer1[ply] != t) killer2[ply] = killer1[ply], killer1[ply] = t;
  counter[lastTake[ply] + 1] = t;
  return 1;
}
static int quickWin(uint64_t core, int p, int t) {
  if (t < 0) return 0;
  if (t == iso) {
    if (!p) return 0;
  } else if ((core & takes[t]) != takes[t]) return 0;
  uint64_t cc;
  int cp, r = makeChild(core, p, t, &cc, &cp);
  if (r) return r == 1;
  return probe(canon(cc, cp)) == 0;
}

static int solve(uint64_t core, int p, int ply, int keyed, uint64_t key);

static int expand(uint64_t core, int p, int ply) {
  int k1 = killer1[ply], k2 = killer2[ply], cm = counter[lastTake[ply] + 1];
  if (quickWin(core, p, k1)) return won(ply, k1);
  if (k2 != k1 && quickWin(core, p, k2)) return won(ply, k2);
  if (cm != k1 && cm != k2 && quickWin(core, p, cm)) return won(ply, cm);
  uint64_t *cc = childCore[ply], *ck = childKey[ply];
  int *cp = childP[ply], *mt = moveT[ply], *ord = order[ply], len = 0;
  /* The isolated coin first, then every coin of the core with its rays. */
  for (int i = p ? -1 : 0; i < N; i++) {
    if (i >= 0 && !((core >> i) & 1)) continue;
    for (int d = -1; d < DIRS; d++) {
      int j = d < 0 ? -1 : rayOff[i * DIRS + d], end = d < 0 ? 0 : rayOff[i * DIRS + d + 1];
      for (; j < end; j++) {
        int t = i < 0 ? iso : j < 0 ? i : rayTake[j];
        if (j >= 0 && (core & takes[t]) != takes[t]) break;
        int r = makeChild(core, p, t, &cc[len], &cp[len]);
        if (r == 1) return won(ply, t);
        if (r == 2) continue;
        ck[len] = canon(cc[len], cp[len]);
        int known = probe(ck[len]);
        if (known == 0) return won(ply, t);
        mt[len] = t;
        ord[len] = known == 1 ? -1 : 64 - __builtin_popcountll(cc[len]);
        len++;
      }
      if (i < 0) break;
    }
  }
  for (;;) {
    int m = -1, best = -1;
    for (int x = 0; x < len; x++)
      if (ord[x] > best) best = ord[x], m = x;
    if (m < 0) return 0;
    ord[m] = -1;
    lastTake[ply + 1] = mt[m];
    if (!solve(cc[m], cp[m], ply + 1, 1, ck[m])) return outOfTime ? 0 : won(ply, mt[m]);
    if (outOfTime) return 0;
  }
}

/* keyed: the caller passes the canonical key (found as the take was generated). */
static int solve(uint64_t core, int p, int ply, int keyed, uint64_t key) {
  if (core == 0) return p == 0; /* no coin left wins (the opponent took the last); one loses */
  if (!keyed) key = canon(core, p);
  int known = probe(key);
  if (known >= 0) return known;
  nodes++;
  if (outOfTime || ((nodes & 1023) == 0 && deadline > 0 && now_ms() > deadline)) {
    outOfTime = 1; /* unwind without storing anything: the caller reports "not proved" */
    return 0;
  }
  int win = expand(core, p, ply);
  if (outOfTime) return 0;
  store(key, win);
  return win;
}

/* A whole board position: its isolated coins split off first. */
static int solveFrom(uint64_t m) {
  uint64_t core = m;
  int p = 0;
  for (int c = 0; c < N; c++)
    if (((m >> c) & 1) && !(nb[c] & m)) core ^= 1ull << c, p ^= 1;
  lastTake[0] = -1;
  return solve(core, p, 0, 0, 0);
}

int main(int argc, char **argv) {
  const int dr[DIRS] = {0, 1, 1, 1}, dc[DIRS] = {1, 0, 1, -1};
  for (int cell = 0; cell < N; cell++) {
    takes[nTakes++] = 1ull << cell; /* take id of a single coin: its cell */
  }
  for (int cell = 0; cell < N; cell++) {
    for (int d = 0; d < DIRS; d++) {
      rayOff[cell * DIRS + d] = nTakes - N;
      uint64_t m = 1ull << cell;
      int r = cell / 6 + dr[d], c = cell % 6 + dc[d];
      if (r < 6 && c >= 0 && c < 6) {
        int o = r * 6 + c;
        nb[cell] |= 1ull << o;
        nb[o] |= 1ull << cell;
      }
      for (; r < 6 && c >= 0 && c < 6; r += dr[d], c += dc[d]) {
        m |= 1ull << (r * 6 + c);
        rayTake[nTakes - N] = nTakes;
        takes[nTakes++] = m;
      }
    }
  }
  rayOff[N * DIRS] = nTakes - N;
  iso = nTakes;
  for (int t = 0; t < nTakes; t++) {
    uint64_t a = 0;
    for (int c = 0; c < N; c++)
      if ((takes[t] >> c) & 1) a |= nb[c];
    around[t] = a & ~takes[t];
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
  tt = malloc(sizeof(uint64_t) << TT_BITS);
  if (argc < 2) return 2;
  double budget = atof(argv[1]);
  int count = argc - 2;
  double *times = malloc(sizeof(double) * (count > 0 ? count : 1));
  for (int i = 0; i < count; i++) {
    uint64_t m = strtoull(argv[i + 2], NULL, 10);
    memset(tt, 0, sizeof(uint64_t) << TT_BITS);
    for (int k = 0; k < PLIES; k++) killer1[k] = killer2[k] = lastTake[k] = -1;
    for (int k = 0; k < MAXT + 2; k++) counter[k] = -1;
    double t0 = now_ms();
    deadline = budget > 0 ? t0 + budget : 0;
    outOfTime = 0;
    long n0 = nodes;
    int w = solveFrom(m);
    times[i] = outOfTime ? budget : now_ms() - t0;
    printf("win_%d=%d\nnodes_%d=%ld\n", i, outOfTime ? 2 : w, i, nodes - n0);
  }
  qsort(times, count, sizeof(double), cmp_double);
  printf("nodes=%ld\nmedian_ms=%.3f\n", nodes, count ? times[count / 2] : 0.0);
  return 0;
}
