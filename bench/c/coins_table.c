/* The whole-board misère coin table, single-threaded: the same word-parallel block algorithm as
 * src/solvers/coin-table.ts (computeBlock), reading the layout the TypeScript side computed from a
 * file (argv[1]) so both fill exactly the same table. Runs argv[2] times after one warm-up (0: one
 * run, no warm-up) and prints full_board_wins, losing (count of losing subsets) and median_ms.
 * With argv[3] = n (below the block count), computes only blocks 0 .. n-1 (every block's
 * dependencies have smaller indices, so these are real blocks of the table), once, and prints
 * block_ms_<h> for each and median_ms (their total): a partial run to estimate a big table's
 * build rate without building it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

static int cells, blockBits, wordBits, chunkBits, nIn, nCross, nFlat;
static int32_t *inWord, *cross, *flatW, *flatB;
static uint32_t Z[32], LAYER[6];
static uint32_t **blocks;
/* Per word offset w of a chunk, the in-chunk takes that fit it (sW ⊆ w): fitOff[w] .. fitOff[w+1]
 * index fitSrc (the child's word offset w ^ sW), fitB (sB) and fitZ (Z[sB]). */
static int32_t *fitOff, *fitSrc, *fitB;
static uint32_t *fitZ;

static int popc(unsigned x) { return __builtin_popcount(x); }

/* The takes reaching above the chunk sorted by sW (stable), as the TypeScript side sorts them. */
static int32_t *crossSorted;

/* Up to four takes reaching above the chunk with the same sW, fused: each destination word
 * dst[w] (w over the submasks of `free`) ORs in (~s_i[w] & z_i) << b_i. */
static void crossPass(uint32_t *dst, uint32_t free, const uint32_t **s, const uint32_t *z, const uint32_t *b) {
  const uint32_t *s0 = s[0], *s1 = s[1], *s2 = s[2], *s3 = s[3];
  uint32_t z0 = z[0], z1 = z[1], z2 = z[2], z3 = z[3], b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], w = 0;
  do {
    dst[w] |= ((~s0[w] & z0) << b0) | ((~s1[w] & z1) << b1) | ((~s2[w] & z2) << b2) | ((~s3[w] & z3) << b3);
    w = (w - free) & free;
  } while (w != 0);
}

/* As crossPass, for groups of one or two takes. */
static void crossPass2(uint32_t *dst, uint32_t free, const uint32_t **s, const uint32_t *z, const uint32_t *b) {
  const uint32_t *s0 = s[0], *s1 = s[1];
  uint32_t z0 = z[0], z1 = z[1], b0 = b[0], b1 = b[1], w = 0;
  do {
    dst[w] |= ((~s0[w] & z0) << b0) | ((~s1[w] & z1) << b1);
    w = (w - free) & free;
  } while (w != 0);
}

static void computeBlock(int h) {
  uint32_t *W = blocks[h];
  uint32_t chunkWords = 1u << chunkBits, mids = 1u << (wordBits - chunkBits), chunkMask = chunkWords - 1;
  memset(W, 0, sizeof(uint32_t) << wordBits);
  int singles = nIn == 5;
  for (int i = 0; i < nIn; i++) if (popc(inWord[i]) != 1) singles = 0;
  for (uint32_t mid = 0; mid < mids; mid++) {
    uint32_t base = mid * chunkWords;
    {
      /* Takes reaching above the chunk, in the order of crossSorted (by sW): consecutive takes of
       * equal sW are streamed up to four at a time (crossPass2 for up to two, else crossPass),
       * unused slots reading this chunk with mask 0, like the TypeScript side. */
      const uint32_t *gs[4];
      uint32_t gz[4], gb[4], curW = 0;
      int n = 0;
      for (int i = 0; i <= nCross; i++) {
        uint32_t sH = 0, sM = 0, sW = 0xffffffffu, sB = 0;
        if (i < nCross) {
          sH = crossSorted[4 * i], sM = crossSorted[4 * i + 1], sW = crossSorted[4 * i + 2], sB = crossSorted[4 * i + 3];
          if ((sH & h) != sH || (sM & mid) != sM) continue;
        }
        if (n > 0 && (sW != curW || n == 4)) {
          for (int k = n; k < 4; k++) gs[k] = W + base, gz[k] = 0, gb[k] = 0;
          if (n <= 2) crossPass2(W + (base | curW), chunkMask & ~curW, gs, gz, gb);
          else crossPass(W + (base | curW), chunkMask & ~curW, gs, gz, gb);
          n = 0;
        }
        if (i == nCross) break;
        curW = sW;
        gs[n] = blocks[h ^ sH] + (mid ^ sM) * chunkWords;
        gz[n] = Z[sB];
        gb[n] = sB;
        n++;
      }
    }
    if (h == 0 && mid == 0) W[0] |= 1;
    uint32_t *C = W + base;
    for (uint32_t w = 0; w < chunkWords; w++) {
      uint32_t acc = C[w];
      for (int k = fitOff[w], end = fitOff[w + 1]; k < end; k++) acc |= (~C[fitSrc[k]] & fitZ[k]) << fitB[k];
      if (acc != 0xffffffffu) {
        for (int k = 1; k <= 5; k++) {
          if (singles) {
            uint32_t lost = ~acc;
            acc |= (((lost & Z[1]) << 1) | ((lost & Z[2]) << 2) | ((lost & Z[4]) << 4) | ((lost & Z[8]) << 8) | ((lost & Z[16]) << 16)) & LAYER[k];
          } else {
            for (int i = 0; i < nIn; i++) {
              uint32_t t = inWord[i];
              if (popc(t) <= k) acc |= ((~acc & Z[t]) << t) & LAYER[k];
            }
          }
        }
      }
      C[w] = acc;
    }
  }
}

static int32_t *readInts(FILE *f, int n) {
  int32_t *a = malloc(sizeof(int32_t) * (n > 0 ? n : 1));
  for (int i = 0; i < n; i++) if (fscanf(f, "%d", &a[i]) != 1) exit(3);
  return a;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  FILE *f = fopen(argv[1], "r");
  if (!f) return 2;
  if (fscanf(f, "%d %d %d %d", &cells, &blockBits, &wordBits, &chunkBits) != 4) return 3;
  if (fscanf(f, "%d", &nIn) != 1) return 3;
  inWord = readInts(f, nIn);
  if (fscanf(f, "%d", &nCross) != 1) return 3;
  cross = readInts(f, 4 * nCross);
  if (fscanf(f, "%d", &nFlat) != 1) return 3;
  int32_t *flat = readInts(f, 2 * nFlat);
  flatW = malloc(sizeof(int32_t) * (nFlat + 1));
  flatB = malloc(sizeof(int32_t) * (nFlat + 1));
  for (int i = 0; i < nFlat; i++) flatW[i] = flat[2 * i], flatB[i] = flat[2 * i + 1];
  fclose(f);
  crossSorted = malloc(sizeof(int32_t) * (4 * nCross + 1));
  for (int v = 0, j = 0; j < nCross; v++)
    for (int i = 0; i < nCross; i++)
      if (cross[4 * i + 2] == v) memcpy(crossSorted + 4 * j++, cross + 4 * i, 4 * sizeof(int32_t));
  for (int s = 0; s < 32; s++) {
    for (int b = 0; b < 32; b++) if ((b & s) == 0) Z[s] |= 1u << b;
    LAYER[popc(s)] |= 1u << s;
  }
  {
    int cw = 1 << chunkBits, n = 0;
    fitOff = malloc(sizeof(int32_t) * (cw + 1));
    fitSrc = malloc(sizeof(int32_t) * ((size_t)cw * nFlat + 1));
    fitB = malloc(sizeof(int32_t) * ((size_t)cw * nFlat + 1));
    fitZ = malloc(sizeof(uint32_t) * ((size_t)cw * nFlat + 1));
    for (int w = 0; w < cw; w++) {
      fitOff[w] = n;
      for (int e = 0; e < nFlat; e++) {
        if ((w & flatW[e]) != flatW[e]) continue;
        fitSrc[n] = w ^ flatW[e], fitB[n] = flatB[e], fitZ[n] = Z[flatB[e]];
        n++;
      }
    }
    fitOff[cw] = n;
  }
  int nBlocks = 1 << blockBits;
  int partial = argc > 3 ? atoi(argv[3]) : 0;
  if (partial < 0 || partial >= nBlocks) partial = 0;
  blocks = calloc(nBlocks, sizeof(uint32_t *));
  for (int h = 0; h < (partial ? partial : nBlocks); h++) blocks[h] = malloc(sizeof(uint32_t) << wordBits);
  if (partial) {
    double total = 0;
    for (int h = 0; h < partial; h++) {
      double t0 = now_ms();
      computeBlock(h);
      double dt = now_ms() - t0;
      total += dt;
      printf("block_ms_%d=%.3f\n", h, dt);
    }
    printf("median_ms=%.3f\n", total);
    return 0;
  }
  int runs = atoi(argv[2]);
  double times[64];
  int total = runs > 0 ? runs + 1 : 1;
  if (runs > 63) runs = 63;
  for (int r = 0; r < total; r++) {
    double t0 = now_ms();
    for (int h = 0; h < nBlocks; h++) computeBlock(h);
    double dt = now_ms() - t0;
    if (runs == 0) times[0] = dt;
    else if (r > 0) times[r - 1] = dt;
  }
  int nt = runs > 0 ? runs : 1;
  qsort(times, nt, sizeof(double), cmp_double);
  uint64_t losing = 0;
  for (int h = 0; h < nBlocks; h++)
    for (uint64_t w = 0; w < (1ull << wordBits); w++) losing += 32 - popc(blocks[h][w]);
  uint32_t last = blocks[nBlocks - 1][(1u << wordBits) - 1];
  printf("full_board_wins=%d\nlosing=%llu\nmedian_ms=%.3f\n", (int)(last >> 31), (unsigned long long)losing, times[nt / 2]);
  return 0;
}
