/* Where the tuning databases live, and which ones `ladder run` reads.
 *
 * ladder run reads, in this order, later entries winning for the same key:
 *   1. the committed databases: every *.tsv file in $LADDER_TUNING_DIR, else in the
 *      source tree's tuning/ folder (measured on real hardware, in git, like results/);
 *   2. the user's database: $LADDER_TUNING_DB, else $XDG_CONFIG_HOME/gemm-ladder/
 *      tuning.tsv, else ~/.config/gemm-ladder/tuning.tsv (what ladder tune wrote here).
 * With --db FILE it reads that file only. ladder tune updates the user's database, or
 * the --db file.
 *
 * The selection tables of the shape-aware entry (params/selection_table.h) live beside
 * them: every *.tsv file in the committed folder's selection/ subfolder, then the user's
 * table, $LADDER_SELECTION_DB, else selection.tsv in the folder of the user's database.
 * ladder run reads them too, except with --db FILE (that file alone) or --defaults.
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

/* The folder of committed selection tables: <tuning_committed_dir()>/selection. */
void selection_committed_dir(char *out, size_t size);

/* The user's selection table (see above); LADDER_ERROR as tuning_user_path. */
ladder_status selection_user_path(char *out, size_t size, char *msg);

/* Reads the databases ladder run uses (see above). A corrupt or unreadable file is a
 * one-line warning on stderr, prefixed with `who` ("ladder run"), and its entries are not
 * used: the defaults are. Without `explicit_path`, also reads the selection tables into
 * db->selection, with the same warnings. LADDER_ERROR only when `explicit_path` (--db)
 * does not exist. */
ladder_status tuning_load_for_run(tuning_db *db, const char *explicit_path, const char *who,
                                  char *msg);

/* A file-name-friendly form of a device name: "NVIDIA H100 80GB HBM3" -> "nvidia-h100-
 * 80gb-hbm3" (lower case, runs of other characters become one '-'). */
void tuning_slug(const char *name, char *out, size_t size);

#endif
