#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "ladder: option %s needs a value\n", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

cli_argument cli_file_argument(const char *arg, int *only_files, char **files, int *nfiles)
{
    if (!*only_files && strcmp(arg, "--") == 0) {
        *only_files = 1;
        return CLI_ARG_FILE;
    }
    if (*only_files || arg[0] != '-' || arg[1] == '\0') {
        files[(*nfiles)++] = (char *)arg;
        return CLI_ARG_FILE;
    }
    if (cli_is_help(arg))
        return CLI_ARG_HELP;
    return CLI_ARG_OPTION;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ladder %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return EXIT_USAGE;
}

int cli_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_param(const char *cmd, const char *spec, param_override *ov)
{
    memset(ov, 0, sizeof *ov);
    const char *p = spec, *colon = strchr(spec, ':'), *eq = strchr(spec, '=');
    if (!eq)
        return cli_usage_error(cmd, "--param '%s': expected NAME=VALUE or RUNG:NAME=VALUE",
                               spec);
    if (colon && colon < eq) {
        char num[16];
        long r;
        snprintf(num, sizeof num, "%.*s", (int)(colon - spec), spec);
        if (cli_parse_long(num, 1, 1000, &r))
            return cli_usage_error(cmd, "--param '%s': '%s' is not a rung number", spec, num);
        ov->rung = (int)r;
        p = colon + 1;
    }
    size_t len = (size_t)(eq - p);
    if (len == 0 || len >= sizeof ov->name)
        return cli_usage_error(cmd, "--param '%s': bad parameter name", spec);
    memcpy(ov->name, p, len);
    long v;
    if (cli_parse_long(eq + 1, INT_MIN, INT_MAX, &v))
        return cli_usage_error(cmd, "--param '%s': '%s' is not an integer", spec, eq + 1);
    ov->value = (int)v;
    return 0;
}

int cli_check_memory(const char *cmd, const run_target *targets, int ntargets,
                     const gemm_size *sizes, int nsizes, size_t elem)
{
    for (int s = 0; s < nsizes; s++) {
        /* sizes_bytes counts floats; doubles take elem / 4 times that. */
        unsigned long long bytes = sizes_bytes(&sizes[s]) / 4 * elem;
        if (bytes == 0)
            return cli_usage_error(cmd, "size %ldx%ldx%ld: buffer sizes overflow size_t",
                                   sizes[s].M, sizes[s].N, sizes[s].K);
        for (int t = 0; t < ntargets; t++) {
            const device_info *d = &targets[t].dev;
            if (!targets[t].ops)
                continue;
            if (bytes > d->global_mem_bytes)
                return cli_usage_error(
                    cmd, "size %ldx%ldx%ld needs %.0f MiB for A, B and C; %s has %.0f MiB",
                    sizes[s].M, sizes[s].N, sizes[s].K, (double)bytes / 1048576.0, d->name,
                    (double)d->global_mem_bytes / 1048576.0);
            unsigned long long largest = (unsigned long long)sizes[s].M * sizes[s].K;
            if ((unsigned long long)sizes[s].K * sizes[s].N > largest)
                largest = (unsigned long long)sizes[s].K * sizes[s].N;
            if ((unsigned long long)sizes[s].M * sizes[s].N > largest)
                largest = (unsigned long long)sizes[s].M * sizes[s].N;
            if (largest * elem > d->max_alloc_bytes)
                return cli_usage_error(
                    cmd, "size %ldx%ldx%ld has a %.0f MiB matrix; %s allows buffers of at "
                    "most %.0f MiB", sizes[s].M, sizes[s].N, sizes[s].K,
                    (double)(largest * elem) / 1048576.0, d->name,
                    (double)d->max_alloc_bytes / 1048576.0);
        }
    }
    return 0;
}

int cli_output_option(int argc, char **argv, int *i, const char *const *names, cli_output *out)
{
    if (strcmp(argv[*i], "--force") == 0) {
        out->force = 1;
        return 1;
    }
    if (strcmp(argv[*i], "--append") == 0) {
        out->append = 1;
        return 1;
    }
    for (int k = 0; names[k]; k++) {
        int m = cli_option(argc, argv, i, names[k], &out->path);
        if (m != 0)
            return m < 0 ? EXIT_USAGE : 1;
    }
    return 0;
}

int cli_output_mode(const char *cmd, const cli_output *out, results_mode *mode)
{
    if (out->force && out->append)
        return cli_usage_error(cmd, "--force replaces the file and --append adds to it: "
                               "choose one");
    *mode = out->force ? RESULTS_OVERWRITE : out->append ? RESULTS_APPEND : RESULTS_NEW;
    return 0;
}

/* The signals that stop a run politely: Ctrl-C, `kill` (and timeout, systemd, batch
 * schedulers) and a closed terminal. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP_SIGNALS ((int)(sizeof stop_signals / sizeof stop_signals[0]))

static void on_interrupt(int sig)
{
    runner_interrupted = sig;
    signal(sig, SIG_DFL); /* a second one ends the program at once */
}

void cli_catch_interrupts(int on)
{
    for (int i = 0; i < NSTOP_SIGNALS; i++) {
        struct sigaction now;
        /* Under nohup a closed terminal must not stop the run: SIGHUP ignored when we
         * started stays ignored. (SIGINT is caught even then: a shell starts background
         * jobs with it ignored, and `kill -INT` should still stop them politely.) */
        if (stop_signals[i] == SIGHUP && sigaction(SIGHUP, NULL, &now) == 0 &&
            now.sa_handler == SIG_IGN)
            continue;
        signal(stop_signals[i], on ? on_interrupt : SIG_DFL);
    }
}

int cli_interrupted_status(void)
{
    return 128 + (int)runner_interrupted;
}

const char *cli_interruption(void)
{
    switch (runner_interrupted) {
    case SIGINT: return "interrupted (Ctrl-C)";
    case SIGTERM: return "stopped by SIGTERM";
    case SIGHUP: return "stopped by SIGHUP (the terminal closed)";
    }
    return "interrupted";
}

int cli_timing_option(const char *cmd, int argc, char **argv, int *i, long *reps, long *seed,
                      double *max_seconds)
{
    const char *v = NULL;
    int m;
    if ((m = cli_option(argc, argv, i, "--reps", &v)) != 0) {
        if (m < 0 || cli_parse_long(v, 1, 1000000, reps))
            return cli_usage_error(cmd, "--reps needs an integer from 1 to 1000000");
        return 1;
    }
    if ((m = cli_option(argc, argv, i, "--seed", &v)) != 0) {
        if (m < 0 || cli_parse_long(v, 0, LONG_MAX, seed))
            return cli_usage_error(cmd, "--seed needs a non-negative integer");
        return 1;
    }
    if ((m = cli_option(argc, argv, i, "--max-time", &v)) != 0) {
        char *end = NULL;
        double seconds = m > 0 ? strtod(v, &end) : -1;
        if (m < 0 || *end || !(seconds > 0 && seconds <= 3600))
            return cli_usage_error(cmd, "--max-time needs seconds in (0, 3600]");
        *max_seconds = seconds;
        return 1;
    }
    return 0;
}

int cli_parse_budget(const char *cmd, const char *text, long *configs, double *seconds)
{
    *configs = 0;
    *seconds = 0;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !(v > 0))
        return cli_usage_error(cmd, "--budget '%s': use seconds (120s), minutes (5m), "
                               "hours (1h) or a number of candidates (50)", text);
    if (strcmp(end, "s") == 0 || strcmp(end, "m") == 0 || strcmp(end, "h") == 0) {
        *seconds = v * (*end == 'h' ? 3600 : *end == 'm' ? 60 : 1);
        return 0;
    }
    long n;
    if (cli_parse_long(text, 1, 100000000, &n))
        return cli_usage_error(cmd, "--budget '%s': use seconds (120s), minutes (5m), "
                               "hours (1h) or a whole number of candidates (50)", text);
    *configs = n;
    return 0;
}

int cli_open_device(const char *cmd, const char *backend, const char *device,
                    const char *sizes, const char *gpu_sizes, const char *cpu_sizes,
                    run_target **targets, int *ntargets, gemm_size **out, int *nout)
{
    char msg[LADDER_MSG];
    if (sizes && sizes_parse(sizes, out, nout, msg) != LADDER_OK)
        return cli_usage_error(cmd, "%s", msg);
    if (targets_open(backend, device, 0, targets, ntargets, msg) != LADDER_OK)
        return cli_usage_error(cmd, "%s", msg);
    if (*ntargets > 1)
        return cli_usage_error(cmd, "one device at a time: add --backend opencl or --backend "
                               "cuda");
    const device_info *dev = &(*targets)[0].dev;
    if (!sizes && gpu_sizes && sizes_parse(dev->is_gpu ? gpu_sizes : cpu_sizes, out, nout, msg) != LADDER_OK)
        return cli_usage_error(cmd, "%s", msg);
    return 0;
}

int cli_case_filter_option(const char *cmd, const char *option, const char *value,
                           results_case_filter *f)
{
    gemm_case c;
    char msg[LADDER_MSG];
    ladder_status st;
    if (strcmp(option, "--precision") == 0) {
        st = gemm_parse_precision(value, &c.precision, msg);
        f->precision = value;
    } else if (strcmp(option, "--trans") == 0) {
        st = gemm_parse_trans(value, &c.trans_a, &c.trans_b, msg);
        f->trans = value;
    } else {
        st = gemm_parse_layout(value, &c.layout, msg);
        f->layout = value;
    }
    return st == LADDER_OK ? 0 : cli_usage_error(cmd, "%s", msg);
}
