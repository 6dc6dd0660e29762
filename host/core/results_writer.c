/* Result files: the writer, and what it accepts as an output path.
 *
 * Every problem with the path is found when the file is opened, before anything is
 * measured: an empty name, a folder, a folder above it that does not exist (never made
 * silently: a typo would grow a tree of folders), an existing file (kept unless the user
 * said --force or --append), a place that cannot be written. Rows go to "<path>.partial",
 * which is renamed to <path> when the run ends, so no reader ever sees a half-written
 * result file, and an existing file stays as it was until then.
 */
#include "core/results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct results_writer {
    FILE *file;
    char *path;
    char *partial;
    int damaged; /* a row could not be written nor cut back: never rename this file */
};

/* The folder that holds `path` ("." for a bare name) into `dir`. */
static void parent_folder(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, size, ".");
    else if (slash == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* The first line of an existing file equals this schema's header, and every row reads. */
static ladder_status check_appendable(const char *path, const char *option, char *msg)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ladder_fail(msg, LADDER_ERROR, "%s %s: cannot read it: %s", option, path,
                           strerror(errno));
    char first[1024] = "";
    int got = fgets(first, sizeof first, f) != NULL;
    fclose(f);
    first[strcspn(first, "\r\n")] = '\0';
    if (!got || strcmp(first, results_header()) != 0)
        return ladder_fail(msg, LADDER_ERROR,
                           "%s %s: --append adds rows only to a result file with the same "
                           "columns, and its first line is not this header (see ladder "
                           "schema --header): choose another %s", option, path, option);
    result_row *rows = NULL;
    int n = 0;
    char why[LADDER_MSG];
    ladder_status st = results_read(path, &rows, &n, why);
    free(rows);
    if (st != LADDER_OK)
        return ladder_fail(msg, LADDER_ERROR, "%s: --append refuses a damaged result file: %s",
                           option, why);
    return LADDER_OK;
}

ladder_status results_check_path(const char *path, results_mode mode, const char *option,
                                 int *exists, char *msg)
{
    *exists = 0;
    size_t len = strlen(path);
    if (len == 0)
        return ladder_fail(msg, LADDER_ERROR, "%s is empty: give a file name", option);
    struct stat st;
    if (path[len - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        return ladder_fail(msg, LADDER_ERROR,
                           "%s %s is a folder: give a file name, e.g. %s%sresults.csv", option,
                           path, path, path[len - 1] == '/' ? "" : "/");
    char dir[4096];
    parent_folder(path, dir, sizeof dir);
    if (stat(dir, &st) != 0 && errno == ENOENT)
        return ladder_fail(msg, LADDER_ERROR,
                           "folder %s does not exist: create it or choose another %s", dir,
                           option);
    if (stat(dir, &st) != 0)
        return ladder_fail(msg, LADDER_ERROR, "%s %s: folder %s: %s", option, path, dir,
                           strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return ladder_fail(msg, LADDER_ERROR, "%s %s: %s is not a folder", option, path, dir);
    if (stat(path, &st) != 0)
        return LADDER_OK;
    *exists = 1;
    /* A device or a pipe would be replaced by the rename at the end. */
    if (!S_ISREG(st.st_mode))
        return ladder_fail(msg, LADDER_ERROR, "%s %s is not a regular file: give a file name",
                           option, path);
    if (mode == RESULTS_NEW)
        return ladder_fail(msg, LADDER_ERROR,
                           "%s %s exists: add --force to replace it, --append to add rows to "
                           "it, or choose another %s", option, path, option);
    if (mode == RESULTS_APPEND)
        return check_appendable(path, option, msg);
    return LADDER_OK;
}

/* Copies the rows already in `path` into the partial file, ending with a newline. */
static ladder_status copy_existing(const char *path, FILE *to, const char *partial, char *msg)
{
    FILE *from = fopen(path, "r");
    if (!from)
        return ladder_fail(msg, LADDER_ERROR, "cannot read %s: %s", path, strerror(errno));
    char buf[8192];
    size_t n;
    int last = '\n';
    while ((n = fread(buf, 1, sizeof buf, from)) > 0) {
        if (fwrite(buf, 1, n, to) != n) {
            fclose(from);
            return ladder_fail(msg, LADDER_ERROR, "writing %s: %s", partial, strerror(errno));
        }
        last = buf[n - 1];
    }
    int failed = ferror(from);
    fclose(from);
    if (failed)
        return ladder_fail(msg, LADDER_ERROR, "reading %s failed", path);
    if (last != '\n')
        fputc('\n', to);
    return LADDER_OK;
}

static void writer_free(results_writer *w)
{
    free(w->path);
    free(w->partial);
    free(w);
}

ladder_status results_open(const char *path, results_mode mode, const char *option,
                           results_writer **out, char *msg)
{
    int exists;
    if (results_check_path(path, mode, option, &exists, msg) != LADDER_OK)
        return LADDER_ERROR;
    results_writer *w = calloc(1, sizeof *w);
    size_t n = strlen(path);
    if (w) {
        w->path = malloc(n + 1);
        w->partial = malloc(n + sizeof ".partial");
    }
    if (!w || !w->path || !w->partial) {
        if (w)
            writer_free(w);
        return ladder_fail(msg, LADDER_ERROR, "out of memory");
    }
    memcpy(w->path, path, n + 1);
    snprintf(w->partial, n + sizeof ".partial", "%s.partial", path);
    w->file = fopen(w->partial, "w");
    if (!w->file) {
        ladder_fail(msg, LADDER_ERROR, "cannot write the result file %s: %s", w->partial,
                    strerror(errno));
        writer_free(w);
        return LADDER_ERROR;
    }
    ladder_status st = LADDER_OK;
    if (setvbuf(w->file, NULL, _IONBF, 0) != 0)
        st = ladder_fail(msg, LADDER_ERROR, "%s: cannot make it unbuffered", w->partial);
    else if (mode == RESULTS_APPEND && exists)
        st = copy_existing(path, w->file, w->partial, msg);
    else
        fprintf(w->file, "%s\n", results_header());
    if (st == LADDER_OK && fflush(w->file) != 0)
        st = ladder_fail(msg, LADDER_ERROR, "writing %s: %s", w->partial, strerror(errno));
    if (st != LADDER_OK) {
        results_discard(w);
        return LADDER_ERROR;
    }
    *out = w;
    return LADDER_OK;
}

ladder_status results_append(results_writer *w, const result_row *row, char *msg)
{
    char line[4096];
    results_format_row(row, line, sizeof line);
    /* The stream is unbuffered: a row is written whole or, when the disk is full or the
     * file too large, cut back to where it began, so the rows before it stay a complete
     * file that results_close can still finish. */
    long before = ftell(w->file);
    if (fprintf(w->file, "%s\n", line) >= 0 && fflush(w->file) == 0)
        return LADDER_OK;
    ladder_fail(msg, LADDER_ERROR, "writing %s: %s", w->partial, strerror(errno));
    clearerr(w->file);
    if (before < 0 || ftruncate(fileno(w->file), before) != 0 ||
        fseek(w->file, before, SEEK_SET) != 0)
        w->damaged = 1;
    return LADDER_ERROR;
}

ladder_status results_close(results_writer *w, char *msg)
{
    ladder_status st = LADDER_OK;
    if (fclose(w->file) != 0 || w->damaged) {
        st = ladder_fail(msg, LADDER_ERROR, "closing %s: %s", w->partial,
                         w->damaged ? "a row was left half written" : strerror(errno));
        remove(w->partial);
    } else if (rename(w->partial, w->path) != 0) {
        /* The rows are complete in the partial file: keep them, and say where. */
        st = ladder_fail(msg, LADDER_ERROR, "renaming %s to %s: %s (the rows are in %s)",
                         w->partial, w->path, strerror(errno), w->partial);
    }
    writer_free(w);
    return st;
}

void results_discard(results_writer *w)
{
    fclose(w->file);
    remove(w->partial);
    writer_free(w);
}
