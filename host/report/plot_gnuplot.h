/* Talking to gnuplot: finding it, running a script, writing values in its language, and
 * checking that what it drew is a real picture.
 */
#ifndef LADDER_PLOT_GNUPLOT_H
#define LADDER_PLOT_GNUPLOT_H

#include <stdio.h>
#include "base/status.h"

/* The gnuplot program: $LADDER_GNUPLOT if set, else "gnuplot" on the PATH. */
const char *gnuplot_program(void);

/* Runs `gnuplot --version`; LADDER_ERROR with install advice when it cannot. */
ladder_status gnuplot_check(char *msg);

/* The folder of the committed gnuplot scripts (plots/ in the source tree, or
 * $LADDER_PLOTS_DIR); LADDER_ERROR if style.gp is not there. */
ladder_status gnuplot_scripts_dir(char *dir, size_t size, char *msg);

/* Runs gnuplot on `script`, its output going to `log_path`. On failure msg holds gnuplot's
 * last error line. */
ladder_status gnuplot_run(const char *script, const char *log_path, char *msg);

/* Writes `s` as a gnuplot string literal: single quotes, with a ' doubled. */
void gnuplot_quote(FILE *f, const char *s);

/* `name = 'value'` and `name = number` lines of a generated script. */
void gnuplot_set_string(FILE *f, const char *name, const char *value);
void gnuplot_set_number(FILE *f, const char *name, double value);

/* Checks that a file gnuplot wrote is a complete picture of its format ("png", "svg"):
 * not empty, the PNG signature, or an SVG that opens and closes. */
ladder_status picture_check(const char *path, const char *format, char *msg);

#endif
