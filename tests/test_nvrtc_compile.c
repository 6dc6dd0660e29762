/* Every CUDA rung must compile, checked without a GPU.
 *
 * NVRTC is a library that needs no driver, so this runs anywhere the CUDA toolkit is
 * installed (CI included). For each kernel rung in the registry it compiles
 * kernels-cuda/<id>.cu for sm_90 (the H100) with the options the CUDA backend gives it
 * there (for the rungs of Hopper's own instructions that includes sm_90a, the
 * arch-specific target, which replaces sm_90), with the rung's default parameters and with
 * its small-device defaults (in its own precision: double for a double-only rung), the two
 * combinations the harness uses without being told, then with each switch (a parameter of
 * range 0..1, such as split-K's ATOMIC) flipped from the defaults, since a switch compiles another path through the kernels; then in
 * every case the rung takes by its registry flags, with the options the harness gives
 * (rung_compile_options: -DLADDER_DOUBLE=1 where it takes double, -DTRANS_A and -DTRANS_B
 * for each transpose pair where it takes transposes); and it compiles helpers.cu, in
 * single and in double, and the timer's hold kernel (backends/cuda/stream_hold.h), and
 * the probes of `ladder ceilings` (ceilings/fma.cu in both precisions with each chain
 * count it tries, ceilings/read.cu) with the options it gives them. Any compile error
 * fails the test with the rung and the compiler's log.
 *
 * The kernel directory is <source>/kernels-cuda, or $LADDER_CUDA_KERNELS when set (to
 * check a student's edited copy, for example).
 *
 * With --spills it checks instead that no tile of split-K (rung 19) spills registers to local
 * memory, nor rung 20 at its fallback rule's parameters, and that a call of rung 20
 * compiles only the kernel it launches, from ptxas's report (check_split_k_spills,
 * check_skinny_spills, check_skinny_call_defines), and that rung 20 loads a round inside
 * the matrix without checks, from the PTX (check_skinny_loads).
 *
 * With --cubins DIR it compiles only each rung's default and small-device parameter sets
 * and writes the CUBINs, DIR/<id>-default.cubin and DIR/<id>-small.cubin (the second only
 * where the sets differ): the machine code ladder runs on an H100, for
 * tools/ptxas-report.sh and tools/sass-report.sh to read with cuobjdump. nvcc compiles
 * the same file with the same defines into other code (rung 26: 168 bytes of spills
 * under nvcc, none under NVRTC), so reports of what runs come from here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/cuda/nvrtc_compile.h"
#include "backends/cuda/stream_hold_source.h"
#include "core/ceilings.h"
#include "params/params.h"
#include "rungs/registry.h"

#define TEST_ARCH "sm_90"

/* The options the CUDA backend compiles a rung with on an H100: the defines, and for the
 * rungs of Hopper's own instructions (wgmma) --gpu-architecture=sm_90a, the arch-specific
 * target that alone has them, which replaces the sm_90 passed as `arch`. */
static device_info h100(void)
{
    device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.backend, sizeof d.backend, "cuda");
    d.is_gpu = 1;
    d.cc_major = 9;
    d.local_mem_bytes = 48 * 1024;         /* a block without opting in */
    d.local_mem_optin_bytes = 227 * 1024;  /* with (the Hopper rungs' dynamic memory) */
    d.max_work_group_size = 1024;
    d.max_work_item_sizes[0] = d.max_work_item_sizes[1] = 1024;
    d.max_work_item_sizes[2] = 64;
    return d;
}

/* ... in the rung's own precision: double for a rung without single (rung 25). */
static void cuda_options(const rung *r, const int *values, char *out, size_t size)
{
    const device_info dev = h100();
    gemm_case own = GEMM_CASE_DEFAULT;
    own.precision = rung_own_precision(r);
    rung_compile_options(r, values, &dev, &own, out, size);
}

static const char *kernel_dir(void)
{
    const char *override = getenv("LADDER_CUDA_KERNELS");
    if (override && *override)
        return override;
    return LADDER_SOURCE_DIR "/kernels-cuda";
}

/* --cubins DIR: where the default and small-device CUBINs go; NULL: nowhere. */
static const char *cubin_dir;

/* Writes a CUBIN of `file` ("17-banks.cu") for a parameter set ("default", "small") into
 * cubin_dir. Returns 1 on failure, 0 on success. */
static int write_cubin(const char *file, const char *set, const char *image, size_t size)
{
    char path[4096];
    const char *dot = strrchr(file, '.');
    snprintf(path, sizeof path, "%s/%.*s-%s.cubin", cubin_dir, (int)(dot - file), file, set);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(image, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        printf("FAIL cannot write %s\n", path);
    return !ok;
}

/* Compiles dir/file with options; prints one line; returns 1 on failure, 0 on success.
 * With --cubins, `set` names the CUBIN to write ("default", "small"); NULL writes none. */
static int compile_one_as(const char *dir, const char *file, const char *label,
                          const char *options, const char *set)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char msg[LADDER_MSG];
    char *image = NULL;
    size_t size = 0;
    if (nvrtc_compile_file(path, options, TEST_ARCH, &image, &size, msg) != LADDER_OK) {
        printf("FAIL %-22s %-14s %s\n%s\n", file, label, options[0] ? options : "-", msg);
        return 1;
    }
    const int failed = cubin_dir && set ? write_cubin(file, set, image, size) : 0;
    free(image);
    printf("ok   %-22s %-14s %-28s %zu-byte CUBIN\n", file, label, options[0] ? options : "-",
           size);
    return failed;
}

static int compile_one(const char *dir, const char *file, const char *label,
                       const char *options)
{
    return compile_one_as(dir, file, label, options, NULL);
}

/* Compiles one rung with its default parameters with each switch flipped, those the
 * registry accepts. `compiled` counts the compiles run; returns the number that failed. */
static int check_switches(const rung *r, const char *dir, const char *file, int *compiled)
{
    int failures = 0;
    for (int p = 0; p < r->nparams; p++) {
        if (r->params[p].min != 0 || r->params[p].max != 1)
            continue;
        int values[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG], label[64], defines[512];
        rung_defaults(r, 0, values);
        values[p] = !values[p];
        if (rung_check_params(r, values, msg) != LADDER_OK)
            continue; /* a combination the harness never compiles */
        snprintf(label, sizeof label, "%s=%d", r->params[p].name, values[p]);
        cuda_options(r, values, defines, sizeof defines);
        failures += compile_one(dir, file, label, defines);
        (*compiled)++;
    }
    return failures;
}

/* Compiles one rung with its default parameters in every case its flags say it takes
 * (beyond single NN without transposes, compiled above), with the harness's options,
 * except one whose options are `done` (the defaults' compile: a double-only rung's double
 * NN). `compiled` counts the compiles run; returns the number that failed. */
static int check_cases(const rung *r, const char *dir, const char *file, const char *done,
                       int *compiled)
{
    const device_info cuda = h100();
    int values[RUNG_MAX_PARAMS], failures = 0;
    for (int p = 0; p < 2; p++)
        for (int t = 0; t < 4; t++) {
            gemm_case c = GEMM_CASE_DEFAULT;
            c.precision = p ? PRECISION_DOUBLE : PRECISION_SINGLE;
            c.trans_a = t >> 1;
            c.trans_b = t & 1;
            char msg[LADDER_MSG], label[64], options[512], trans[3];
            if ((!p && !r->takes_transposes) || rung_check_case(r, &c, msg) != LADDER_OK ||
                (t && !r->takes_transposes))
                continue; /* compiled above, a case the harness never compiles, or a pair
                             whose kernel is NN's (the helpers transpose) */
            snprintf(label, sizeof label, "%s %s", gemm_precision_name(c.precision),
                     gemm_trans_name(c.trans_a, c.trans_b, trans));
            /* The parameters the harness picks on an H100 in this precision: in double a
             * tile takes twice the shared memory, and where the defaults' would not fit
             * it runs the small-device defaults. */
            const char *source;
            if (params_resolve(r, NULL, 0, 0, &cuda, c.precision, values, &source, msg) !=
                LADDER_OK) {
                printf("FAIL %-22s %-14s no parameters fit an H100: %s\n", file, label, msg);
                failures++;
                continue;
            }
            rung_compile_options(r, values, &cuda, &c, options, sizeof options);
            if (strcmp(options, done) == 0)
                continue;
            failures += compile_one(dir, file, label, options);
            (*compiled)++;
        }
    return failures;
}

/* Compiles one rung with its default and its small-device parameters, its switches
 * flipped, and its cases. `compiled` counts the compiles run; returns the number that
 * failed. */
static int check_rung(const rung *r, const char *dir, int *compiled)
{
    char file[256];
    snprintf(file, sizeof file, "%s.cu", r->id);
    char first_defines[512] = "";
    int failures = 0;
    for (int small = 0; small <= 1; small++) {
        const char *label = small ? "small-device" : "default";
        int values[RUNG_MAX_PARAMS];
        rung_defaults(r, small, values);

        /* Defaults the registry itself rejects would never reach the compiler in the
         * harness: that is a registry bug worth failing on here too. */
        char msg[LADDER_MSG];
        if (rung_check_params(r, values, msg) != LADDER_OK) {
            printf("FAIL %-22s %-14s the registry rejects its own defaults: %s\n", file,
                   label, msg);
            failures++;
            continue;
        }

        char defines[512];
        cuda_options(r, values, defines, sizeof defines);
        if (small && strcmp(defines, first_defines) == 0)
            continue; /* same values as the default: already compiled */
        if (!small)
            snprintf(first_defines, sizeof first_defines, "%s", defines);
        failures += compile_one_as(dir, file, label, defines, small ? "small" : "default");
        (*compiled)++;
    }
    if (cubin_dir)
        return failures; /* --cubins: the two parameter sets only */
    return failures + check_switches(r, dir, file, compiled) +
           check_cases(r, dir, file, first_defines, compiled);
}

/* The report's lines on kernel `kernel`: what follows its "Function properties for"
 * line, or NULL. */
static const char *kernel_report(const char *report, const char *kernel)
{
    char head[128];
    snprintf(head, sizeof head, "Function properties for %s\n", kernel);
    const char *at = strstr(report, head);
    return at ? at + strlen(head) : NULL;
}

/* The bytes kernel `kernel` spills to local memory by a ptxas report ("... N bytes spill
 * stores" on the line after "Function properties for <kernel>"), or -1 when the report
 * does not say. */
static long spill_stores(const char *report, const char *kernel)
{
    const char *line = kernel_report(report, kernel);
    if (!line)
        return -1;
    const char *end = strchr(line, '\n'), *words = strstr(line, " bytes spill stores");
    if (!words || (end && words > end))
        return -1;
    const char *digits = words;
    while (digits > line && isdigit((unsigned char)digits[-1]))
        digits--;
    return digits < words ? strtol(digits, NULL, 10) : -1;
}

/* Split-K's sums stay in registers: at its tile depth (TSK = 8, its default) no tile the
 * profiler of the shape-aware entry tries (every choice of TSM, TSN and WM the registry
 * takes), with either ATOMIC, makes ptxas spill in kernel `gemm`. The tiles of one or
 * two warps (32 x 128, 128 x 32, 64 x 64, the skinny shapes' tiles) spilled 16 to 248
 * bytes a thread at a cap of 128 registers, and ran up to 1.4 times slower for it on
 * the H200; the kernel now lets them have 168 (kernels-cuda/19-splitk.cu, MIN_BLOCKS).
 * Returns the number of failures; `compiled` counts the compiles run. */
static int check_split_k_spills(const char *dir, int *compiled)
{
    const rung *r = registry_find("splitk");
    if (!r) {
        printf("FAIL the registry has no rung splitk\n");
        return 1;
    }
    const int tsm = rung_param_index(r, "TSM"), tsn = rung_param_index(r, "TSN"),
              wm = rung_param_index(r, "WM"), atomic = rung_param_index(r, "ATOMIC");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.cu", dir, r->id);
    int values[RUNG_MAX_PARAMS], failures = 0, tiles = 0;
    rung_defaults(r, 0, values);
    for (int a = 0; a < r->params[tsm].nchoices; a++)
        for (int b = 0; b < r->params[tsn].nchoices; b++)
            for (int w = 0; w < r->params[wm].nchoices; w++)
                for (int t = 0; t <= 1; t++) {
                    values[tsm] = r->params[tsm].choices[a];
                    values[tsn] = r->params[tsn].choices[b];
                    values[wm] = r->params[wm].choices[w];
                    values[atomic] = t;
                    char msg[LADDER_MSG], options[512], *report = NULL;
                    if (rung_check_params(r, values, msg) != LADDER_OK)
                        continue; /* not a tile the rung takes */
                    cuda_options(r, values, options, sizeof options);
                    (*compiled)++;
                    tiles++;
                    if (nvrtc_ptxas_report(path, options, TEST_ARCH, &report, msg) !=
                        LADDER_OK) {
                        printf("FAIL %s with %s: %s\n", path, options, msg);
                        failures++;
                        continue;
                    }
                    const long spilled = spill_stores(report, "gemm");
                    if (spilled != 0) {
                        printf("FAIL %s with %s: kernel gemm spills %ld bytes a thread "
                               "(-1: the ptxas report does not say)\n%s\n",
                               path, options, spilled, report);
                        failures++;
                    }
                    free(report);
                }
    printf("%s split-K's gemm without spills at %d tiles\n", failures ? "FAIL" : "ok  ",
           tiles);
    return failures + (tiles == 0);
}

/* Rung 20's kernels, but `reduce`. */
static const char *const skinny_kernels[] = {"tall_n1", "tall_n2", "tall_n4", "tall_n8",
                                             "tall_n16", "wide_m1", "wide_m2", "wide_m4",
                                             "wide_m8", "wide_m16"};
#define SKINNY_KERNELS (sizeof skinny_kernels / sizeof skinny_kernels[0])

/* Rung 20 from the registry, and its file in `dir` into path; NULL (said) without it. */
static const rung *skinny_rung(const char *dir, char *path, size_t size)
{
    const rung *r = registry_find("skinny");
    if (!r)
        printf("FAIL the registry has no rung skinny\n");
    else
        snprintf(path, size, "%s/%s.cu", dir, r->id);
    return r;
}

/* Rung 20 holds a thread's share of the small matrix's slab in registers only when it
 * fits in SLAB_HELD_MOST of them (kernels-cuda/20-skinny.cu): held beside the big
 * matrix's loads, a share of 16 or 32 values spilled (tall_n16 172 bytes at the fallback
 * rule's parameters; wide_m16 292 and wide_m4 20 at those with PF = 0, under NVRTC
 * 13.0). At the parameters the rule gives
 * a GPU, with PF as the defaults have it and turned off, none of its kernels spills.
 * Returns the number of failures; `compiled` counts the compiles run. */
static int check_skinny_spills(const char *dir, int *compiled)
{
    char path[4096];
    const rung *r = skinny_rung(dir, path, sizeof path);
    if (!r)
        return 1;
    if (!r->rule_params) {
        printf("FAIL rung skinny has no fallback rule\n");
        return 1;
    }
    const int pf = rung_param_index(r, "PF");
    const device_info dev = h100();
    device_info gpu = dev;
    gpu.compute_units = 132;
    const gemm_size gemv = {1, 4096, 4096};
    int failures = 0;
    for (int prefetch = 1; prefetch >= 0; prefetch--) {
        int values[RUNG_MAX_PARAMS];
        rung_defaults(r, 0, values);
        values[pf] = prefetch;
        r->rule_params(values, &gemv, &gpu);
        char msg[LADDER_MSG], options[512], *report = NULL;
        cuda_options(r, values, options, sizeof options);
        (*compiled)++;
        if (nvrtc_ptxas_report(path, options, TEST_ARCH, &report, msg) != LADDER_OK) {
            printf("FAIL %s with %s: %s\n", path, options, msg);
            failures++;
            continue;
        }
        for (size_t k = 0; k < SKINNY_KERNELS; k++) {
            const long spilled = spill_stores(report, skinny_kernels[k]);
            if (spilled != 0) {
                printf("FAIL %s with %s: kernel %s spills %ld bytes a thread (-1: the "
                       "ptxas report does not say)\n", path, options, skinny_kernels[k],
                       spilled);
                failures++;
            }
        }
        free(report);
    }
    printf("%s rung 20's kernels without spills at the rule's parameters, PF 1 and 0\n",
           failures ? "FAIL" : "ok  ");
    return failures;
}

/* The registers kernel `kernel` uses by a ptxas report ("Used N registers" on the line
 * after its "Function properties for" line and the spill line), or -1. */
static long registers_used(const char *report, const char *kernel)
{
    const char *at = kernel_report(report, kernel);
    const char *used = at ? strstr(at, "Used ") : NULL;
    return used ? strtol(used + 5, NULL, 10) : -1;
}

/* A call of rung 20 on CUDA compiles only the kernel it launches (rung_call_options:
 * -DONLY_WIDE=8 at 8 x 8192 x 8192): that kernel and `reduce` keep their bodies, every
 * other kernel of the file is empty (a few registers), so NVRTC has one body to compile,
 * not ten. Returns the number of failures; `compiled` counts the compiles run. */
static int check_skinny_call_defines(const char *dir, int *compiled)
{
    char path[4096], options[512], msg[LADDER_MSG], *report = NULL;
    const rung *r = skinny_rung(dir, path, sizeof path);
    if (!r)
        return 1;
    const device_info dev = h100();
    const launch_shape shape = {8, 8192, 8192, 132, 4, 0, 0};
    int values[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, values);
    rung_call_options(r, values, &dev, NULL, &shape, options, sizeof options);
    (*compiled)++;
    if (nvrtc_ptxas_report(path, options, TEST_ARCH, &report, msg) != LADDER_OK) {
        printf("FAIL %s with %s: %s\n", path, options, msg);
        return 1;
    }
    int failures = 0;
    if (!strstr(options, "-DONLY_WIDE=8") || registers_used(report, "wide_m8") < 32 ||
        registers_used(report, "reduce") < 8) {
        printf("FAIL %s with %s: wide_m8 and reduce should be compiled whole\n", path,
               options);
        failures++;
    }
    for (size_t k = 0; k < SKINNY_KERNELS; k++) {
        const long used = registers_used(report, skinny_kernels[k]);
        if (strcmp(skinny_kernels[k], "wide_m8") == 0)
            continue; /* the one it launches */
        if (used < 0 || used > 8) {
            printf("FAIL %s with %s: kernel %s uses %ld registers; a call that does not "
                   "launch it should leave its body out\n", path, options, skinny_kernels[k],
                   used);
            failures++;
        }
    }
    free(report);
    printf("%s rung 20 at 8x8192x8192 compiles wide_m8 and reduce only\n",
           failures ? "FAIL" : "ok  ");
    return failures;
}

/* The longest run of 16-byte read-only loads (ld.global.nc.v4) in kernel `kernel` of
 * `ptx` with no branch and no branch target between them, or -1 without the kernel. */
static int longest_load_run(const char *ptx, const char *kernel)
{
    char entry[64];
    snprintf(entry, sizeof entry, ".entry %s(", kernel);
    const char *line = strstr(ptx, entry);
    if (!line)
        return -1;
    int run = 0, best = 0;
    while (line && *line != '}') { /* the kernel's body ends with a "}" line */
        const char *text = line + strspn(line, " \t");
        const size_t n = strcspn(text, "\n");
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)n, text);
        if (strstr(buf, "ld.global.nc.v4."))
            run++;
        else if (strstr(buf, "bra ") || strstr(buf, "bra.uni") || buf[0] == '$')
            run = 0; /* a branch, or a label another branch may land on */
        if (run > best)
            best = run;
        line = text[n] ? text + n + 1 : NULL;
    }
    return best;
}

/* Rung 20 loads a round that lies wholly inside the big matrix and its slice of K with no
 * checks, so that the round's loads leave together: in the PTX, a round's 4*TQ (tall) or
 * WC*WU (wide) 16-byte loads in one run with no branch between them. Checked element by
 * element, each load had its own branches (a run of 1), and the round's loads left over
 * some 200 instructions (results/h200-2026-11-29-gemv-2). At the defaults, for the kernel
 * each of three GEMV-like calls launches. Returns the number of failures; `compiled`
 * counts the compiles run. */
static int check_skinny_loads(const char *dir, int *compiled)
{
    char path[4096];
    const rung *r = skinny_rung(dir, path, sizeof path);
    if (!r)
        return 1;
    static const struct {
        int M, N, K;
        const char *kernel;
        int tall;
    } calls[] = {{4096, 1, 4096, "tall_n1", 1}, {1, 4096, 4096, "wide_m1", 0},
                 {8, 8192, 8192, "wide_m8", 0}};
    const device_info dev = h100();
    int values[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, values);
    const int tq = values[rung_param_index(r, "TQ")];
    const int wc = values[rung_param_index(r, "WC")], wu = values[rung_param_index(r, "WU")];
    int failures = 0;
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        const launch_shape shape = {calls[c].M, calls[c].N, calls[c].K, 132, 4, 0, 0};
        char options[512], msg[LADDER_MSG], *ptx = NULL;
        rung_call_options(r, values, &dev, NULL, &shape, options, sizeof options);
        (*compiled)++;
        if (nvrtc_ptx_file(path, options, TEST_ARCH, &ptx, msg) != LADDER_OK) {
            printf("FAIL %s with %s: %s\n", path, options, msg);
            failures++;
            continue;
        }
        const int want = calls[c].tall ? 4 * tq : wc * wu;
        const int run = longest_load_run(ptx, calls[c].kernel);
        if (run < want) {
            printf("FAIL %s with %s: kernel %s's longest run of float4 loads without a "
                   "branch is %d; a round inside the matrix should load its %d together\n",
                   path, options, calls[c].kernel, run, want);
            failures++;
        }
        free(ptx);
    }
    printf("%s rung 20 loads a round inside the matrix without checks (tall_n1, wide_m1, "
           "wide_m8)\n", failures ? "FAIL" : "ok  ");
    return failures;
}

/* The probes of `ladder ceilings`, as core/ceilings.c compiles them on an H100. Returns
 * the number that failed; `compiled` counts the compiles run. */
static int check_ceilings(const char *dir, int *compiled)
{
    const device_info dev = h100();
    int failures = compile_one(dir, "ceilings/read.cu", "ceilings read",
                               ceilings_read_options(&dev));
    (*compiled)++;
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < CEILINGS_CHAIN_COUNTS; c++) {
            const gemm_precision precision = p ? PRECISION_DOUBLE : PRECISION_SINGLE;
            char options[128], label[64];
            ceilings_fma_options(precision, ceilings_chain_counts[c], options, sizeof options);
            snprintf(label, sizeof label, "ceilings %s", gemm_precision_name(precision));
            failures += compile_one(dir, "ceilings/fma.cu", label, options);
            (*compiled)++;
        }
    return failures;
}

/* The timer's hold kernel: every timed CUDA run compiles it first. */
static int compile_hold(const char *arch)
{
    char *image = NULL, msg[LADDER_MSG];
    size_t size = 0;
    if (nvrtc_compile_text("stream_hold.cu", stream_hold_source, NULL, arch, &image, &size,
                           msg) != LADDER_OK) {
        printf("FAIL the timer's hold kernel for %s: %s\n", arch, msg);
        return 1;
    }
    free(image);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--spills") == 0) {
        /* A test of its own (nvrtc_splitk_spills), so the two run side by side. */
        int compiled = 0;
        const int failures = check_split_k_spills(kernel_dir(), &compiled) +
                             check_skinny_spills(kernel_dir(), &compiled) +
                             check_skinny_call_defines(kernel_dir(), &compiled) +
                             check_skinny_loads(kernel_dir(), &compiled);
        printf("%s: %d compiles of split-K's tiles and rung 20 with ptxas's report or the "
               "PTX, %d failed\n",
               failures ? "FAILED" : "PASSED", compiled, failures);
        return failures ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    if (argc == 3 && strcmp(argv[1], "--cubins") == 0) {
        struct stat st;
        if (stat(argv[2], &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "test_nvrtc_compile: --cubins %s: not a folder (make it first)\n",
                    argv[2]);
            return 2;
        }
        cubin_dir = argv[2];
    } else if (argc != 1) {
        fprintf(stderr, "usage: test_nvrtc_compile [--cubins DIR | --spills]\n");
        return 2;
    }
    const char *dir = kernel_dir();
    printf("compiling the CUDA rungs in %s for %s with NVRTC\n", dir, TEST_ARCH);

    int count = 0, compiled = 0, failures = 0, kernel_rungs = 0;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++) {
        if (all[i].kind != RUNG_KERNEL || !rung_on_backend(&all[i], "cuda"))
            continue; /* an OpenCL-only rung (27) has no CUDA file */
        kernel_rungs++;
        failures += check_rung(&all[i], dir, &compiled);
    }
    if (cubin_dir) {
        printf("%s: %d compiles of %d rungs written to %s, %d failed\n",
               failures ? "FAILED" : "PASSED", compiled, kernel_rungs, cubin_dir, failures);
        return failures ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    failures += compile_one(dir, "helpers.cu", "helpers", "");
    failures += compile_one(dir, "helpers.cu", "helpers double", "-DLADDER_DOUBLE=1");
    compiled += 2;
    failures += compile_hold(TEST_ARCH);
    compiled += 1;
    failures += check_ceilings(dir, &compiled);

    if (kernel_rungs == 0) {
        printf("FAIL the registry lists no kernel rungs\n");
        failures++;
    }
    printf("%s: %d compiles of %d rungs, helpers.cu and the ceilings probes for %s, "
           "%d failed\n",
           failures ? "FAILED" : "PASSED", compiled, kernel_rungs, TEST_ARCH, failures);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
