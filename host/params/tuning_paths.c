#include "params/tuning_paths.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *tuning_committed_dir(void)
{
    const char *env = getenv("LADDER_TUNING_DIR");
    return env && *env ? env : LADDER_SOURCE_DIR "/tuning";
}

ladder_status tuning_user_path(char *out, size_t size, char *msg)
{
    const char *env = getenv("LADDER_TUNING_DB");
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (env && *env)
        snprintf(out, size, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, size, "%s/gemm-ladder/tuning.tsv", xdg);
    else if (home && *home)
        snprintf(out, size, "%s/.config/gemm-ladder/tuning.tsv", home);
    else
        return ladder_fail(msg, LADDER_ERROR, "no place for the tuning database: set "
                           "LADDER_TUNING_DB or HOME, or give --db FILE");
    return LADDER_OK;
}

void selection_committed_dir(char *out, size_t size)
{
    snprintf(out, size, "%s/selection", tuning_committed_dir());
}

ladder_status selection_user_path(char *out, size_t size, char *msg)
{
    const char *env = getenv("LADDER_SELECTION_DB");
    if (env && *env) {
        snprintf(out, size, "%s", env);
        return LADDER_OK;
    }
    char tuning[4096];
    if (tuning_user_path(tuning, sizeof tuning, msg) != LADDER_OK)
        return LADDER_ERROR;
    const char *slash = strrchr(tuning, '/');
    if (slash)
        snprintf(out, size, "%.*s/selection.tsv", (int)(slash - tuning), tuning);
    else
        snprintf(out, size, "selection.tsv");
    return LADDER_OK;
}

/* Reads one file; a problem is a warning, and the file's entries are not used. */
static void read_or_warn(tuning_db *db, const char *path, const char *who)
{
    char msg[LADDER_MSG];
    int found;
    if (tuning_db_read(db, path, &found, msg) != LADDER_OK)
        fprintf(stderr, "%s: warning: tuning database %s; its entries are not used (the "
                        "defaults are)\n", who, msg);
}

static int is_tsv(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return d->d_name[0] != '.' && n > 4 && strcmp(d->d_name + n - 4, ".tsv") == 0;
}

/* Reads one selection table; a problem is a warning, and the table's entries are not
 * used: the shape-aware entry falls back to its rule where no other table has a shape. */
static void read_selection_or_warn(tuning_db *db, const char *path, const char *who)
{
    char msg[LADDER_MSG];
    int found;
    if (selection_table_read(&db->selection, path, &found, msg) != LADDER_OK)
        fprintf(stderr, "%s: warning: selection table %s; its entries are not used (auto "
                        "falls back to its rule)\n", who, msg);
}

/* Calls `read` on every *.tsv file of `dir`, in name order (the same everywhere). */
static void read_folder(tuning_db *db, const char *dir, const char *who,
                        void (*read)(tuning_db *, const char *, const char *))
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, is_tsv, alphasort);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        read(db, path, who);
        free(names[i]);
    }
    free(names);
}

ladder_status tuning_load_for_run(tuning_db *db, const char *explicit_path, const char *who,
                                  char *msg)
{
    if (explicit_path) {
        int found;
        if (tuning_db_read(db, explicit_path, &found, msg) != LADDER_OK) {
            fprintf(stderr, "%s: warning: tuning database %s; its entries are not used (the "
                            "defaults are)\n", who, msg);
            return LADDER_OK;
        }
        if (!found)
            return ladder_fail(msg, LADDER_ERROR, "--db %s: no such file", explicit_path);
        return LADDER_OK;
    }
    read_folder(db, tuning_committed_dir(), who, read_or_warn);
    char user[4096];
    if (tuning_user_path(user, sizeof user, msg) == LADDER_OK)
        read_or_warn(db, user, who);
    char dir[4096];
    selection_committed_dir(dir, sizeof dir);
    read_folder(db, dir, who, read_selection_or_warn);
    if (selection_user_path(user, sizeof user, msg) == LADDER_OK)
        read_selection_or_warn(db, user, who);
    return LADDER_OK;
}

void tuning_slug(const char *name, char *out, size_t size)
{
    size_t n = 0;
    int dash = 0;
    for (const char *p = name; *p && n + 2 < size; p++) {
        if (isalnum((unsigned char)*p)) {
            if (dash && n > 0)
                out[n++] = '-';
            out[n++] = (char)tolower((unsigned char)*p);
            dash = 0;
        } else {
            dash = 1;
        }
    }
    out[n] = '\0';
    if (n == 0)
        snprintf(out, size, "device");
}
