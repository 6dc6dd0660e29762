/* `ladder plot`: draws the figures of result files with gnuplot. */
#ifndef LADDER_PLOT_H
#define LADDER_PLOT_H

/* argv[0] is "plot"; the rest are options and result files. Returns the process exit
 * status: 0 when every figure was drawn, 1 on any error (each reported on one line). */
int cmd_plot(int argc, char **argv);

#endif
