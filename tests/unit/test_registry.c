/* The registry: every rung is complete and consistent, lookups work, parameters are
 * checked, and devices that cannot take the defaults get small ones or a reason. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rungs/registry.h"
#include "params/params.h"
#include "core/runner.h"

static device_info big_gpu(void)
{
    device_info d;
    memset(&d, 0, sizeof d);
    d.local_mem_bytes = 48 * 1024;
    d.cc_major = 9; /* an H100, for the rungs that need a newer GPU */
    d.max_work_group_size = 1024;
    d.max_work_item_sizes[0] = d.max_work_item_sizes[1] = 1024;
    return d;
}

int main(void)
{
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
        /* Defaults (H100 and small-device) are valid and fit the devices they are for. */
        rung_defaults(r, 0, v);
        CHECK(rung_check_params(r, v, msg) == LADDER_OK);
        device_info gpu = big_gpu();
        if (r->only_backend) /* a rung one backend has: a device of that backend */
            snprintf(gpu.backend, sizeof gpu.backend, "%s", r->only_backend);
        CHECK(rung_check_device(r, v, &gpu, msg) == LADDER_OK);
        rung_defaults(r, 1, v);
        CHECK(rung_check_params(r, v, msg) == LADDER_OK);
        device_info small = gpu;
        small.local_mem_bytes = 32 * 1024;
        small.max_work_group_size = 256;
        CHECK(rung_check_device(r, v, &small, msg) == LADDER_OK);
        /* The geometry covers C: global sizes are whole work-groups. */
        launch_dims d;
        int mult[3] = {1, 1, 1};
        if (r->multiples)
            r->multiples(v, mult);
        r->geometry(v, mult[0] * 3, mult[1] * 2, &d);
        CHECK(d.global[0] % d.local[0] == 0 && d.global[1] % d.local[1] == 0);
        CHECK(registry_find(r->name) == r && registry_find(r->id) == r);
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
    rung_param any = {"X", 1, 0, 0, 8, "a switch or a power of two", NULL, 0};
    int c[RUNG_MAX_CHOICES];
    CHECK(rung_param_choices(&any, c) == 5 && c[0] == 0 && c[1] == 1 && c[4] == 8);
    CHECK(registry_find("1") && registry_find("1")->number == 1);
    CHECK(registry_find("cublas") && registry_find("cublas")->kind == RUNG_LIBRARY);
    CHECK(registry_find("CPU") && registry_find("cpu")->kind == RUNG_HOST);
    CHECK(registry_find("nope") == NULL);
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
        CHECK(rung_check_device(async, v, &d, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "CUDA only"));
        snprintf(d.backend, sizeof d.backend, "cuda");
        d.cc_major = 7;
        d.cc_minor = 5;
        CHECK(rung_check_device(async, v, &d, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "compute capability 8.0"));
        d.cc_major = 9;
        d.cc_minor = 0;
        CHECK(rung_check_device(async, v, &d, msg) == LADDER_OK);
    }

    /* Rung 16 multiplies split TF32 parts: it alone is checked with a larger unit
     * roundoff; its tiles must be whole mma blocks and fit 1024 threads. */
    {
        int nrungs = 0;
        const rung *rungs = registry_all(&nrungs);
        for (int i = 0; i < nrungs; i++)
            CHECK(rung_unit_roundoff(&rungs[i]) ==
                  (strcmp(rungs[i].name, "tf32x3") == 0 ? 0x1p-20 : 0x1p-24));
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
        CHECK(sc->local_mem_bytes(v) == 33280); /* what ptxas reports for the kernel */
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

    /* Rungs of several kernels: at every shape they take, on small and large devices, a
     * call launches 1 to RUNG_MAX_LAUNCHES named kernels in whole work-groups, none
     * larger than the `geometry` the device checks, and takes the BLAS arguments. */
    for (int i = 0; i < n; i++) {
        const rung *r = &all[i];
        if (!r->launches)
            continue;
        CHECK(r->blas_args);
        static const gemm_size shapes[] = {{1, 1, 1},     {1, 4096, 4096}, {4096, 1, 4096},
                                           {16, 300, 0},  {301, 16, 7},    {7, 3, 99991},
                                           {16, 16, 16},  {2048, 2048, 2048}};
        static const int units[] = {1, 2, 132};
        for (int small = 0; small <= 1; small++) {
            int v[RUNG_MAX_PARAMS];
            char msg[LADDER_MSG];
            rung_defaults(r, small, v);
            launch_dims main;
            r->geometry(v, 1, 1, &main);
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                if (rung_check_size(r, v, &shapes[s], msg) != LADDER_OK)
                    continue;
                for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
                    const launch_shape sh = {(int)shapes[s].M, (int)shapes[s].N,
                                             (int)shapes[s].K, units[u]};
                    rung_launch l[RUNG_MAX_LAUNCHES];
                    const int nl = r->launches(v, &sh, l);
                    CHECK(nl >= 1 && nl <= RUNG_MAX_LAUNCHES);
                    for (int k = 0; k < nl && k < RUNG_MAX_LAUNCHES; k++) {
                        CHECK(l[k].kernel && l[k].kernel[0]);
                        for (int d = 0; d < 2; d++)
                            CHECK(l[k].dims.local[d] >= 1 && l[k].dims.global[d] >= 1 &&
                                  l[k].dims.global[d] % l[k].dims.local[d] == 0);
                        CHECK(l[k].dims.local[0] * l[k].dims.local[1] <=
                              main.local[0] * main.local[1]);
                    }
                }
            }
        }
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
        launch_shape s = {4096, 1, 4096, 132};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "tall_n1") == 0 &&
              l[0].dims.global[0] == 128 * l[0].dims.local[0] && l[0].dims.global[1] == 1 &&
              sk->workspace_floats(v, &s) == 0);
        s = (launch_shape){5000, 3, 64, 132}; /* N = 3 runs the kernel of 4 columns */
        CHECK(sk->launches(v, &s, l) >= 1 && strcmp(l[0].kernel, "tall_n4") == 0);
        s = (launch_shape){11008, 16, 4096, 132};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "tall_n16") == 0);
        /* Wide (few rows), the same way along N. */
        s = (launch_shape){1, 4096, 4096, 132};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "wide_m1") == 0);
        s = (launch_shape){16, 4096, 4096, 132};
        CHECK(sk->launches(v, &s, l) == 1 && strcmp(l[0].kernel, "wide_m16") == 0);
        /* One work-group of rows with a long K on 132 SMs: K in slices, then `reduce` with
         * one work-item per element of C, over slices * M * N partials. */
        s = (launch_shape){7, 3, 99991, 132};
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
    CHECK(params_resolve(naive, NULL, 0, 0, &small, v, &source, msg) == LADDER_OK);
    CHECK(strcmp(source, "small-default") == 0 && v[0] == 16);
    param_override ov = {0, "TS", 32};
    CHECK(params_resolve(naive, &ov, 1, 0, &small, v, &source, msg) == LADDER_UNSUPPORTED);
    CHECK(strstr(msg, "work-items") != NULL);
    device_info tiny = big_gpu();
    tiny.max_work_group_size = 8;
    CHECK(params_resolve(naive, NULL, 0, 0, &tiny, v, &source, msg) == LADDER_UNSUPPORTED);
    param_override bad = {3, "WPT", 7};
    CHECK(params_resolve(wpt, &bad, 1, 0, NULL, v, &source, msg) == LADDER_ERROR);

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
        rung_compile_options(vendor, v, &ocl, options, sizeof options);
        CHECK(strstr(options, "-DUSE_SHUFFLE=1 -cl-std=CL3.0") != NULL);
        CHECK(rung_check_device(vendor, v, &ocl, msg) == LADDER_OK);
        ocl.subgroups = 0;
        CHECK(rung_check_device(vendor, v, &ocl, msg) == LADDER_UNSUPPORTED &&
              strstr(msg, "sub-group"));
        device_info cuda = big_gpu();
        strcpy(cuda.backend, "cuda");
        rung_compile_options(vendor, v, &cuda, options, sizeof options);
        CHECK(strstr(options, "-cl-std") == NULL);
        CHECK(rung_check_device(vendor, v, &cuda, msg) == LADDER_OK);
        v[shuffle] = 0;
        rung_compile_options(vendor, v, &ocl, options, sizeof options);
        CHECK(strstr(options, "-cl-std") == NULL);
    }
    return CHECK_DONE();
}
