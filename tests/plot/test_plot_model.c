/* Unit test of the plot model: grouping, references and sizes, on the committed fixtures.
 * Usage: test_plot_model FIXTURES_DIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_figure.h"
#include "report/plot_model.h"

/* Every case: the fixtures are single NN column-major rows. */
static const results_case_filter any_case = {NULL, NULL, NULL};

static int failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static void test_slug(void)
{
    char slug[96];
    plot_slug("NVIDIA H100 80GB HBM3", slug, sizeof slug);
    CHECK(strcmp(slug, "nvidia-h100-80gb-hbm3") == 0);
    plot_slug("  cpu-haswell-AMD EPYC (R) ", slug, sizeof slug);
    CHECK(strcmp(slug, "cpu-haswell-amd-epyc-r") == 0);
    plot_slug("???", slug, sizeof slug);
    CHECK(strcmp(slug, "device") == 0);
}

static void test_format(void)
{
    char s[32];
    plot_format_gflops(51400.0, s, sizeof s);
    CHECK(strcmp(s, "51,400") == 0);
    plot_format_gflops(1234567.0, s, sizeof s);
    CHECK(strcmp(s, "1,234,567") == 0);
    plot_format_gflops(999.7, s, sizeof s);
    CHECK(strcmp(s, "1,000") == 0);
    plot_format_gflops(12.5, s, sizeof s);
    CHECK(strcmp(s, "12.5") == 0);
}

static int group_of(const plot_model *m, const char *device, const char *backend)
{
    for (int g = 0; g < m->ngroups; g++)
        if (strcmp(m->devices[m->groups[g].device].name, device) == 0 &&
            strcmp(m->groups[g].backend, backend) == 0)
            return g;
    return -1;
}

static void test_model(const char *dir)
{
    char gpu[1024], cpu[1024], msg[LADDER_MSG];
    snprintf(gpu, sizeof gpu, "%s/gpu-a-cuda-opencl.csv", dir);
    snprintf(cpu, sizeof cpu, "%s/cpu-pocl.csv", dir);
    char *paths[] = {gpu, cpu};
    plot_model m;
    if (plot_model_load(&m, paths, 2, &any_case, msg) != LADDER_OK) {
        fprintf(stderr, "load failed: %s\n", msg);
        failures++;
        return;
    }
    CHECK(m.ndevices == 2);
    CHECK(m.ngroups == 3);
    int cuda = group_of(&m, "Fixture GPU A", "cuda");
    int opencl = group_of(&m, "Fixture GPU A", "opencl");
    int pocl = group_of(&m, "cpu-fixture-Fixture CPU 16-Core", "opencl");
    CHECK(cuda >= 0 && opencl >= 0 && pocl >= 0);
    if (cuda < 0 || opencl < 0 || pocl < 0)
        goto done;

    /* The peak known from the CUDA rows is the device's, for OpenCL too. */
    CHECK(m.devices[m.groups[opencl].device].peak_gflops == 66900.0);
    CHECK(m.devices[m.groups[pocl].device].peak_gflops == 0.0);

    /* Each backend's own library is its reference; the CPU's is the host BLAS. */
    plot_baseline ref;
    CHECK(plot_group_reference(&m, cuda, &ref) == 0 && strcmp(ref.name, "cublas") == 0);
    CHECK(plot_group_reference(&m, opencl, &ref) == 0 && strcmp(ref.name, "clblast") == 0);
    CHECK(plot_group_reference(&m, pocl, &ref) == 0 && strcmp(ref.name, "cpu") == 0 &&
          strcmp(ref.backend, "cpu") == 0);
    CHECK(plot_baseline_gflops(&m, &ref, 1024) > 0.0);

    /* The GPU's figures show both of its libraries, and not the CPU's. */
    plot_baseline *libs = NULL;
    int n = plot_device_baselines(&m, m.groups[cuda].device, &libs);
    CHECK(n == 2);
    for (int i = 0; i < n; i++)
        CHECK(strcmp(libs[i].backend, "cpu") != 0);
    free(libs);

    /* Sizes: 1000 only for rung 10; the non-square row is left out. */
    long *sizes = NULL;
    n = plot_group_sizes(&m, cuda, &sizes);
    CHECK(n == 6 && sizes[0] == 256 && sizes[2] == 1000 && sizes[5] == 4096);
    free(sizes);
    CHECK(plot_gflops(&m, "Fixture GPU A", "cuda", 4, NULL, 2048) > 0.0);

    /* Unsupported and FAILED rows are not drawn. */
    CHECK(plot_gflops(&m, "Fixture GPU A", "opencl", 8, NULL, 4096) == PLOT_MISSING);
    CHECK(plot_gflops(&m, "cpu-fixture-Fixture CPU 16-Core", "opencl", 3, NULL, 512) > 0.0);
    int *rungs = NULL;
    n = plot_group_rungs(&m, opencl, &rungs);
    CHECK(n == 9);
    for (int i = 0; i < n; i++)
        CHECK(rungs[i] != 8);
    free(rungs);
    CHECK(strcmp(plot_rung_name(&m, 6), "register-2d") == 0);

    /* The one-size charts: 4096 where measured, else the largest; an explicit size only
     * where it was measured. */
    CHECK(plot_device_size(&m, m.groups[cuda].device, 0) == 4096);
    CHECK(plot_device_size(&m, m.groups[pocl].device, 0) == 1024);
    CHECK(plot_device_size(&m, m.groups[cuda].device, 1024) == 1024);
    CHECK(plot_device_size(&m, m.groups[pocl].device, 4096) == 0);

    /* User peaks. */
    CHECK(plot_model_set_peak(&m, "fixture cpu=1234.5", msg) == LADDER_OK);
    CHECK(m.devices[m.groups[pocl].device].peak_gflops == 1234.5);
    CHECK(m.devices[m.groups[pocl].device].peak_from_user == 1);
    CHECK(plot_model_set_peak(&m, "no such device=10", msg) == LADDER_ERROR);
    CHECK(plot_model_set_peak(&m, "GPU A=-3", msg) == LADDER_ERROR);
    CHECK(plot_model_set_peak(&m, "GPU A", msg) == LADDER_ERROR);

done:
    plot_model_free(&m);
}

/* A later file's measurement of the same thing replaces the earlier one. */
static void test_later_file_wins(const char *dir)
{
    char gpu[1024], msg[LADDER_MSG];
    snprintf(gpu, sizeof gpu, "%s/gpu-b-opencl.csv", dir);
    char *paths[] = {gpu, gpu};
    plot_model m;
    CHECK(plot_model_load(&m, paths, 2, &any_case, msg) == LADDER_OK);
    CHECK(m.ngroups == 1);
    CHECK(m.nrows == 15);
    plot_model_free(&m);
}

/* The step figure's base is the parent, not the rung numbered before: rung 17 changes
 * rung 9's kernel, 16 and 15 branch off 15 and 12; a parent that was not measured gives
 * way to the nearest ancestor that was. Rows filled here, numbers invented. */
static void test_step_base(void)
{
    const int numbers[] = {9, 12, 15, 16, 17, 18};
    const int count = (int)(sizeof numbers / sizeof numbers[0]);
    plot_model m;
    char msg[LADDER_MSG];
    memset(&m, 0, sizeof m);
    m.rows = calloc((size_t)count, sizeof *m.rows);
    if (!m.rows) {
        CHECK(0);
        return;
    }
    for (int i = 0; i < count; i++) {
        result_row *r = &m.rows[i];
        snprintf(r->device, sizeof r->device, "Fixture GPU");
        snprintf(r->backend, sizeof r->backend, "cuda");
        snprintf(r->rung_name, sizeof r->rung_name, "r%d", numbers[i]);
        snprintf(r->status, sizeof r->status, "ok");
        r->rung = numbers[i];
        r->M = r->N = r->K = 4096;
        r->gflops = 1000.0 * numbers[i];
    }
    m.nrows = count;
    CHECK(plot_model_index(&m, msg) == LADDER_OK && m.ngroups == 1);
    if (m.ngroups == 1) {
        CHECK(plot_step_base(&m, 0, 17, 4096) == 9);  /* a branch: not 16 */
        CHECK(plot_step_base(&m, 0, 18, 4096) == 17);
        CHECK(plot_step_base(&m, 0, 16, 4096) == 15);
        CHECK(plot_step_base(&m, 0, 15, 4096) == 12);
        CHECK(plot_step_base(&m, 0, 12, 4096) == 9);  /* 11 and 10 not measured */
        CHECK(plot_step_base(&m, 0, 9, 4096) == 0);   /* no ancestor measured */
        CHECK(plot_step_base(&m, 0, 17, 1024) == 0);  /* nothing at that size */
    }
    plot_model_free(&m);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_plot_model FIXTURES_DIR\n");
        return 2;
    }
    test_slug();
    test_format();
    test_model(argv[1]);
    test_later_file_wins(argv[1]);
    test_step_base();
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    else
        printf("plot model: all checks passed\n");
    return failures ? 1 : 0;
}
