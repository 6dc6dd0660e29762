/* The `ladder` subcommands. Each returns the process exit status:
 * 0 success, 1 a run had failures (FAILED verification or errors), 2 bad usage,
 * 130 interrupted. */
#ifndef LADDER_CLI_H
#define LADDER_CLI_H

#include "core/runner.h"
#include "base/sizes.h"

#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

int cmd_devices(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_select(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_tune(int argc, char **argv);

/* Option helper: if argv[*i] is `--name VALUE` or `--name=VALUE`, stores VALUE, advances
 * *i past it and returns 1; returns -1 (with a message printed) when the value is
 * missing; 0 when argv[*i] is another option. */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* Prints "ladder <cmd>: <message>" to stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A whole decimal integer in [lo, hi] into *out: 0, or -1 (nothing printed). */
int cli_parse_long(const char *s, long lo, long hi, long *out);

/* --reps, --seed and --max-time, which run and tune share. Returns 1 when argv[*i] was one
 * of them (its value stored), 0 when it was another option, EXIT_USAGE for a bad value. */
int cli_timing_option(const char *cmd, int argc, char **argv, int *i, long *reps, long *seed,
                      double *max_seconds);

/* --budget of tune and select: "120s", "2.5m", "1h" into *seconds, or "50" (candidates)
 * into *configs; the other is 0. 0, or EXIT_USAGE after printing why. */
int cli_parse_budget(const char *cmd, const char *text, long *configs, double *seconds);

/* --param [RUNG:]NAME=VALUE into *ov: 0, or EXIT_USAGE after printing why. */
int cli_parse_param(const char *cmd, const char *spec, param_override *ov);

/* For the commands that measure on one device (tune, select): parses `sizes` (NULL: the
 * default for the device's kind, `gpu_sizes` or `cpu_sizes`) into *out and opens the one
 * device that `backend` and `device` name. 0, or EXIT_USAGE after printing why; the
 * caller closes what was opened either way. */
int cli_open_device(const char *cmd, const char *backend, const char *device,
                    const char *sizes, const char *gpu_sizes, const char *cpu_sizes,
                    run_target **targets, int *ntargets, gemm_size **out, int *nout);

/* Every size must fit every device target (A, B and C in its memory, each matrix in one
 * buffer): 0, or EXIT_USAGE after printing which does not. */
int cli_check_memory(const char *cmd, const run_target *targets, int ntargets,
                     const gemm_size *sizes, int nsizes);

/* on = 1: Ctrl-C sets runner_interrupted, so the command stops after what is in flight
 * and keeps what it has (a second Ctrl-C ends it at once); on = 0: the default again. */
void cli_catch_interrupts(int on);

#endif
