/* The registry: every rung is complete and consistent, lookups work, parameters are
 * checked, and devices that cannot take the defaults get small ones or a reason. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rungs/registry.h"
#include "params/params.h"
#include "core/runner.h"
#include "rungs/warptile.h"

/* The launches/workspace contract of a rung of several kernels (rung.launches), at one
 * shape it takes: 1 to RUNG_MAX_LAUNCHES named launches of whole work-groups, none larger
 * in any dimension than `geometry`'s (which the device checks see), and a workspace of at
 * least one float. */
static void check_launches(const rung *r, const int *v, launch_shape shape)
{
    char msg[LADDER_MSG];
    const gemm_size size = {shape.M, shape.N, shape.K};
    if (rung_check_size(r, v, &size, msg) != LADDER_OK)
        return; /* a shape the rung refuses (rung 20 above its cap) launches nothing */
    rung_launch l[RUNG_MAX_LAUNCHES];
    launch_dims main;
    r->geometry(v, shape.M, shape.N, &main);
    const int n = r->launches(v, &shape, l);
    CHECK(n >= 1 && n <= RUNG_MAX_LAUNCHES);
    for (int i = 0; i < n && i < RUNG_MAX_LAUNCHES; i++) {
        CHECK(l[i].kernel != NULL && l[i].kernel[0]);
        for (int d = 0; d < 2; d++) {
            CHECK(l[i].dims.local[d] >= 1 && l[i].dims.local[d] <= main.local[d]);
            CHECK(l[i].dims.global[d] >= l[i].dims.local[d] &&
                  l[i].dims.global[d] % l[i].dims.local[d] == 0);
        }
    }
    CHECK(rung_workspace(r, v, &shape) >= 1);
    /* An empty C: a caller may size W before the call returns at once (as BLAS does);
     * one element, without asking the rung (whose sizes divide by its count of tiles). */
    const launch_shape empty_m = {0, shape.N, shape.K, shape.compute_units, 4, 0, 0},
                       empty_n = {shape.M, 0, shape.K, shape.compute_units, 4, 0, 0};
    CHECK(rung_workspace(r, v, &empty_m) == 1 && rung_workspace(r, v, &empty_n) == 1);
}

/* Rung 19's slices as the kernels make them, counted one by one: SPLITS slices of
 * ceil(K tiles / SPLITS) tiles each, of which those that start before the last K tile
 * hold any. */
static int count_slices(int K, int tsk, int splits)
{
    const int ktiles = (K + tsk - 1) / tsk, per = (ktiles + splits - 1) / splits;
    int count = 0;
    for (int s = 0; s < splits; s++)
        count += s * per < ktiles;
    return count;
}

/* Rung 19 at one shape: the kernels it launches, their grids and its workspace follow
 * from the slices. */
static void check_splitk_shape(const rung *sk, int *v, int M, int N, int K)
{
    const int tsm = v[0], tsn = v[1], tsk = v[2], splits = v[4], atomic = v[5];
    const int slices = count_slices(K, tsk, splits), threads = 64; /* 64 x 64, WM = 32 */
    const launch_shape shape = {M, N, K, 132, 4, 0, 0};
    rung_launch l[RUNG_MAX_LAUNCHES];
    const int n = sk->launches(v, &shape, l);
    const rung_launch *gemm = slices == 1 || !atomic ? &l[0] : &l[1];
    CHECK(n == (slices == 1 ? 1 : 2));
    CHECK(strcmp(gemm->kernel, "gemm") == 0);
    CHECK(gemm->dims.local[0] == (size_t)threads && gemm->dims.local[1] == 1);
    CHECK(gemm->dims.global[0] == (size_t)((M + tsm - 1) / tsm * slices * threads));
    CHECK(gemm->dims.global[1] == (size_t)((N + tsn - 1) / tsn));
    const size_t rows = (size_t)(M + 3) / 4 * 4; /* of a partial matrix in W */
    if (slices > 1 && atomic) { /* C scaled first, one work-item per element */
        CHECK(strcmp(l[0].kernel, "scale_c") == 0);
        CHECK(l[0].dims.global[0] >= (size_t)M * N &&
              l[0].dims.global[0] < (size_t)M * N + threads);
    }
    if (slices > 1 && !atomic) {
        /* reduce: as few work-items per float4 of C as add 8 slices or fewer each (a power
         * of two up to the work-group), so a work-group covers 64 / groups float4s. */
        int groups = 1;
        while (groups * 8 < slices && groups < threads)
            groups *= 2;
        const size_t cols = (size_t)(threads / groups);
        CHECK(strcmp(l[1].kernel, "reduce") == 0);
        CHECK(l[1].dims.local[0] == (size_t)threads);
        CHECK(l[1].dims.global[0] / threads == (rows / 4 * N + cols - 1) / cols);
    }
    CHECK(rung_workspace(sk, v, &shape) ==
          (slices > 1 && !atomic ? (size_t)slices * rows * N : 1));
}

/* Rung 28 at one shape: one kernel of rung 19's grid (a block per tile and slice), and a
 * workspace of rung 19's partial matrices followed by one int counter per tile of C, whose
 * elements the harness zeroes while the rest is NaN. No workspace at one slice. */
static void check_lastslice_shape(const rung *ls, int *v, int M, int N, int K, int elem)
{
    const int tsm = v[0], tsn = v[1], tsk = v[2], splits = v[4];
    const int slices = count_slices(K, tsk, splits), threads = warptile_threads(v);
    const launch_shape shape = {M, N, K, 132, elem, 0, 0};
    rung_launch l[RUNG_MAX_LAUNCHES];
    CHECK(ls->launches(v, &shape, l) == 1 && strcmp(l[0].kernel, "gemm") == 0);
    CHECK(l[0].dims.local[0] == (size_t)threads && l[0].dims.local[1] == 1);
    CHECK(l[0].dims.global[0] == (size_t)((M + tsm - 1) / tsm * slices * threads));
    CHECK(l[0].dims.global[1] == (size_t)((N + tsn - 1) / tsn));
    const size_t tiles = (size_t)((M + tsm - 1) / tsm) * ((N + tsn - 1) / tsn);
    const size_t partials = (size_t)slices * ((M + 3) / 4 * 4) * N;
    const size_t counters = slices > 1 ? (tiles * sizeof(int) + elem - 1) / elem : 0;
    CHECK(ls->workspace_counters(v, &shape) == counters);
    const size_t elems = rung_workspace(ls, v, &shape);
    CHECK(elems == (slices > 1 ? partials + counters : 1));
    /* The fill: NaN up to the counters, then zero bits through the last element. */
    static unsigned char w[1 << 22];
    if (elems * elem > sizeof w)
        return;
    memset(w, 0x55, elems * elem);
    rung_workspace_fill(ls, v, &shape, w, elems, (size_t)elem);
    const size_t results = elems - counters;
    for (size_t i = 0; i < elems; i++) {
        const double x = elem == 8 ? ((double *)w)[i] : ((float *)w)[i];
        CHECK(i < results ? isnan(x) : (x == 0 && !signbit(x)));
    }
}

static device_info big_gpu(void)
{
    device_info d;
    memset(&d, 0, sizeof d);
    d.local_mem_bytes = 48 * 1024;
    d.cc_major = 9; /* an H100, for the rungs that need a newer GPU */
    d.local_mem_optin_bytes = 227 * 1024; /* an H100's, for dynamic shared memory */
    d.max_work_group_size = 1024;
    d.max_work_item_sizes[0] = d.max_work_item_sizes[1] = 1024;
    return d;
}

/* For rung_nearest_ancestor: the rungs that "ran" are those set in the array. */
static int in_set(int number, const void *ctx)
{
    const int *set = ctx;
    return number > 0 && number < 64 && set[number];
}

/* The lineage: every kernel rung from 2 on has a parent, and a second parent if any, that
 * is a lower-numbered kernel rung (so following parents always ends, at rung 1: the
 * ladder is a tree, with the second parents as extra edges); rung 1 and the entries that
 * are not kernels have none. The chapters' branch points are where they say they are. */
static void check_lineage(const rung *all, int n)
{
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        if (r->kind != RUNG_KERNEL || r->number == 1) {
            CHECK(r->parent == 0 && r->second_parent == 0 && rung_parent(r) == NULL);
            continue;
        }
        CHECK(r->parent >= 1 && r->parent < r->number);
        CHECK(rung_parent(r) && rung_parent(r)->number == r->parent);
        CHECK(r->second_parent == 0 ||
              (r->second_parent < r->number && r->second_parent != r->parent));
        /* The walk up the parents reaches rung 1 in fewer steps than there are rungs. */
        const rung *a = r;
        int steps = 0;
        while (a && a->number != 1 && steps <= n) {
            a = rung_parent(a);
            steps++;
        }
        CHECK(a && a->number == 1 && steps < n);
    }
    CHECK(registry_find("15")->parent == 12 && registry_find("17")->parent == 9);
    CHECK(registry_find("17")->second_parent == 13 && registry_find("19")->parent == 15);
    CHECK(registry_find("2")->parent == 1 && registry_find("18")->parent == 17);
    /* The nearest ancestor that ran: the parent, else up the tree, never a sibling. */
    int ran[64] = {0};
    ran[9] = ran[13] = ran[16] = 1;
    CHECK(rung_nearest_ancestor(17, in_set, ran) == 9);
    CHECK(rung_nearest_ancestor(18, in_set, ran) == 9);   /* 17 did not run */
    CHECK(rung_nearest_ancestor(15, in_set, ran) == 9);   /* 12, 11, 10 did not */
    CHECK(rung_nearest_ancestor(14, in_set, ran) == 13);
    CHECK(rung_nearest_ancestor(5, in_set, ran) == 0);    /* nothing below ran */
    CHECK(rung_nearest_ancestor(1, in_set, ran) == 0);
    CHECK(rung_nearest_ancestor(999, in_set, ran) == 0);  /* no such rung */
}

/* cuBLAS in TF32 is a baseline of its own: selected by name, a CUDA library call of its
 * own, labelled reduced precision; cuBLAS SGEMM stays the float32 bar. */
static void check_tf32_baseline(void)
{
    const rung *tf32 = registry_find("cublas-tf32"), *fp32 = registry_find("cublas");
    CHECK(tf32 && tf32->kind == RUNG_LIBRARY && tf32->library_call == LIBRARY_SGEMM_TF32);
    CHECK(tf32 && strstr(tf32->title, "reduced precision") && !rung_float32_accurate(tf32));
    CHECK(fp32 && fp32->library_call == LIBRARY_SGEMM && rung_float32_accurate(fp32));
    backend_ops ops = {.name = "cuda", .library_gemm = NULL, .library_gemm_tf32 = NULL};
    CHECK(!rung_library_present(tf32, &ops) && !rung_library_present(fp32, &ops));
    ops.library_gemm = (void *)1; /* never called: only whether it is there */
    CHECK(!rung_library_present(tf32, &ops) && rung_library_present(fp32, &ops));
    ops.library_gemm_tf32 = (void *)1;
    CHECK(rung_library_present(tf32, &ops));
    ops.name = "opencl";
    CHECK(!rung_library_present(tf32, &ops) && !rung_library_present(fp32, &ops));
    CHECK(!rung_library_present(tf32, NULL));
    /* TF32 rounds float inputs: a double case is refused with the reason. */
    gemm_case dbl = GEMM_CASE_DEFAULT;
    dbl.precision = PRECISION_DOUBLE;
    char msg[LADDER_MSG];
    CHECK(rung_check_case(tf32, &dbl, msg) == LADDER_UNSUPPORTED && strstr(msg, "TF32"));
    CHECK(rung_check_case(fp32, &dbl, msg) == LADDER_OK);
}

/* The TMA rungs take any M, N, K >= 1 (padding M and K) but refuse K = 0, which leaves no
 * matrix for a tensor map to describe: through check_size, so the harness and the BLAS
 * semantics test both see the refusal before any launch. */
static void check_tma_sizes(void)
{
    const rung *r = registry_find("wgmma");
    CHECK(r && r->tma_boxes && r->pads);
    int v[RUNG_MAX_PARAMS];
    char msg[LADDER_MSG];
    rung_defaults(r, 0, v);
    CHECK(rung_check_size(r, v, &(gemm_size){7, 5, 3}, msg) == LADDER_OK);
    CHECK(rung_check_size(r, v, &(gemm_size){64, 64, 0}, msg) == LADDER_UNSUPPORTED &&
          strstr(msg, "K = 0"));
}

/* Which rungs take the transpose pairs, and how: in the kernel (BLAS-call rungs that honor
 * TRANS_A and TRANS_B) or through helper kernels (rungs that already run helpers and take
 * no BLAS arguments; their kernel then sees NN in every pair). A rung with neither refuses
 * a transposed case, saying why. */
static void check_pairs(void)
{
    char msg[LADDER_MSG];
    gemm_case tn = GEMM_CASE_DEFAULT;
    tn.trans_a = 1;
    const char *by_helpers[] = {"transpose", "10", "banks"};
    for (int i = 0; i < 3; i++) {
        const rung *r = registry_find(by_helpers[i]);
        CHECK(r && rung_transposes_by_helpers(r) && rung_takes_pairs(r) &&
              !r->takes_transposes && rung_check_case(r, &tn, msg) == LADDER_OK);
        gemm_case seen = rung_kernel_case(r, &tn);
        CHECK(!seen.trans_a && !seen.trans_b);
    }
    const rung *sgemm = registry_find("sgemm");
    CHECK(sgemm && rung_takes_pairs(sgemm) && !rung_transposes_by_helpers(sgemm) &&
          rung_kernel_case(sgemm, &tn).trans_a == 1);
    /* Rung 1 has no helpers; the TMA rungs pad through helpers but take BLAS arguments,
     * and their kernels read the operands as stored. */
    const char *neither[] = {"naive", "edges", "wgmma"};
    for (int i = 0; i < 3; i++) {
        const rung *r = registry_find(neither[i]);
        CHECK(r && !rung_takes_pairs(r));
        CHECK(rung_check_case(r, &tn, msg) == LADDER_UNSUPPORTED && strstr(msg, "(TN)"));
    }
}

/* Rung 25, the FP64 tensor cores: double only, so a single case is refused with the reason
 * (by the case and by the device check, which every run path asks first); compute
 * capability 9.0 (Hopper's double mma shapes), not arch-specific; its stages are dynamic
 * shared memory, so an H100 takes more than 48 KiB of them and a device that cannot opt
 * in does not. */
static void check_dmma(void)
{
    const rung *r = registry_find("dmma");
    CHECK(r && r->number == 25 && r->blas_args && r->takes_double && !r->takes_transposes);
    CHECK(r && r->cuda_min_cc == 90 && !r->cuda_arch_specific && r->cuda_dynamic_shared);
    CHECK(rung_own_precision(r) == PRECISION_DOUBLE);
    CHECK(rung_own_precision(registry_find("sgemm")) == PRECISION_SINGLE);
    char msg[LADDER_MSG];
    const char *reason = "FP64 tensor cores: double only; run with --precision double";
    gemm_case c = GEMM_CASE_DEFAULT;
    CHECK(rung_check_case(r, &c, msg) == LADDER_UNSUPPORTED && strstr(msg, reason) &&
          strstr(msg, "no single precision"));
    c.precision = PRECISION_DOUBLE;
    CHECK(rung_check_case(r, &c, msg) == LADDER_OK);
    c.trans_b = 1;
    CHECK(rung_check_case(r, &c, msg) == LADDER_UNSUPPORTED && strstr(msg, "transposed"));

    int v[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, v);
    device_info h100 = big_gpu();
    snprintf(h100.backend, sizeof h100.backend, "cuda");
    CHECK(rung_check_device(r, v, &h100, PRECISION_SINGLE, msg) == LADDER_UNSUPPORTED &&
          strstr(msg, reason));
    CHECK(rung_check_device(r, v, &h100, PRECISION_DOUBLE, msg) == LADDER_OK);
    /* The kernel's SHARED_BYTES. At the defaults (MMAK = 8, paired loads): 3 stages x
     * (32 x 130 + 128 x 40) doubles, rows padded to 2 and 8 mod 16 doubles. */
    CHECK(r->local_mem_bytes(v) * 2 == 3 * (32 * 130 + 128 * 40) * 8);
    int mmak4[RUNG_MAX_PARAMS], shallow[RUNG_MAX_PARAMS];
    memcpy(mmak4, v, sizeof v);
    memcpy(shallow, v, sizeof v);
    for (int i = 0; i < r->nparams; i++) {
        if (strcmp(r->params[i].name, "MMAK") == 0)
            mmak4[i] = 4;
        if (strcmp(r->params[i].name, "TSK") == 0)
            shallow[i] = 8;
    }
    /* One double a load (MMAK = 4): rows of TSM + 4 and TSK + 4. */
    CHECK(r->local_mem_bytes(mmak4) * 2 == 3 * (32 * 132 + 128 * 36) * 8);
    /* Paired, TSK = 8: B's rows of 8 doubles are already 8 mod 16, unpadded. */
    CHECK(r->local_mem_bytes(shallow) * 2 == 3 * (8 * 130 + 128 * 8) * 8);
    device_info static_only = h100;
    static_only.local_mem_optin_bytes = 0;
    CHECK(rung_check_device(r, v, &static_only, PRECISION_DOUBLE, msg) == LADDER_UNSUPPORTED &&
          strstr(msg, "local memory in double"));
    device_info a100 = h100;
    a100.cc_major = 8;
    CHECK(rung_check_device(r, v, &a100, PRECISION_DOUBLE, msg) == LADDER_UNSUPPORTED &&
          strstr(msg, "compute capability 9.0"));
    char options[512];
    rung_compile_options(r, v, &h100, &c, options, sizeof options);
    CHECK(strstr(options, "-DLADDER_DOUBLE=1") && strstr(options, "-DMMAK=8") &&
          !strstr(options, "sm_90a"));

    /* Parameters the kernel cannot take. */
    const struct {
        int p, value;
        const char *why;
    } bad[] = {{6, 12, "MMAK=12"},      {6, 32, "MMAK=32"},       {2, 12, "TSK"},
               {4, 64, "accumulators"}, {3, 24, "WM"},            {5, 1, "STAGES"},
               {0, 96, "WM must divide TSM"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rung_defaults(r, 0, v);
        v[bad[i].p] = bad[i].value;
        CHECK(rung_check_params(r, v, msg) == LADDER_UNSUPPORTED && strstr(msg, bad[i].why));
    }
}

/* Rung 27 splits K only where C's blocks give the compute units fewer than GPC
 * work-groups each: as many slices as bring the work-groups nearest that, no slice
 * shallower than 16 (K / 16 slices at most), one when K is shorter; a reduction after the
 * GEMM only when there are several, with a workspace of a header and one M x N block per
 * slice. Defaults: blocks of 16 x 8, one work-item per work-group, GPC = 2. */
static void check_cpucore(void)
{
    const rung *r = registry_find("cpucore");
    CHECK(r != NULL && r->launches && r->workspace_floats);
    if (!r || !r->launches)
        return;
    int v[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, v);
    struct {
        int M, N, K, units, slices;
    } cases[] = {
        {256, 256, 256, 2, 1},   /* 512 blocks for 4 work-groups wanted */
        {16, 8, 4096, 2, 4},     /* 1 block: 4 slices */
        {16, 8, 4096, 132, 256}, /* 264 wanted, K / 16 = 256 at most */
        {16, 8, 63, 2, 3},       /* 4 wanted, 63 / 16 = 3 at most */
        {16, 8, 15, 2, 1},       /* shorter than 16: one */
        {32, 16, 100, 2, 1},     /* 4 blocks: exactly the 4 wanted */
        {16, 16, 100, 2, 2},     /* 2 blocks: 2 slices */
        {16, 16, 100, 3, 3},     /* 6 wanted: 3 slices */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const launch_shape shape = {cases[i].M, cases[i].N, cases[i].K, cases[i].units, 4,
                                    0, 0};
        rung_launch l[RUNG_MAX_LAUNCHES];
        const int n = r->launches(v, &shape, l);
        const int blocks_n = (cases[i].N + 7) / 8;
        const size_t slices = l[0].dims.global[1] / (size_t)blocks_n;
        CHECK(strcmp(l[0].kernel, "gemm") == 0 && slices == (size_t)cases[i].slices);
        if (slices != (size_t)cases[i].slices)
            fprintf(stderr, "  rung 27 at %dx%dx%d on %d units: %zu slices, want %d\n",
                    cases[i].M, cases[i].N, cases[i].K, cases[i].units, slices,
                    cases[i].slices);
        CHECK(n == (cases[i].slices > 1 ? 2 : 1));
        if (n == 2)
            CHECK(strcmp(l[1].kernel, "reduce") == 0);
        const size_t want_w = cases[i].slices > 1
                                  ? 4 + (size_t)cases[i].slices * cases[i].M * cases[i].N
                                  : 0;
        CHECK(r->workspace_floats(v, &shape) == want_w);
    }
}

/* Rung 27 with a transposed A or B: when C has 4 blocks of columns (rows) or more,
 * kernel `transpose_a` (`transpose_b`) copies A (B) into W first, 16 rows (depths) 256
 * deep (wide) per work-item, from W + 16 on: A with a leading dimension of M rounded up to
 * an odd multiple of 16 (500: 528; 1000: 1008; 1024: 1040), then B with K's; partial
 * blocks, if K is split, follow the copies. A C of fewer blocks (GEMV-like) reads A^T or
 * B^T as they are. */
static void check_cpucore_transposed(void)
{
    const rung *r = registry_find("cpucore");
    if (!r || !r->launches)
        return;
    int v[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, v); /* blocks of 16 x 8, GPC = 2 */
    rung_launch l[RUNG_MAX_LAUNCHES];
    const size_t a_copy = (size_t)528 * 600, b_copy = (size_t)624 * 512;
    const launch_shape tn = {500, 512, 600, 2, 4, 1, 0}, nt = {500, 512, 600, 2, 4, 0, 1},
                       tt = {500, 512, 600, 2, 4, 1, 1};
    CHECK(r->launches(v, &tn, l) == 2 && strcmp(l[0].kernel, "transpose_a") == 0 &&
          strcmp(l[1].kernel, "gemm") == 0);
    CHECK(l[0].dims.global[0] == 32 && l[0].dims.global[1] == 3 && l[0].dims.local[0] == 1 &&
          l[0].dims.local[1] == 1);
    CHECK(r->workspace_floats(v, &tn) == 16 + a_copy);
    CHECK(r->launches(v, &nt, l) == 2 && strcmp(l[0].kernel, "transpose_b") == 0 &&
          strcmp(l[1].kernel, "gemm") == 0);
    CHECK(l[0].dims.global[0] == 38 && l[0].dims.global[1] == 2);
    CHECK(r->workspace_floats(v, &nt) == 16 + b_copy);
    CHECK(r->launches(v, &tt, l) == 3 && strcmp(l[0].kernel, "transpose_a") == 0 &&
          strcmp(l[1].kernel, "transpose_b") == 0 && strcmp(l[2].kernel, "gemm") == 0);
    CHECK(r->workspace_floats(v, &tt) == 16 + a_copy + b_copy);
    /* 3 blocks of 8 columns, 1 block of 16 rows: no copies */
    const launch_shape gemv_a = {4096, 24, 4096, 2, 4, 1, 1}, gemv_b = {16, 4096, 4096, 2, 4, 1, 1};
    CHECK(r->launches(v, &gemv_a, l) == 2 && strcmp(l[0].kernel, "transpose_b") == 0);
    CHECK(r->launches(v, &gemv_b, l) == 2 && strcmp(l[0].kernel, "transpose_a") == 0);
    CHECK(r->launches(v, &(launch_shape){16, 24, 4096, 2, 4, 1, 1}, l) >= 1 &&
          strcmp(l[0].kernel, "gemm") == 0);
    /* A copied, one block of rows (B not), K split: 16 work-groups wanted on 8 units */
    const launch_shape split = {16, 32, 4096, 8, 4, 1, 1};
    CHECK(r->launches(v, &split, l) == 3 && strcmp(l[0].kernel, "transpose_a") == 0 &&
          strcmp(l[1].kernel, "gemm") == 0 && strcmp(l[2].kernel, "reduce") == 0);
    CHECK(l[1].dims.global[1] == 4 * 4);
    CHECK(r->workspace_floats(v, &split) == 16 + (size_t)16 * 4096 + 4 * 16 * 32);
    const launch_shape odd = {1000, 1000, 1000, 2, 4, 1, 1}, even = {1024, 1024, 1024, 2, 4, 1, 1};
    CHECK(r->workspace_floats(v, &odd) == 16 + (size_t)2 * 1008 * 1000);
    CHECK(r->workspace_floats(v, &even) == 16 + (size_t)2 * 1040 * 1024);
}

int main(void)
{
    check_cpucore();
    check_cpucore_transposed();
    check_tf32_baseline();
    check_tma_sizes();
    check_dmma();
    check_pairs();
    int n;
    const rung *all = registry_all(&n);
    CHECK(n >= 6);
    int expect = 1;
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        CHECK(r->id && r->name && r->title && r->idea);
        if (r->kind != RUNG_KERNEL)
            continue;
        CHECK(r->number == expect++); /* numbered in order, no gaps */
        CHECK(r->geometry != NULL);
        int v[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG];
        /* Defaults (H100 and small-device) are valid and fit the devices they are for, in
         * the rung's own precision (single, or double for a double-only rung). */
        const gemm_precision own = rung_own_precision(r);
        rung_defaults(r, 0, v);
        CHECK(rung_check_params(r, v, msg) == LADDER_OK);
        device_info gpu = big_gpu();
        if (r->only_backend) /* a rung one backend has: a device of that backend */
            snprintf(gpu.backend, sizeof gpu.backend, "%s", r->only_backend);
        CHECK(rung_check_device(r, v, &gpu, own, msg) == LADDER_OK);
        rung_defaults(r, 1, v);
        CHECK(rung_check_params(r, v, msg) == LADDER_OK);
        device_info small = gpu;
        small.local_mem_bytes = 32 * 1024;
        small.local_mem_optin_bytes = 0;
        small.max_work_group_size = 256;
        if (r->cuda_arch_specific) {
            /* Instructions of one generation (sm_90a): no small devices, and any other
             * generation, older or newer, is told why it cannot run them. */
            device_info other = gpu;
            other.cc_major = 10;
            CHECK(rung_check_device(r, v, &other, own, msg) == LADDER_UNSUPPORTED &&
                  strstr(msg, "sm_90a"));
            char options[512];
            rung_compile_options(r, v, &gpu, NULL, options, sizeof options);
            CHECK(strstr(options, "--gpu-architecture=sm_90a") != NULL);
        } else {
            CHECK(rung_check_device(r, v, &small, own, msg) == LADDER_OK);
        }
        /* A rung that aligns is told the multiple its columns were rounded up to, the one
         * the harness's copies use; no other rung gets it. */
        char column_options[512];
        rung_compile_options(r, v, &gpu, NULL, column_options, sizeof column_options);
        CHECK((strstr(column_options, "-DCOLUMN=32") != NULL) == (r->aligns != 0));
        /* The geometry covers C: global sizes are whole work-groups. */
        launch_dims d;
        int mult[3] = {1, 1, 1};
        if (r->multiples)
            r->multiples(v, mult);
        r->geometry(v, mult[0] * 3, mult[1] * 2, &d);
        CHECK(d.global[0] % d.local[0] == 0 && d.global[1] % d.local[1] == 0);
        CHECK(registry_find(r->name) == r && registry_find(r->id) == r);
        /* A rung of several kernels: BLAS arguments (its kernels take them and W), and
         * the contract at awkward shapes, on a large and a small device. */
        CHECK(!r->workspace_floats || r->launches);
        if (r->launches) {
            CHECK(r->blas_args);
            const launch_shape shapes[] = { /* ..., trans_a, trans_b */
                {1, 1, 1, 132, 4, 0, 0}, {1, 1, 97, 132, 4, 0, 0}, {64, 64, 1, 132, 4, 0, 0},
                {67, 45, 97, 2, 4, 0, 0}, {128, 128, 32768, 132, 4, 0, 0},
                {1000, 7, 5, 2, 4, 0, 0},
                {4097, 33, 1, 132, 4, 0, 0}, {255, 257, 4099, 2, 4, 0, 0},
                {1, 4096, 4096, 132, 4, 0, 0},
                {4096, 1, 4096, 1, 4, 0, 0}, {16, 300, 0, 132, 8, 0, 0},
                {301, 16, 7, 2, 8, 0, 0},
                {7, 3, 99991, 132, 8, 0, 0}, {16, 16, 16, 1, 8, 0, 0},
                {2048, 2048, 2048, 132, 8, 0, 0},
                {512, 512, 512, 2, 4, 1, 0}, {33, 20, 300, 2, 8, 1, 1},
                {4096, 1, 4096, 2, 4, 1, 0},
            };
            for (int small_set = 0; small_set <= 1; small_set++) {
                rung_defaults(r, small_set, v);
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
                    check_launches(r, v, shapes[sh]);
            }
        } else {
            const launch_shape one = {64, 64, 64, 132, 4, 0, 0};
            CHECK(rung_workspace(r, v, &one) == 0);
        }
        /* The tuner's candidates: in range, no repeats, and both sets of defaults among
         * them, so every search can start from the defaults. */
        for (int p = 0; p < r->nparams; p++) {
            const rung_param *q = &r->params[p];
            int c[RUNG_MAX_CHOICES];
            int nc = rung_param_choices(q, c), has_default = 0, has_small = 0, repeats = 0;
            CHECK(nc >= 1 && (!q->choices || q->nchoices <= RUNG_MAX_CHOICES));
            for (int k = 0; k < nc; k++) {
                CHECK(c[k] >= q->min && c[k] <= q->max);
                has_default |= c[k] == q->value;
                has_small |= c[k] == (q->small_value ? q->small_value : q->value);
                for (int j = 0; j < k; j++)
                    repeats += c[k] == c[j];
            }
            CHECK(has_default && has_small && repeats == 0);
        }
    }
    /* Without a list: the powers of two in the range, and 0 for a switch. */
    rung_param any = {"X", 1, 0, 0, 8, "a switch or a power of two", NULL, 0, 0};
    int c[RUNG_MAX_CHOICES];
    CHECK(rung_param_choices(&any, c) == 5 && c[0] == 0 && c[1] == 1 && c[4] == 8);
    CHECK(registry_find("1") && registry_find("1")->number == 1);
    CHECK(registry_find("cublas") && registry_find("cublas")->kind == RUNG_LIBRARY);
    CHECK(registry_find("CPU") && registry_find("cpu")->kind == RUNG_HOST);
    CHECK(registry_find("nope") == NULL);
    check_lineage(all, n);
    CHECK(registry_find("999") == NULL);

    /* A CUDA-only rung on OpenCL, and on a CUDA GPU older than it needs: unsupported with
     * the reason. */
    const rung *async = registry_find("async");
    CHECK(async && async->only_backend && strcmp(async->only_backend, "cuda") == 0);
    {
        int v[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG];
        rung_defaults(async, 0, v);
        device_info d = big_gpu();
        snprintf(d.backend, sizeof d.backend, "opencl");
        CHECK(rung_check_device(async, v, &d, PRECISION_SINGLE, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "CUDA only"));
        snprintf(d.backend, sizeof d.backend, "cuda");
        d.cc_major = 7;
        d.cc_minor = 5;
        CHECK(rung_check_device(async, v, &d, PRECISION_SINGLE, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "compute capability 8.0"));
        d.cc_major = 9;
        d.cc_minor = 0;
        CHECK(rung_check_device(async, v, &d, PRECISION_SINGLE, msg) == LADDER_OK);
    }

    /* Rung 16 multiplies split TF32 parts: it alone is checked with a larger unit
     * roundoff; its tiles must be whole mma blocks and fit 1024 threads. */
    {
        int nrungs = 0;
        const rung *rungs = registry_all(&nrungs);
        /* Rungs 22-23 (3xTF32 on wgmma) share rung 16's u; rungs 21 and 24 (1xTF32) and
         * cuBLAS in TF32 sum with 2^-23 and round their inputs to TF32 (core/verify.h). */
        for (int i = 0; i < nrungs; i++) {
            const char *name = rungs[i].name;
            const int split = strcmp(name, "tf32x3") == 0 || strcmp(name, "wgmma3x") == 0 ||
                              strcmp(name, "specialized") == 0;
            const int tf32 = strcmp(name, "wgmma") == 0 || strcmp(name, "tf32pipe") == 0 ||
                             strcmp(name, "cublas-tf32") == 0;
            CHECK(rung_unit_roundoff(&rungs[i], PRECISION_SINGLE) ==
                  (split ? 0x1p-20 : tf32 ? 0x1p-23 : 0x1p-24));
            CHECK(rungs[i].input_roundoff == (tf32 ? 0x1p-10 : 0));
            CHECK(rung_float32_accurate(&rungs[i]) == !(split || tf32));
        }
        const rung *tc = registry_find("tf32x3");
        CHECK(tc && tc->number == 16 && tc->blas_args && tc->cuda_min_cc == 80);
        int v[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG];
        rung_defaults(tc, 0, v);
        CHECK(rung_check_params(tc, v, msg) == LADDER_OK);
        CHECK(tc->local_mem_bytes(v) == 37888); /* what ptxas reports for the kernel */
        v[3] = 24; /* WM: not whole 16-row mma blocks */
        CHECK(rung_check_params(tc, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "WM"));
        rung_defaults(tc, 0, v);
        v[0] = 256, v[1] = 256, v[3] = 16, v[4] = 8; /* 16 x 32 warps: 16384 threads */
        CHECK(rung_check_params(tc, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "1024"));
        rung_defaults(tc, 0, v);
        v[5] = 1; /* one stage is no pipeline */
        CHECK(rung_check_params(tc, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "STAGES"));
    }

    /* Rung 17 goes back to rung 10's inputs: B^T, padded by the host to whole tiles. */
    {
        const rung *bk = registry_find("banks");
        CHECK(bk && bk->number == 17 && bk->pads && bk->transposes_b && bk->cuda_min_cc == 80 &&
              !rung_on_backend(bk, "opencl") && rung_on_backend(bk, "cuda"));
        int v[RUNG_MAX_PARAMS], mult[3];
        char msg[LADDER_MSG];
        rung_defaults(bk, 0, v);
        CHECK(rung_check_params(bk, v, msg) == LADDER_OK);
        CHECK(bk->local_mem_bytes(v) == 32768); /* what ptxas reports for the kernel */
        bk->multiples(v, mult);
        CHECK(mult[0] == v[0] && mult[1] == v[1] && mult[2] == v[2]);
        v[3] = 6; /* WPTM: not whole float4s */
        CHECK(rung_check_params(bk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "WPTM"));
        rung_defaults(bk, 0, v);
        v[5] = 1;
        CHECK(rung_check_params(bk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "STAGES"));
    }

    /* Rung 18 reads B where it lies again and takes a BLAS call's arguments: no padding,
     * no B^T, any size. Its copies constrain TSK and the thread count. */
    {
        const rung *sc = registry_find("scatter");
        CHECK(sc && sc->number == 18 && !sc->pads && !sc->transposes_b && sc->blas_args &&
              sc->multiples == NULL && sc->cuda_min_cc == 80 &&
              !rung_on_backend(sc, "opencl") && rung_on_backend(sc, "cuda"));
        int v[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG];
        rung_defaults(sc, 0, v);
        CHECK(rung_check_params(sc, v, msg) == LADDER_OK);
        /* What ptxas reports for the kernel with A transposed (TN, TT: A's rows padded too),
         * the most of the four pairs; NN takes 33280. */
        CHECK(sc->local_mem_bytes(v) == 33792);
        v[1] = 64, v[2] = 12, v[4] = 16; /* 64 threads; TSK: not whole groups of 8 depths */
        CHECK(rung_check_params(sc, v, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "multiple of 8"));
        rung_defaults(sc, 0, v);
        v[0] = 64, v[1] = 64, v[2] = 32, v[3] = 16, v[4] = 16; /* 16 threads, 32 deep */
        CHECK(rung_check_params(sc, v, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "one row of A's tile"));
        rung_defaults(sc, 0, v);
        v[0] = 256, v[1] = 64, v[2] = 64, v[3] = 4, v[4] = 4; /* 1024 threads: 128-column passes */
        CHECK(rung_check_params(sc, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "TSN"));
        rung_defaults(sc, 0, v);
        v[5] = 1;
        CHECK(rung_check_params(sc, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "STAGES"));
    }

    /* Rung 19, split-K: rung 15's parameters, a split count and a switch; one call is
     * one, two or (never more) kernels, and the deterministic reduction's workspace
     * holds one partial matrix per slice that holds K tiles. */
    {
        const rung *sk = registry_find("splitk");
        CHECK(sk && sk->number == 19 && strcmp(sk->id, "19-splitk") == 0 && sk->blas_args &&
              sk->launches && sk->workspace_floats && !sk->pads && !sk->transposes_b &&
              sk->multiples == NULL && sk->only_backend == NULL);
        int v[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG];
        rung_defaults(sk, 0, v);
        const int splits = rung_param_index(sk, "SPLITS"), atomic = rung_param_index(sk, "ATOMIC");
        CHECK(splits == 4 && atomic == 5 && sk->params[splits].per_shape &&
              sk->params[atomic].min == 0 && sk->params[atomic].max == 1);
        CHECK(v[0] == 64 && v[1] == 64 && v[3] == 32 && v[atomic] == 0); /* 64 threads */
        /* What ptxas reports for the NN kernel, 8448, and the 256 bytes of A's row padding
         * that a transposed A adds (blas_tiles). */
        CHECK(sk->local_mem_bytes(v) == 8448 + 256);
        const int shapes[][3] = {{1, 1, 1},     {1, 1, 97},    {64, 64, 1},  {5, 3, 97},
                                 {67, 45, 97},  {130, 67, 1000}, {128, 128, 32768},
                                 {1, 300, 5000}, {65, 129, 33}, {128, 128, 4096}};
        const int split_counts[] = {1, 2, 5, 6, 7, 13, 256, 4096};
        for (int a = 0; a <= 1; a++)
            for (size_t sc = 0; sc < sizeof split_counts / sizeof split_counts[0]; sc++)
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
                    v[atomic] = a;
                    v[splits] = split_counts[sc];
                    check_splitk_shape(sk, v, shapes[sh][0], shapes[sh][1], shapes[sh][2]);
                }
        /* 13 K tiles in 6 slices: 3 per slice fill 5, and the sixth is never launched. */
        CHECK(count_slices(97, 8, 6) == 5 && count_slices(97, 8, 256) == 13 &&
              count_slices(1, 8, 256) == 1 && count_slices(32768, 8, 256) == 256);
        rung_defaults(sk, 0, v);
        v[3] = 24; /* WM: no lane grid */
        CHECK(rung_check_params(sk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "WM"));
        rung_defaults(sk, 0, v);
        v[splits] = 0;
        CHECK(rung_check_params(sk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "SPLITS"));
        rung_defaults(sk, 0, v);
        v[atomic] = 2;
        CHECK(rung_check_params(sk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "ATOMIC"));
    }

    /* Rung 28, split-K in one launch: rung 19's first five parameters and slices, one
     * kernel whatever the slice count, counters after the partial matrices (CUDA only). */
    {
        const rung *ls = registry_find("lastslice");
        const rung *sk = registry_find("splitk");
        CHECK(ls && ls->number == 28 && ls->parent == 19 && ls->blas_args && ls->launches &&
              ls->workspace_floats && ls->workspace_counters && ls->takes_double &&
              ls->takes_transposes && ls->only_backend && strcmp(ls->only_backend, "cuda") == 0);
        CHECK(ls->nparams == 5);
        for (int i = 0; i < ls->nparams; i++)
            CHECK(strcmp(ls->params[i].name, sk->params[i].name) == 0);
        int v[RUNG_MAX_PARAMS];
        rung_defaults(ls, 0, v);
        CHECK(v[0] == 128 && v[1] == 128 && v[3] == 64 && v[4] == 4); /* 256 threads */
        const int shapes[][3] = {{1, 1, 1},     {1, 1, 97},      {64, 64, 1},
                                 {5, 3, 97},    {67, 45, 97},    {130, 67, 1000},
                                 {997, 1013, 1009}, {128, 128, 32768}, {333, 777, 555}};
        const int split_counts[] = {1, 2, 3, 4, 16};
        for (int e = 4; e <= 8; e += 4)
            for (size_t sc = 0; sc < sizeof split_counts / sizeof split_counts[0]; sc++)
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
                    v[4] = split_counts[sc];
                    check_lastslice_shape(ls, v, shapes[sh][0], shapes[sh][1],
                                          shapes[sh][2], e);
                }
        /* A rung with no counters: the whole workspace is NaN. */
        rung_defaults(sk, 0, v);
        const launch_shape shape = {130, 67, 1000, 132, 4, 0, 0};
        float w[8];
        rung_workspace_fill(sk, v, &shape, w, 8, sizeof(float));
        for (int i = 0; i < 8; i++)
            CHECK(isnan(w[i]));
    }

    /* Rung 20: skinny shapes only (M or N up to 16), refused above with the reason; a
     * kernel per count of columns (tall) or rows (wide); K split across work-groups only
     * when the rows or columns make too few for the device, and then a `reduce` over a
     * workspace of one partial C per slice after a 4-float header. */
    {
        const rung *sk = registry_find("skinny");
        CHECK(sk && sk->number == 20 && sk->blas_args && sk->launches &&
              sk->workspace_floats && sk->check_size && sk->sizes && !sk->pads &&
              !sk->only_backend);
        CHECK(registry_find("20") == sk && registry_find("20-skinny") == sk);
        int v[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG];
        rung_defaults(sk, 0, v);
        const gemm_size over = {17, 17, 64}, cap_m = {16, 5000, 3}, cap_n = {5000, 16, 3},
                        one = {1, 1, 1};
        CHECK(rung_check_size(sk, v, &over, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "up to 16") && strstr(msg, "rungs 15-19"));
        CHECK(rung_check_size(sk, v, &cap_m, msg) == LADDER_OK &&
              rung_check_size(sk, v, &cap_n, msg) == LADDER_OK &&
              rung_check_size(sk, v, &one, msg) == LADDER_OK);
        /* The largest kernel, wide_m16: 16 rows of A's slab, 516 floats each (what ptxas
         * reports with the defaults). */
        CHECK(sk->local_mem_bytes(v) == 33024);
        rung_launch l[RUNG_MAX_LAUNCHES];
        /* Tall (few columns): 4096 rows make 128 work-groups of 32 rows, about one per SM
         * of an H100: one kernel, no workspace. */
        launch_shape s = {4096, 1, 4096, 132, 4, 0, 0};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "tall_n1") == 0 &&
              l[0].dims.global[0] == 128 * l[0].dims.local[0] && l[0].dims.global[1] == 1 &&
              sk->workspace_floats(v, &s) == 0);
        s = (launch_shape){5000, 3, 64, 132, 4, 0, 0}; /* N = 3 runs the kernel of 4 columns */
        CHECK(sk->launches(v, &s, l) >= 1 && strcmp(l[0].kernel, "tall_n4") == 0);
        s = (launch_shape){11008, 16, 4096, 132, 4, 0, 0};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "tall_n16") == 0);
        /* Wide (few rows), the same way along N. */
        s = (launch_shape){1, 4096, 4096, 132, 4, 0, 0};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "wide_m1") == 0);
        s = (launch_shape){16, 4096, 4096, 132, 4, 0, 0};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "wide_m16") == 0);
        /* On CUDA a call compiles only the kernel it launches: its defines name that one
         * (tall_n<n>: -DONLY_TALL=n), at every M and N the rung takes; on OpenCL the file
         * is compiled whole. */
        device_info cuda_dev, opencl_dev;
        memset(&cuda_dev, 0, sizeof cuda_dev);
        snprintf(cuda_dev.backend, sizeof cuda_dev.backend, "cuda");
        opencl_dev = cuda_dev;
        snprintf(opencl_dev.backend, sizeof opencl_dev.backend, "opencl");
        int named = 0, shapes = 0;
        for (int rows = 1; rows <= 40; rows += (rows < 17 ? 1 : 23))
            for (int cols = 1; cols <= 40; cols += (cols < 17 ? 1 : 23)) {
                if (rows > 16 && cols > 16)
                    continue;
                launch_shape call = {rows, cols, 777, 132, 4, 0, 0};
                char opts[256], want[64];
                CHECK(sk->launches(v, &call, l) >= 1);
                int count = 0;
                const int tall = sscanf(l[0].kernel, "tall_n%d", &count) == 1;
                CHECK(tall || sscanf(l[0].kernel, "wide_m%d", &count) == 1);
                snprintf(want, sizeof want, "-DONLY_%s=%d", tall ? "TALL" : "WIDE", count);
                rung_call_options(sk, v, &cuda_dev, NULL, &call, opts, sizeof opts);
                const char *at = strstr(opts, want);
                named += at && at[strlen(want)] == '\0';
                shapes++;
                rung_call_options(sk, v, &opencl_dev, NULL, &call, opts, sizeof opts);
                CHECK(strstr(opts, "ONLY_") == NULL);
            }
        CHECK(shapes == 18 * 18 - 2 * 2 && named == shapes);
        /* One work-group of rows with a long K on 132 SMs: K in slices, then `reduce` with
         * one work-item per element of C, over slices * M * N partials. */
        s = (launch_shape){7, 3, 99991, 132, 4, 0, 0};
        CHECK(sk->launches(v, &s, l) == 2 && strcmp(l[0].kernel, "tall_n4") == 0 &&
              strcmp(l[1].kernel, "reduce") == 0);
        const size_t slices = l[0].dims.global[1];
        CHECK(slices > 1 && slices <= 132 && l[1].dims.global[0] >= 21 &&
              sk->workspace_floats(v, &s) == 4 + slices * 21);
        /* ... but not more slices than K has rounds, and none for K = 0. */
        s.K = 5;
        CHECK(sk->launches(v, &s, l) == 1 && sk->workspace_floats(v, &s) == 0);
        s.K = 0;
        CHECK(sk->launches(v, &s, l) == 1 && sk->workspace_floats(v, &s) == 0);
        /* The sums are halving trees: work-group sizes are powers of two. */
        v[rung_param_index(sk, "RX")] = 6;
        CHECK(rung_check_params(sk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "power"));
        rung_defaults(sk, 0, v);
        v[rung_param_index(sk, "KL")] = 64; /* more lanes than a warp */
        CHECK(rung_check_params(sk, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "range"));
        /* What each path reads (ladder select measures one candidate per call): a tall
         * call reads RX and TQ, not KL, WC or WU; a wide one the other way; both read WG,
         * PF and GPC. */
        const launch_shape tall = {4096, 1, 4096, 132, 4, 0, 0},
                           wide = {1, 4096, 4096, 132, 4, 0, 0};
        CHECK(sk->reads_param && sk->params[rung_param_index(sk, "KL")].per_shape);
        const char *tall_only[] = {"RX", "TQ"};
        for (int i = 0; i < 2; i++) {
            const int p = rung_param_index(sk, tall_only[i]);
            CHECK(sk->reads_param(p, &tall) && !sk->reads_param(p, &wide));
        }
        const char *wide_only[] = {"KL", "WC", "WU"};
        for (int i = 0; i < 3; i++) {
            const int p = rung_param_index(sk, wide_only[i]);
            CHECK(!sk->reads_param(p, &tall) && sk->reads_param(p, &wide));
        }
        const char *both[] = {"WG", "PF", "GPC"};
        for (int i = 0; i < 3; i++) {
            const int p = rung_param_index(sk, both[i]);
            CHECK(sk->reads_param(p, &tall) && sk->reads_param(p, &wide));
        }
    }

    const rung *wpt = registry_find("wpt");
    char msg[LADDER_MSG];
    int v[RUNG_MAX_PARAMS];
    rung_defaults(wpt, 0, v);
    char text[128];
    rung_params_string(wpt, v, text, sizeof text);
    CHECK(strcmp(text, "TS=32 WPT=8") == 0);
    rung_params_defines(wpt, v, text, sizeof text);
    CHECK(strcmp(text, "-DTS=32 -DWPT=8") == 0);
    v[1] = 5; /* WPT must divide TS */
    CHECK(rung_check_params(wpt, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "divide"));
    v[1] = 0; /* out of range */
    CHECK(rung_check_params(wpt, v, msg) == LADDER_UNSUPPORTED && strstr(msg, "range"));

    /* Parameters from text (the tuning database), the inverse of rung_params_string. */
    CHECK(rung_params_parse(wpt, "TS=16 WPT=4", v, msg) == LADDER_OK && v[0] == 16 &&
          v[1] == 4);
    CHECK(rung_params_parse(wpt, "TS=16", v, msg) == LADDER_ERROR && strstr(msg, "missing"));
    CHECK(rung_params_parse(wpt, "TS=16 WPT=4 TSK=8", v, msg) == LADDER_ERROR &&
          strstr(msg, "no parameter TSK"));
    CHECK(rung_params_parse(wpt, "TS=16 TS=8 WPT=4", v, msg) == LADDER_ERROR &&
          strstr(msg, "twice"));
    CHECK(rung_params_parse(wpt, "TS=x WPT=4", v, msg) == LADDER_ERROR);

    /* Parameter resolution: a 256-item device gets rung 1's small defaults; a user
     * override that does not fit is reported, not silently changed. */
    const rung *naive = registry_find("naive");
    device_info small = big_gpu();
    small.max_work_group_size = 256;
    const char *source;
    CHECK(params_resolve(naive, NULL, 0, 0, &small, PRECISION_SINGLE, v, &source, msg) == LADDER_OK);
    CHECK(strcmp(source, "small-default") == 0 && v[0] == 16);
    param_override ov = {0, "TS", 32};
    CHECK(params_resolve(naive, &ov, 1, 0, &small, PRECISION_SINGLE, v, &source, msg) == LADDER_UNSUPPORTED);
    CHECK(strstr(msg, "work-items") != NULL);
    device_info tiny = big_gpu();
    tiny.max_work_group_size = 8;
    CHECK(params_resolve(naive, NULL, 0, 0, &tiny, PRECISION_SINGLE, v, &source, msg) == LADDER_UNSUPPORTED);
    param_override bad = {3, "WPT", 7};
    CHECK(params_resolve(wpt, &bad, 1, 0, NULL, PRECISION_SINGLE, v, &source, msg) == LADDER_ERROR);

    /* Rung 8's OpenCL shuffles: built with an OpenCL C 2.0+ standard, and unsupported on a
     * device without sub-groups; CUDA builds are untouched. */
    const rung *vendor = registry_find("vendor");
    CHECK(vendor != NULL);
    if (vendor) {
        rung_defaults(vendor, 0, v);
        int shuffle = rung_param_index(vendor, "USE_SHUFFLE");
        CHECK(shuffle >= 0);
        v[shuffle] = 1;
        device_info ocl = big_gpu();
        strcpy(ocl.backend, "opencl");
        strcpy(ocl.driver, "5.0 (OpenCL 3.0 PoCL)");
        char options[256];
        ocl.subgroups = 1;
        rung_compile_options(vendor, v, &ocl, NULL, options, sizeof options);
        CHECK(strstr(options, "-DUSE_SHUFFLE=1 -cl-std=CL3.0") != NULL);
        CHECK(rung_check_device(vendor, v, &ocl, PRECISION_SINGLE, msg) == LADDER_OK);
        ocl.subgroups = 0;
        CHECK(rung_check_device(vendor, v, &ocl, PRECISION_SINGLE, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "sub-group"));
        device_info cuda = big_gpu();
        strcpy(cuda.backend, "cuda");
        rung_compile_options(vendor, v, &cuda, NULL, options, sizeof options);
        CHECK(strstr(options, "-cl-std") == NULL);
        CHECK(rung_check_device(vendor, v, &cuda, PRECISION_SINGLE, msg) == LADDER_OK);
        v[shuffle] = 0;
        rung_compile_options(vendor, v, &ocl, NULL, options, sizeof options);
        CHECK(strstr(options, "-cl-std") == NULL);
    }
    return CHECK_DONE();
}
