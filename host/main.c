/* ladder: the gemm-ladder command. Subcommands: devices, ceilings, list, diff, lineage, run,
 * tune, select, plot, table, schema. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "ladder_version.h"

static void usage(FILE *out)
{
    fprintf(out,
            "ladder %s: a ladder of SGEMM kernels in OpenCL and CUDA, verified and timed\n"
            "\n"
            "usage: ladder <command> [options]   (ladder <command> --help for its options)\n"
            "\n"
            "commands:\n"
            "  devices   list every OpenCL and CUDA device and what a benchmark needs to know\n"
            "  ceilings  measure a device's FMA ceilings and read bandwidth (for rooflines)\n"
            "  list      list the rungs and baselines: ideas, parents, parameters, sizes\n"
            "  diff      what a rung changes in its parent's kernel, comments left out\n"
            "  lineage   the ladder's shape: which rung changes which (text or a figure)\n"
            "  run       run rungs on devices, verify every result, time it, write a CSV file\n"
            "  tune      search a rung's parameters on a device; ladder run uses the best\n"
            "  select    profile the shape-aware entry (--rungs auto) over a shape set\n"
            "  plot      draw figures from result files with gnuplot\n"
            "  table     print Markdown tables of result files (for the tutorial)\n"
            "  schema    print the columns of a result file and what each one means\n",
            LADDER_VERSION);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "ladder: no command given (commands: devices, ceilings, list, diff, "
                        "lineage, run, tune, select, plot, table, schema; see ladder --help)\n");
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("ladder %s\n", LADDER_VERSION);
        return 0;
    }
    if (strcmp(cmd, "devices") == 0)
        return cmd_devices(argc - 1, argv + 1);
    if (strcmp(cmd, "ceilings") == 0)
        return cmd_ceilings(argc - 1, argv + 1);
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(cmd, "diff") == 0)
        return cmd_diff(argc - 1, argv + 1);
    if (strcmp(cmd, "lineage") == 0)
        return cmd_lineage(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "tune") == 0)
        return cmd_tune(argc - 1, argv + 1);
    if (strcmp(cmd, "select") == 0)
        return cmd_select(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return cmd_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "table") == 0)
        return cmd_table(argc - 1, argv + 1);
    if (strcmp(cmd, "schema") == 0)
        return cmd_schema(argc - 1, argv + 1);
    fprintf(stderr, "ladder: unknown command '%s' (commands: devices, ceilings, list, diff, "
                    "lineage, run, tune, select, plot, table, schema; see ladder --help)\n",
            cmd);
    return EXIT_USAGE;
}
