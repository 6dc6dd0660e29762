/* The `ladder` subcommands. Each returns the process exit status:
 * 0 success, 1 the work failed (a FAILED verification, an error row, a figure not drawn,
 * no row that matches), 2 bad usage (nothing was done), 128 + the signal's number when
 * stopped by a signal (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; the rows so far are kept). */
#ifndef LADDER_CLI_H
#define LADDER_CLI_H

#include "core/runner.h"
#include "base/sizes.h"

#define EXIT_USAGE 2

int cmd_ceilings(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_lineage(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_select(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_tune(int argc, char **argv);

/* Option helper: if argv[*i] is `--name VALUE` or `--name=VALUE`, stores VALUE, advances
 * *i past it and returns 1; returns -1 (with a message printed) when the value is
 * missing; 0 when argv[*i] is another option. */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);

/* In a loop over argv with index `i`: when argv[i] is the option `name` (as cli_option
 * reads it), evaluates `parse`, an expression on its value `v` that is 0, or EXIT_USAGE
 * after printing why, and goes on with the next argument; returns EXIT_USAGE from the
 * enclosing function for a missing value or a refused one. Needs `const char *v` and
 * `int got` in scope. */
#define CLI_OPTION(name, parse)                                    \
        if ((got = cli_option(argc, argv, &i, name, &v)) != 0) {   \
            if (got < 0 || (parse) != 0)                           \
                return EXIT_USAGE;                                 \
            continue;                                              \
        }

/* In the same loop: `call` is one of the option helpers below that return 1 when they
 * took argv[i] (with its value), 0 when it is another option and EXIT_USAGE for a bad
 * value; goes on with the next argument when it took it, returns EXIT_USAGE from the
 * enclosing function for a bad value. Needs `int got` in scope. */
#define CLI_TAKEN(call)                                            \
        if ((got = (call)) != 0) {                                 \
            if (got != 1)                                          \
                return got;                                        \
            continue;                                              \
        }

/* 1 when `arg` asks for help: --help or -h. */
int cli_is_help(const char *arg);

/* What an argument of a subcommand that reads files after its options (plot, table) is. */
typedef enum {
    CLI_ARG_FILE,   /* a file name, now stored in files[(*nfiles)++]; or `--`, after which
                       every argument is one (*only_files is set) */
    CLI_ARG_HELP,   /* --help or -h */
    CLI_ARG_OPTION, /* anything else starting with '-' */
} cli_argument;

cli_argument cli_file_argument(const char *arg, int *only_files, char **files, int *nfiles);

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

/* --precision, --trans or --case-layout of table and plot (`option`): a word of that case
 * column, checked as ladder run checks it, into its field of *f. 0, or EXIT_USAGE after
 * printing why. */
int cli_case_filter_option(const char *cmd, const char *option, const char *value,
                           results_case_filter *f);

/* --param [RUNG:]NAME=VALUE into *ov: 0, or EXIT_USAGE after printing why. */
int cli_parse_param(const char *cmd, const char *spec, param_override *ov);

/* For the commands that measure on one device (tune, select, ceilings): parses `sizes`
 * (NULL: the default for the device's kind, `gpu_sizes` or `cpu_sizes`; all three NULL:
 * none, and `out` is left alone) into *out and opens the one device that `backend` and
 * `device` name. 0, or EXIT_USAGE after printing why; the caller closes what was opened
 * either way. */
int cli_open_device(const char *cmd, const char *backend, const char *device,
                    const char *sizes, const char *gpu_sizes, const char *cpu_sizes,
                    run_target **targets, int *ntargets, gemm_size **out, int *nout);

/* Every size must fit every device target (A, B and C of `elem`-byte elements in its
 * memory, each matrix in one buffer): 0, or EXIT_USAGE after printing which does not. */
int cli_check_memory(const char *cmd, const run_target *targets, int ntargets,
                     const gemm_size *sizes, int nsizes, size_t elem);

/* The file a command writes: --output FILE (alias --out; tune also calls it --candidates)
 * and what to do when it exists: --force replaces it, --append adds rows to it. */
typedef struct {
    const char *path; /* NULL: the command's default name */
    int force, append;
} cli_output;

/* Returns 1 when argv[*i] was one of the output options (stored in *out), 0 when it was
 * another option, EXIT_USAGE when its value is missing. `names` lists the spellings of
 * the file option, NULL-terminated, the preferred first. */
int cli_output_option(int argc, char **argv, int *i, const char *const *names, cli_output *out);

/* The mode the options ask for: 0, or EXIT_USAGE when both --force and --append are given. */
int cli_output_mode(const char *cmd, const cli_output *out, results_mode *mode);

/* on = 1: Ctrl-C, SIGTERM and SIGHUP set runner_interrupted (to the signal's number), so
 * the command stops after what is in flight and keeps what it has (a second signal ends
 * it at once); SIGHUP ignored at start stays ignored (nohup). on = 0: the defaults. */
void cli_catch_interrupts(int on);

/* After an interruption: the exit status (128 + the signal) and what happened, in words
 * ("stopped by SIGTERM"). */
int cli_interrupted_status(void);
const char *cli_interruption(void);

#endif
