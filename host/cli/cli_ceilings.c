/* ladder ceilings: measure a device's FMA ceilings (float, double) and read bandwidth, the
 * limits a roofline is drawn against, and print them or keep them in a ceilings file.
 * This file parses and checks the options and prints; the probes are core/ceilings.c, the
 * file report/ceilings_file.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/ceilings.h"
#include "core/targets.h"
#include "report/ceilings_file.h"
#include "ladder_version.h"

#define DEFAULT_REPS 20
#define DEFAULT_MAX_SECONDS 1.0
#define MIN_BYTES (64 << 10)

static void ceilings_help(void)
{
    printf(
        "usage: ladder ceilings [options]\n"
        "\n"
        "Measures three limits of one device with probe kernels of their own\n"
        "(kernels-opencl/ceilings/, kernels-cuda/ceilings/: their comments say how and\n"
        "why), compiled at run time and timed as ladder run times a rung (a warm-up, then\n"
        "repetitions timed by the device, the median the figure), each checked on the host:\n"
        "  FP32 FMA ceiling  GFLOPS of independent fused multiply-add chains in registers\n"
        "  FP64 FMA ceiling  the same in double (\"not supported\" on a device without it)\n"
        "  read bandwidth    GB/s (10^9 bytes per second) of a streaming read of a buffer\n"
        "                    far larger than the caches\n"
        "It prints them; --output keeps them in a ceilings file, which ladder plot\n"
        "--ceilings draws rooflines against (plots/README.md).\n"
        "\n"
        "options:\n"
        "  --backend B     opencl or cuda (needed when both are available)\n"
        "  --device D      as for ladder run (default: the backend's best device)\n"
        "  --bytes N       the read probe's buffer, in bytes or with K, M or G (binary:\n"
        "                  1G = 2^30), a multiple of 16 from 64K to 16G (default 1G on a\n"
        "                  GPU, 2G on a CPU, at most the device's largest buffer and half\n"
        "                  its memory)\n"
        "  --reps N        timed repetitions of each probe, at most (default %d)\n"
        "  --max-time S    stop repeating a probe after S seconds, never before three\n"
        "                  (default %.1f)\n"
        "  --output FILE   write the figures into this ceilings file: the line of this\n"
        "                  device (its name exactly) is replaced, other lines are kept, a\n"
        "                  new device is added; a missing file is made with its header; a\n"
        "                  file that is not a ceilings file is refused (alias: --out)\n"
        "  --force         write FILE anew, whatever it holds: the header and this line\n"
        "\n"
        "examples:\n"
        "  ladder ceilings --backend cuda --output ceilings.tsv\n"
        "  ladder ceilings --backend opencl --device cpu --bytes 256M\n",
        DEFAULT_REPS, DEFAULT_MAX_SECONDS);
}

typedef struct {
    const char *backend, *device;
    size_t bytes; /* 0: the device's default */
    cli_output output;
    long reps, seed;
    double max_seconds;
} ceilings_options;

/* "1073741824", "512M", "1G", "64k" into *bytes: 0, or EXIT_USAGE after printing why. */
static int parse_bytes(const char *text, size_t *bytes)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (end == text || text[0] == '-' || errno || (shift ? end[1] != '\0' : *end != '\0'))
        return cli_usage_error("ceilings", "--bytes '%s': give a number of bytes, or one "
                               "with K, M or G (1G = 2^30 bytes)", text);
    if (v > CEILINGS_MAX_BYTES >> shift || v << shift > CEILINGS_MAX_BYTES)
        return cli_usage_error("ceilings", "--bytes '%s': at most 16G (the probe counts its "
                               "float4s with an int)", text);
    v <<= shift;
    if (v < MIN_BYTES)
        return cli_usage_error("ceilings", "--bytes '%s': at least 64K", text);
    if (v % 16 != 0)
        return cli_usage_error("ceilings", "--bytes '%s': a multiple of 16 bytes (the probe "
                               "reads float4s)", text);
    *bytes = (size_t)v;
    return 0;
}

static int parse_options(int argc, char **argv, ceilings_options *o)
{
    *o = (ceilings_options){.backend = "all", .reps = DEFAULT_REPS, .seed = -1,
                            .max_seconds = DEFAULT_MAX_SECONDS};
    static const char *const output_names[] = {"--output", "--out", NULL};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int got;
        if (cli_is_help(argv[i])) {
            ceilings_help();
            return 1;
        }
        CLI_OPTION("--backend", (o->backend = v, 0))
        CLI_OPTION("--device", (o->device = v, 0))
        CLI_OPTION("--bytes", parse_bytes(v, &o->bytes))
        CLI_TAKEN(cli_output_option(argc, argv, &i, output_names, &o->output))
        CLI_TAKEN(cli_timing_option("ceilings", argc, argv, &i, &o->reps, &o->seed,
                                    &o->max_seconds))
        return cli_usage_error("ceilings", "unknown option '%s' (see ladder ceilings --help)",
                               argv[i]);
    }
    if (o->seed >= 0)
        return cli_usage_error("ceilings", "--seed: the probes have no random inputs");
    if (o->output.append)
        return cli_usage_error("ceilings", "--append: the file's line for this device is "
                               "replaced, not added to; leave --append out");
    if (o->output.force && !o->output.path)
        return cli_usage_error("ceilings", "--force replaces the --output file: give one");
    return 0;
}

/* The output file can be written and, unless --force, is a ceilings file: 0, or
 * EXIT_USAGE after printing why. Checked before anything is measured. */
static int check_output(const cli_output *out)
{
    char msg[LADDER_MSG];
    int exists = 0;
    if (results_check_path(out->path, RESULTS_OVERWRITE, "--output", &exists, msg) !=
        LADDER_OK)
        return cli_usage_error("ceilings", "%s", msg);
    if (!exists || out->force)
        return 0;
    ceilings_entry *entries = NULL;
    int count = 0, found = 0;
    ladder_status st = ceilings_file_read(out->path, &entries, &count, &found, msg);
    free(entries);
    if (st != LADDER_OK)
        return cli_usage_error("ceilings", "--output %s is not a ceilings file (%s): choose "
                               "another file, or add --force to replace it", out->path, msg);
    return 0;
}

/* The read probe's buffer, checked against the device: 0, or EXIT_USAGE after printing
 * why. */
static int choose_bytes(const device_info *d, size_t asked, size_t *bytes)
{
    if (!asked) {
        *bytes = ceilings_default_bytes(d);
        if (*bytes < MIN_BYTES)
            return cli_usage_error("ceilings", "%s allows buffers of %zu bytes at most: too "
                                   "small for the read probe", d->name, d->max_alloc_bytes);
        return 0;
    }
    if (asked > d->max_alloc_bytes || asked > d->global_mem_bytes / 2)
        return cli_usage_error("ceilings", "--bytes %zu: %s allows buffers of at most %.0f MiB "
                               "and has %.0f MiB of memory (half of it at most)", asked,
                               d->name, (double)d->max_alloc_bytes / 1048576.0,
                               (double)d->global_mem_bytes / 1048576.0);
    *bytes = asked;
    return 0;
}

/* One line of the table: the figure, how it was timed, and `extra`. */
static void print_figure(const char *what, const char *unit, const ceiling_figure *f,
                         const char *extra)
{
    if (f->status != LADDER_OK)
        printf("  %-17s not supported: %s\n", what, f->why);
    else
        printf("  %-17s %9.1f %-7s %s median of %d runs of %.2f ms (%.2f-%.2f)\n", what,
               f->value, unit, extra, f->timing.reps, f->timing.median_ms, f->timing.min_ms,
               f->timing.max_ms);
    fflush(stdout);
}

/* The FMA probe in precision p, printed: 0, or 1 after printing why it failed. */
static int fma_line(const run_target *t, gemm_precision p, const ceilings_plan *plan,
                    ceiling_figure *f)
{
    char msg[LADDER_MSG], extra[96];
    if (ceiling_fma(t, p, plan, f, msg) != LADDER_OK) {
        fprintf(stderr, "ladder ceilings: %s\n", msg);
        return 1;
    }
    int n = snprintf(extra, sizeof extra, "%d chains,", f->chains);
    if (p == PRECISION_SINGLE && t->dev.fp32_peak_gflops > 0 && n > 0)
        snprintf(extra + n, sizeof extra - (size_t)n, " %.0f%% of the FP32 peak,",
                 100.0 * f->value / t->dev.fp32_peak_gflops);
    print_figure(p == PRECISION_SINGLE ? "FP32 FMA ceiling" : "FP64 FMA ceiling", "GFLOPS",
                 f, extra);
    return 0;
}

/* Measures the three figures on one open device, printing each as it comes: 0, or 1
 * after printing why one failed. */
static int measure_all(const run_target *t, const ceilings_plan *plan, ceiling_figure *fp32,
                       ceiling_figure *fp64, ceiling_figure *read)
{
    const device_info *d = &t->dev;
    printf("ceilings of %s:%d %s (%s)\n", d->backend, d->index, d->name, d->platform);
    fflush(stdout);
    if (fma_line(t, PRECISION_SINGLE, plan, fp32) || fma_line(t, PRECISION_DOUBLE, plan, fp64))
        return 1;
    char msg[LADDER_MSG], extra[64];
    if (ceiling_read(t, plan, read, msg) != LADDER_OK) {
        fprintf(stderr, "ladder ceilings: %s\n", msg);
        return 1;
    }
    snprintf(extra, sizeof extra, "%.0f MiB,", (double)plan->read_bytes / 1048576.0);
    print_figure("read bandwidth", "GB/s", read, extra);
    return 0;
}

static int write_entry(const char *path, int force, const run_target *t,
                       const ceiling_figure *fp32, const ceiling_figure *fp64,
                       const ceiling_figure *read)
{
    ceilings_entry e = {.fp32_fma_gflops = fp32->value, .read_gbps = read->value,
                        .fp64_fma_gflops = fp64->status == LADDER_OK ? fp64->value : 0};
    snprintf(e.device, sizeof e.device, "%s", t->dev.name);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(e.date, sizeof e.date, "%Y-%m-%d", &utc);
    snprintf(e.source, sizeof e.source, "ladder ceilings %s on %s", LADDER_VERSION,
             t->dev.backend);
    char msg[LADDER_MSG];
    if (ceilings_file_update(path, &e, force, msg) != LADDER_OK) {
        fprintf(stderr, "ladder ceilings: %s\n", msg);
        return 1;
    }
    printf("wrote %s\n", path);
    return 0;
}

int cmd_ceilings(int argc, char **argv)
{
    ceilings_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (o.output.path && (rc = check_output(&o.output)) != 0)
        return rc;
    run_target *targets = NULL;
    int ntargets = 0;
    rc = cli_open_device("ceilings", o.backend, o.device, NULL, NULL, NULL, &targets,
                         &ntargets, NULL, NULL);
    ceilings_plan plan = {.reps = (int)o.reps, .max_seconds = o.max_seconds};
    if (rc == 0)
        rc = choose_bytes(&targets[0].dev, o.bytes, &plan.read_bytes);
    if (rc == 0) {
        ceiling_figure fp32, fp64, read;
        rc = measure_all(&targets[0], &plan, &fp32, &fp64, &read);
        if (rc == 0 && o.output.path)
            rc = write_entry(o.output.path, o.output.force, &targets[0], &fp32, &fp64, &read);
    }
    targets_close(targets, ntargets);
    return rc;
}
