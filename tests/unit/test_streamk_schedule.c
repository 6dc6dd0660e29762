/* Rung 26, Stream-K: the grids and workspace the host gives its two kernels carry out the
 * schedule that kernels-cuda/26-streamk.cu describes. The kernel needs a GPU (the CUDA
 * tests verify it there); this test plays its schedule on the host, block by block, from
 * the grids rung.launches gives, and checks what a wrong grid or a wrong slot rule would
 * break: every iteration of every tile done exactly once, each partial tile in a slot that
 * exists and that nothing else writes, and each shared tile summed once, piece by piece,
 * by the blocks of `fixup` that shared it, each piece from exactly the slots that hold the
 * tile's parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rungs/registry.h"

/* Where a tile's iterations went: to C whole, or in parts to slots. */
typedef struct {
    long done;     /* iterations done, by any block */
    int whole;     /* written to C by `gemm` */
    int parts;     /* parts written to slots */
    long slots[8]; /* which slots (block * 2 + slot), in the order of the blocks */
    int summed;    /* times `fixup`'s pieces of it reached its end */
    long next_e;   /* the float4 where the next piece must start */
} tile_record;

static long ceil_div(long n, long d) { return (n + d - 1) / d; }

/* One block of `fixup` summing a piece of ne float4s over P parts, as the kernel shares it
 * among its threads: with a float4 or more per thread, thread t adds the float4s t,
 * t + threads, ... over every part; with fewer, R groups of L threads, thread (g, i)
 * adding parts g, g + R, ... of float4 i. Every (float4, part) pair must be added exactly
 * once. */
static void check_piece_sum(long ne, long P, long threads)
{
    unsigned char *added = calloc((size_t)(ne * P) + 1, 1);
    if (!added) {
        CHECK(!"out of memory");
        return;
    }
    if (ne >= threads) {
        for (long t = 0; t < threads; t++)
            for (long e = t; e < ne; e += threads)
                for (long p = 0; p < P; p++)
                    added[e * P + p]++;
    } else if (ne > 0) {
        const long R = P < threads / ne ? P : threads / ne, L = threads / R;
        CHECK(R >= 1 && L >= ne);
        for (long t = 0; t < threads; t++) {
            const long g = t / L, i = t % L;
            if (g < R && i < ne)
                for (long p = g; p < P; p += R)
                    added[i * P + p]++;
        }
    }
    for (long k = 0; k < ne * P; k++)
        CHECK(added[k] == 1);
    free(added);
}

/* One shape on a device of `units` compute units, in elements of `bytes` bytes. */
static void play(const rung *r, const int *v, int M, int N, int K, int units, int bytes)
{
    const launch_shape shape = {M, N, K, units, bytes, 0, 0};
    rung_launch l[RUNG_MAX_LAUNCHES];
    const int n = r->launches(v, &shape, l);
    const long threads = (long)l[0].dims.local[0], G = (long)l[0].dims.global[0] / threads;
    const long rows = (long)l[0].dims.global[1];
    const long slots = (long)(rung_workspace(r, v, &shape) / ((size_t)v[0] * (size_t)v[1]));
    /* The wave: as many blocks per compute unit as the kernel's launch bounds promise fit,
     * 512 threads' worth in float and 256 in double (a block is TSM x TSN / 64 threads). */
    const long threads_per_unit = bytes == 8 ? 256 : 512;
    CHECK(threads == (long)v[0] * v[1] / 64);
    CHECK(G == (long)units * (threads < threads_per_unit ? threads_per_unit / threads : 1));
    CHECK(strcmp(l[0].kernel, "gemm") == 0 && (rows == 1 || rows == 2));

    const long tiles_m = ceil_div(M, v[0]), tiles = tiles_m * ceil_div(N, v[1]);
    const long ipt = K > 0 ? ceil_div(K, v[2]) : 1;
    /* The kernel's schedule, from the grid it is given (G = gridDim.x). */
    const long rest = tiles % G;
    const long sk = rest == 0 ? 0 : tiles < G * (1 + v[4]) ? tiles : rest + v[4] * G;
    const long dp = tiles - sk, S = sk * ipt, B = S < G ? S : G;
    CHECK(dp % G == 0);              /* whole waves: every block of row 0 as many tiles */
    CHECK((rows == 2) == (dp > 0));  /* row 0 only when some tiles go whole */
    CHECK(n == (sk > 0 ? 2 : 1));    /* fixup only when some are shared */

    tile_record *rec = calloc((size_t)tiles, sizeof *rec);
    char *used = calloc((size_t)(2 * G + 1), 1);
    if (!rec || !used) {
        CHECK(!"out of memory");
        return;
    }
    /* Row 0 of `gemm`: block b takes tiles b, b + G, ... */
    for (long b = 0; rows == 2 && b < G; b++)
        for (long t = b; t < dp; t += G) {
            rec[t].done += ipt;
            rec[t].whole++;
        }
    /* The wave: block j's run, tile by tile. */
    for (long j = 0; j < B; j++) {
        const long begin = j * S / B, end = (j + 1) * S / B;
        CHECK(end > begin); /* no block of the wave idles */
        int slot = 0;
        for (long it = begin; it < end; slot = 1) {
            const long t = it / ipt, stop = (t + 1) * ipt < end ? (t + 1) * ipt : end;
            tile_record *x = &rec[dp + t];
            x->done += stop - it;
            if (it == t * ipt && stop == (t + 1) * ipt) {
                x->whole++;
            } else {
                const long at = j * 2 + slot;
                CHECK(at < slots && !used[at]);
                used[at] = 1;
                if (x->parts < 8)
                    x->slots[x->parts] = at;
                x->parts++;
            }
            it = stop;
        }
    }
    /* `fixup`, on its grid of G blocks: block j takes a piece of the first and of the last
     * tile its range touches, when blocks shared it: the (j - first)-th of P even pieces of
     * the tile's E float4s, summed over the parts of blocks first .. last. The pieces of a
     * tile must follow one another in the order of its blocks and end at E. */
    if (n == 2) {
        CHECK(strcmp(l[1].kernel, "fixup") == 0 && (long)l[1].dims.global[0] / threads == G &&
              l[1].dims.global[1] == 1);
        const long E = (long)v[0] * v[1] / 4;
        for (long j = 0; j < B; j++) {
            const long begin = j * S / B, end = (j + 1) * S / B;
            const long t_first = begin / ipt, t_last = (end - 1) / ipt;
            for (long t = t_first; t <= t_last; t += t_last > t_first ? t_last - t_first : 1) {
                const long first = ((t * ipt + 1) * B - 1) / S;  /* block_of(t * ipt) */
                const long last = (((t + 1) * ipt) * B - 1) / S; /* block_of(its last) */
                tile_record *x = &rec[dp + t];
                if (first == last) {
                    CHECK(x->parts == 0);
                    continue;
                }
                const long P = last - first + 1, e0 = (j - first) * E / P,
                           e1 = (j - first + 1) * E / P;
                CHECK(first <= j && j <= last && x->parts == P);
                CHECK(e0 == x->next_e && e1 >= e0); /* empty when P > E */
                x->next_e = e1;
                x->summed += e1 == E;
                /* the slot the kernel reads for each part */
                for (long p = first; p <= last && p - first < 8; p++)
                    CHECK(x->slots[p - first] ==
                          p * 2 + (p == first && first * S / B < t * ipt ? 1 : 0));
                check_piece_sum(e1 - e0, P, threads);
            }
        }
    }
    for (long t = 0; t < tiles; t++) {
        CHECK(rec[t].done == ipt);
        CHECK(rec[t].parts == 0 ? rec[t].whole == 1 && rec[t].summed == 0
                                : rec[t].whole == 0 && rec[t].summed == 1);
    }
    free(rec);
    free(used);
}

int main(void)
{
    const rung *r = registry_find("streamk");
    CHECK(r && r->number == 26 && r->parent == 19 && r->blas_args && r->takes_transposes &&
          r->takes_double && r->launches && r->workspace_floats && r->only_backend &&
          strcmp(r->only_backend, "cuda") == 0);
    int v[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, v);
    CHECK(rung_param_index(r, "SKW") == 4 && r->nparams == 5);

    /* Shapes of every kind: a tile, tiles fewer than the wave (128 x 128 x 32768), whole
     * waves (no stream-K tiles), ragged ones (3072^3: 576 tiles), K = 0 (alpha = 0), K
     * shorter than one tile, primes, more blocks than iterations, and one 64 x 64 tile
     * shared by more blocks than it has float4s (64 x 64 x 65536 on 132 units). */
    const int shapes[][3] = {{1, 1, 1},         {1, 1, 0},        {128, 128, 32768},
                             {3072, 3072, 3072}, {997, 1013, 1009}, {4096, 4096, 4096},
                             {1024, 4224, 64},   {333, 7777, 555},  {5, 3, 97},
                             {128, 256, 8},      {4099, 3001, 2999}, {130, 67, 1000},
                             {64, 64, 65536}};
    const int units[] = {1, 2, 7, 132};
    const int tiles[][2] = {{128, 128}, {64, 128}, {64, 64}};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
            for (size_t ti = 0; ti < sizeof tiles / sizeof tiles[0]; ti++)
                for (int bytes = 4; bytes <= 8; bytes += 4)
                    for (int skw = 0; skw <= 1; skw++) {
                        rung_defaults(r, 0, v);
                        v[0] = tiles[ti][0];
                        v[1] = tiles[ti][1];
                        v[3] = 32;
                        v[4] = skw;
                        play(r, v, shapes[sh][0], shapes[sh][1], shapes[sh][2], units[u],
                             bytes);
                    }

    /* The cases the kernel's header works through, at the defaults (128 x 128 x 8 tiles:
     * 256 threads, two blocks per SM) on 132 SMs: 3072^3 has 576 tiles for a wave of 264,
     * so 48 + 264 are shared and 264 go whole; 1024 x 4224 is 264 tiles, whole waves, one
     * kernel and no workspace; 128 x 128 x 32768 is one tile of 4096 iterations for all
     * 264 blocks. In double the wave is 132 blocks. */
    rung_defaults(r, 0, v);
    rung_launch l[RUNG_MAX_LAUNCHES];
    const launch_shape cube = {3072, 3072, 3072, 132, 4, 0, 0},
                       whole = {1024, 4224, 64, 132, 4, 0, 0},
                       deep = {128, 128, 32768, 132, 0, 0, 0},
                       cube8 = {3072, 3072, 3072, 132, 8, 0, 0};
    CHECK(r->launches(v, &cube8, l) == 2 && l[0].dims.global[0] == 132 * 256);
    CHECK(r->launches(v, &cube, l) == 2 && l[0].dims.global[0] == 264 * 256 &&
          l[0].dims.global[1] == 2);
    CHECK(rung_workspace(r, v, &cube) == (size_t)264 * 2 * 128 * 128);
    CHECK(r->launches(v, &whole, l) == 1 && l[0].dims.global[1] == 2);
    CHECK(r->workspace_floats(v, &whole) == 0);
    CHECK(r->launches(v, &deep, l) == 2 && l[0].dims.global[1] == 1);
    return CHECK_DONE();
}
