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
    const char *dir = tuning_committed_dir();
    struct dirent **names = NULL;
    int n = scandir(dir, &names, is_tsv, alphasort); /* sorted: the same order everywhere */
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        read_or_warn(db, path, who);
        free(names[i]);
    }
    free(names);
    char user[4096];
    if (tuning_user_path(user, sizeof user, msg) == LADDER_OK)
        read_or_warn(db, user, who);
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
