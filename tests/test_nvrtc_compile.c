/* Every CUDA rung must compile, checked without a GPU.
 *
 * NVRTC is a library that needs no driver, so this runs anywhere the CUDA toolkit is
 * installed (CI included). For each kernel rung in the registry it compiles
 * kernels-cuda/<id>.cu for sm_90 (the H100) with the rung's default parameters and with
 * its small-device defaults, the two combinations the harness uses without being told,
 * then with each switch (a parameter of range 0..1, such as split-K's ATOMIC) flipped
 * from the defaults, since a switch compiles another path through the kernels; and it
 * compiles helpers.cu. A rung that takes double (registry.h, "The rest of a BLAS call")
 * is compiled again with -DLADDER_DOUBLE=1, with each of those parameter sets whose tiles
 * fit the H100's 48 KiB of static shared memory in double (at least one must), and
 * every BLAS-call rung with every TRANS_A, TRANS_B pair, in each precision it takes (a
 * CUDA kernel may honor them before the registry says so: the flag, takes_transposes,
 * waits for the rung's OpenCL kernel too). Any compile error fails the test with the
 * rung and the compiler's log.
 *
 * The kernel directory is <source>/kernels-cuda, or $LADDER_CUDA_KERNELS when set (to
 * check a student's edited copy, for example).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cuda/nvrtc_compile.h"
#include "rungs/registry.h"

#define TEST_ARCH "sm_90"
/* Static shared memory a block may declare on the H100 (and every GPU since Volta). */
#define STATIC_SHARED_BYTES (48 * 1024)
#define DOUBLE_OPTION " -DLADDER_DOUBLE=1"

static const char *kernel_dir(void)
{
    const char *override = getenv("LADDER_CUDA_KERNELS");
    if (override && *override)
        return override;
    return LADDER_SOURCE_DIR "/kernels-cuda";
}

/* Compiles dir/file with options; prints one line; returns 1 on failure, 0 on success. */
static int compile_one(const char *dir, const char *file, const char *label,
                       const char *options)
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
    free(image);
    printf("ok   %-22s %-14s %-28s %zu-byte CUBIN\n", file, label, options[0] ? options : "-",
           size);
    return 0;
}

/* Compiles one rung with its default (or, if `small`, small-device) parameters with each
 * switch flipped, those the registry accepts, adding `extra` to the options (the
 * precision). `compiled` counts the compiles run; returns the number that failed. */
static int check_switches(const rung *r, const char *dir, const char *file, int small,
                          const char *extra, int *compiled)
{
    int failures = 0;
    for (int p = 0; p < r->nparams; p++) {
        if (r->params[p].min != 0 || r->params[p].max != 1)
            continue;
        int values[RUNG_MAX_PARAMS];
        char msg[LADDER_MSG], label[64], defines[512];
        rung_defaults(r, small, values);
        values[p] = !values[p];
        if (rung_check_params(r, values, msg) != LADDER_OK)
            continue; /* a combination the harness never compiles */
        snprintf(label, sizeof label, "%s=%d", r->params[p].name, values[p]);
        rung_params_defines(r, values, defines, sizeof defines);
        strncat(defines, extra, sizeof defines - strlen(defines) - 1);
        failures += compile_one(dir, file, label, defines);
        (*compiled)++;
    }
    return failures;
}

/* Compiles one rung with its default and its small-device parameters, and its switches
 * flipped. `compiled` counts the compiles run; returns the number that failed. */
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
        rung_params_defines(r, values, defines, sizeof defines);
        if (small && strcmp(defines, first_defines) == 0)
            continue; /* same values as the default: already compiled */
        if (!small)
            snprintf(first_defines, sizeof first_defines, "%s", defines);
        failures += compile_one(dir, file, label, defines);
        (*compiled)++;
    }
    return failures + check_switches(r, dir, file, 0, "", compiled);
}

/* Shared memory of a parameter set in double: the registry gives it for float. */
static size_t double_local_mem(const rung *r, const int *values)
{
    return r->local_mem_bytes ? 2 * r->local_mem_bytes(values) : 0;
}

/* The parameter sets a double case runs with: the default and small-device ones (once if
 * they are equal) whose tiles fit in double. Returns how many, at most 2, into `sets`. */
static int double_sets(const rung *r, int sets[2][RUNG_MAX_PARAMS])
{
    int n = 0;
    for (int small = 0; small <= 1; small++) {
        rung_defaults(r, small, sets[n]);
        if (double_local_mem(r, sets[n]) > STATIC_SHARED_BYTES)
            continue;
        if (n == 1 && memcmp(sets[0], sets[1], sizeof sets[0]) == 0)
            continue;
        n++;
    }
    return n;
}

/* A rung that takes double: its parameter sets that fit (none fitting is a failure: the
 * rung would claim double and never run it), its switches, in double. */
static int check_double(const rung *r, const char *dir, int *compiled)
{
    char file[256];
    snprintf(file, sizeof file, "%s.cu", r->id);
    int sets[2][RUNG_MAX_PARAMS];
    const int n = double_sets(r, sets);
    if (n == 0) {
        printf("FAIL %-22s %-14s no default parameter set fits %d KiB in double\n", file,
               "double", STATIC_SHARED_BYTES / 1024);
        return 1;
    }
    int failures = 0;
    for (int i = 0; i < n; i++) {
        char defines[512];
        rung_params_defines(r, sets[i], defines, sizeof defines);
        strncat(defines, DOUBLE_OPTION, sizeof defines - strlen(defines) - 1);
        failures += compile_one(dir, file, "double", defines);
        (*compiled)++;
    }
    int defaults[RUNG_MAX_PARAMS];
    rung_defaults(r, 0, defaults);
    const int small = double_local_mem(r, defaults) > STATIC_SHARED_BYTES;
    return failures + check_switches(r, dir, file, small, DOUBLE_OPTION, compiled);
}

/* A BLAS-call rung: every TRANS_A, TRANS_B pair, in float with its defaults and, if it
 * takes double, in double with its first set that fits. */
static int check_transposes(const rung *r, const char *dir, int *compiled)
{
    char file[256];
    snprintf(file, sizeof file, "%s.cu", r->id);
    int failures = 0;
    for (int precision = 0; precision <= r->takes_double; precision++) {
        int sets[2][RUNG_MAX_PARAMS];
        if (precision == 0)
            rung_defaults(r, 0, sets[0]);
        else if (double_sets(r, sets) == 0)
            continue; /* check_double has failed it already */
        for (int pair = 0; pair < 4; pair++) {
            const int ta = pair / 2, tb = pair % 2;
            char defines[512], label[64];
            rung_params_defines(r, sets[0], defines, sizeof defines);
            snprintf(label, sizeof label, "%s %c%c", precision ? "double" : "float",
                     ta ? 'T' : 'N', tb ? 'T' : 'N');
            const size_t used = strlen(defines);
            snprintf(defines + used, sizeof defines - used, " -DTRANS_A=%d -DTRANS_B=%d%s", ta,
                     tb, precision ? DOUBLE_OPTION : "");
            failures += compile_one(dir, file, label, defines);
            (*compiled)++;
        }
    }
    return failures;
}

int main(void)
{
    const char *dir = kernel_dir();
    printf("compiling the CUDA rungs in %s for %s with NVRTC\n", dir, TEST_ARCH);

    int count = 0, compiled = 0, failures = 0, kernel_rungs = 0;
    int double_rungs = 0, blas_rungs = 0;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++) {
        if (all[i].kind != RUNG_KERNEL)
            continue;
        kernel_rungs++;
        failures += check_rung(&all[i], dir, &compiled);
        if (all[i].takes_double) {
            failures += check_double(&all[i], dir, &compiled);
            double_rungs++;
        }
        if (all[i].blas_args) {
            failures += check_transposes(&all[i], dir, &compiled);
            blas_rungs++;
        }
    }
    failures += compile_one(dir, "helpers.cu", "helpers", "");
    failures += compile_one(dir, "helpers.cu", "helpers", DOUBLE_OPTION + 1);
    compiled += 2;

    if (kernel_rungs == 0) {
        printf("FAIL the registry lists no kernel rungs\n");
        failures++;
    }
    printf("%s: %d compiles of %d rungs (%d in double, %d BLAS calls with every transpose "
           "pair) and helpers.cu for %s, %d failed\n",
           failures ? "FAILED" : "PASSED", compiled, kernel_rungs, double_rungs, blas_rungs,
           TEST_ARCH, failures);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
