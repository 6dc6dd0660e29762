/* ladder lineage: the ladder's shape, which rung changes which (the registry's parents), as
 * text or, with --output, as the lineage figure (report/plot_fig_lineage.c). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/lineage.h"
#include "report/plot.h"
#include "report/plot_gnuplot.h"

static void usage(void)
{
    printf("usage: ladder lineage [--output DIR [--keep-data]]\n"
           "\n"
           "The ladder's shape: each rung and the rung whose kernel it changes, its parent\n"
           "(ladder diff N shows the change). After rung 10 the ladder branches, so the\n"
           "parent is not always the rung numbered before: 15 changes 12, 17 changes 9\n"
           "(and takes rung 13's pipeline), 19 and 20 change 15.\n"
           "\n"
           "Without options: one line per rung, the branches drawn as lanes ('*' the rung,\n"
           "'|' a branch passing by), its name and idea.\n"
           "  --output DIR   draw the figure instead: DIR/lineage.png and DIR/lineage.svg,\n"
           "                 with gnuplot (alias: --out); DIR is made when missing\n"
           "  --keep-data    keep the figure's data table and generated script, and say where\n"
           "\n"
           "Exit status: 0 printed or drawn; 1 the figure failed; 2 bad usage.\n");
}

int cmd_lineage(int argc, char **argv)
{
    plot_options o;
    memset(&o, 0, sizeof o);
    o.formats[0] = "png";
    o.formats[1] = "svg";
    o.nformats = 2;
    const char *v;
    int got;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return 0;
        }
        if (strcmp(argv[i], "--keep-data") == 0) {
            o.keep_data = 1;
            continue;
        }
        CLI_OPTION("--output", (o.out = v, 0))
        CLI_OPTION("--out", (o.out = v, 0))
        return cli_usage_error("lineage", "unknown argument %s (see ladder lineage --help)",
                               argv[i]);
    }
    if (o.out && !o.out[0])
        return cli_usage_error("lineage", "--output is empty: give a folder");
    if (o.keep_data && !o.out)
        return cli_usage_error("lineage", "--keep-data keeps the figure's data: give "
                                          "--output DIR too");
    if (!o.out) {
        lineage l;
        lineage_layout(&l);
        lineage_print(&l, stdout);
        return 0;
    }
    char msg[LADDER_MSG];
    if (gnuplot_check(msg) != LADDER_OK) {
        fprintf(stderr, "ladder lineage: %s\n", msg);
        return 1;
    }
    return plot_lineage_run(&o);
}
