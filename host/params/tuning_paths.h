/* Where the tuning databases live, and which ones `ladder run` reads.
 *
 * ladder run reads, in this order, later entries winning for the same key:
 *   1. the committed databases: every *.tsv file in $LADDER_TUNING_DIR, else in the
 *      source tree's tuning/ folder (measured on real hardware, in git, like results/);
 *   2. the user's database: $LADDER_TUNING_DB, else $XDG_CONFIG_HOME/gemm-ladder/
 *      tuning.tsv, else ~/.config/gemm-ladder/tuning.tsv (what ladder tune wrote here).
 * With --db FILE it reads that file only. ladder tune updates the user's database, or
 * the --db file.
 */
#ifndef LADDER_TUNING_PATHS_H
#define LADDER_TUNING_PATHS_H

#include <stddef.h>
#include "params/tuning_db.h"

/* The folder of committed databases. */
const char *tuning_committed_dir(void);

/* The user's database file. LADDER_ERROR when neither $LADDER_TUNING_DB,
 * $XDG_CONFIG_HOME nor $HOME says where it is. */
ladder_status tuning_user_path(char *out, size_t size, char *msg);

/* Reads the databases ladder run uses (see above). A corrupt or unreadable file is a
 * one-line warning on stderr, prefixed with `who` ("ladder run"), and its entries are not
 * used: the defaults are. LADDER_ERROR only when `explicit_path` (--db) does not exist. */
ladder_status tuning_load_for_run(tuning_db *db, const char *explicit_path, const char *who,
                                  char *msg);



/* A file-name-friendly form of a device name: "NVIDIA H100 80GB HBM3" -> "nvidia-h100-
 * 80gb-hbm3" (lower case, runs of other characters become one '-'). */
void tuning_slug(const char *name, char *out, size_t size);

#endif
