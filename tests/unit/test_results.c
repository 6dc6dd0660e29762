/* The result writer and reader: rows round-trip, quoting works, the file appears only
 * when complete, and malformed files give errors that name the file and line. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/results.h"

static result_row sample_row(void)
{
    result_row r;
    memset(&r, 0, sizeof r);
    strcpy(r.date, "2026-11-21T12:00:00Z");
    strcpy(r.version, "0.1.0");
    strcpy(r.host, "testhost");
    strcpy(r.backend, "opencl");
    strcpy(r.device, "Device, with \"comma\" and quotes");
    strcpy(r.vendor, "Vendor");
    strcpy(r.driver, "1.0");
    r.compute_units = 132;
    r.clock_mhz = 1980;
    r.peak_gflops = 66908;
    r.rung = 3;
    strcpy(r.rung_name, "wpt");
    strcpy(r.params, "TS=32 WPT=8");
    strcpy(r.param_source, "default");
    r.M = 1024; r.N = 512; r.K = 256;
    r.reps = 20;
    r.median_ms = 0.125; r.min_ms = 0.12; r.max_ms = 0.2;
    r.gflops = 2147.48;
    r.vs_library = 0.5;
    strcpy(r.library, "clblast");
    r.error_ratio = 0.01;
    strcpy(r.verify, "full");
    strcpy(r.status, "ok");
    r.seed = 42;
    gemm_case cs = GEMM_CASE_DEFAULT;
    cs.precision = PRECISION_DOUBLE;
    cs.trans_b = 1;
    cs.layout = LAYOUT_ROW;
    cs.alpha = -0.1; /* not exact in binary: written with every digit it needs */
    cs.beta = 2.5;
    results_set_case(&r, &cs);
    return r;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static int read_fails(const char *path, const char *needle)
{
    result_row *rows = NULL;
    int n = 0;
    char msg[LADDER_MSG] = "";
    int failed = results_read(path, &rows, &n, msg) == LADDER_ERROR && strstr(msg, needle);
    if (!failed)
        fprintf(stderr, "expected an error with '%s', got '%s'\n", needle, msg);
    free(rows);
    return failed;
}

/* Rows written before the schema became one table, and before the case columns, read back
 * as the case they measured (single, NN, col, alpha 1, beta 0), and are written again byte
 * for byte but for those five fields after K (tests/fixtures/results/README.md). */
static void check_fixture_round_trip(void)
{
    char here[1024], path[1200];
    snprintf(here, sizeof here, "%s", __FILE__);
    snprintf(path, sizeof path, "%s/../fixtures/results/written-before-the-schema-table.csv",
             dirname(here));
    result_row *rows = NULL;
    int n = 0;
    char msg[LADDER_MSG];
    CHECK(results_read(path, &rows, &n, msg) == LADDER_OK);
    CHECK(n == 10);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    char line[8192], again[8192];
    int i = 0, headers = 0;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "date,", 5) == 0) {
            headers++;
            continue;
        }
        if (i >= n)
            break;
        results_format_row(&rows[i++], again, sizeof again);
        /* The old line with the case's fields inserted after K (sizes M,N,K come right
         * before reps, which no quoted field precedes in these rows' tails). */
        char sizes[80];
        snprintf(sizes, sizeof sizes, ",%ld,%ld,%ld,", rows[i - 1].M, rows[i - 1].N,
                 rows[i - 1].K);
        char *at = strstr(line, sizes);
        if (at) {
            char tail[8192];
            at += strlen(sizes);
            snprintf(tail, sizeof tail, "single,NN,col,1,0,%s", at);
            snprintf(at, sizeof line - (size_t)(at - line), "%s", tail);
        }
        CHECK(at != NULL);
        CHECK(strcmp(rows[i - 1].precision, "single") == 0 &&
              strcmp(rows[i - 1].trans, "NN") == 0 && strcmp(rows[i - 1].layout, "col") == 0 &&
              rows[i - 1].alpha == 1.0 && rows[i - 1].beta == 0.0);
        if (strcmp(line, again) != 0)
            fprintf(stderr, "row %d written differently:\n  was %s\n  now %s\n", i, line, again);
        CHECK(strcmp(line, again) == 0);
    }
    if (f)
        fclose(f);
    CHECK(headers == 2 && i == n);
    if (n == 10) {
        /* Fields land in the right members. */
        CHECK(strcmp(rows[2].status, "unsupported") == 0 && rows[2].rung == 13);
        CHECK(strstr(rows[3].reason, "\"error\" 3.1e+06") != NULL && rows[3].seed == 7);
        CHECK(strcmp(rows[5].driver, "CUDA driver 13.0, NVRTC 13.0, cuBLAS 13.1.0") == 0);
        CHECK(rows[5].peak_gflops == 66908 && rows[5].compute_units == 132);
        CHECK(rows[6].vs_library == 0.2109 && strcmp(rows[6].library, "cublas") == 0);
        CHECK(strcmp(rows[7].param_source, "tuned") == 0 && rows[7].M == 4096);
        CHECK(rows[7].error_ratio == 0.0009249 && strcmp(rows[7].verify, "sampled") == 0);
        CHECK(rows[9].reps == 3 && rows[9].gflops == 49201.74);
    }
    free(rows);
}

static int count_rows(const char *path)
{
    result_row *rows = NULL;
    int n = 0;
    char msg[LADDER_MSG];
    if (results_read(path, &rows, &n, msg) != LADDER_OK)
        n = -1;
    free(rows);
    return n;
}

/* results_open refuses a bad path with a message naming the problem, and touches nothing. */
static int open_fails(const char *path, results_mode mode, const char *needle)
{
    results_writer *w = NULL;
    char msg[LADDER_MSG] = "";
    if (results_open(path, mode, "--output", &w, msg) == LADDER_OK) {
        fprintf(stderr, "%s: opened, expected an error with '%s'\n", path, needle);
        results_discard(w);
        return 0;
    }
    if (!strstr(msg, needle)) {
        fprintf(stderr, "%s: expected an error with '%s', got '%s'\n", path, needle, msg);
        return 0;
    }
    char partial[1100];
    snprintf(partial, sizeof partial, "%s.partial", path);
    return access(partial, F_OK) != 0;
}

/* Writes one complete result file of `rows` copies of `row` at `path` with `mode`. */
static int write_file(const char *path, results_mode mode, const result_row *row, int rows)
{
    results_writer *w;
    char msg[LADDER_MSG];
    if (results_open(path, mode, "--output", &w, msg) != LADDER_OK) {
        fprintf(stderr, "%s\n", msg);
        return 0;
    }
    for (int i = 0; i < rows; i++)
        if (results_append(w, row, msg) != LADDER_OK) {
            results_discard(w);
            return 0;
        }
    return results_close(w, msg) == LADDER_OK;
}

/* The output policy: every bad path is refused at open; an existing file is kept unless
 * RESULTS_OVERWRITE or RESULTS_APPEND (to a result file of this schema) says otherwise. */
static void check_output_policy(const char *dir, const result_row *row)
{
    char path[300], text[300], nested[300], partial[320], msg[LADDER_MSG];
    CHECK(open_fails("", RESULTS_NEW, "--output is empty"));
    CHECK(open_fails(dir, RESULTS_OVERWRITE, "is a folder: give a file name"));
    snprintf(path, sizeof path, "%s/sub/", dir);
    CHECK(open_fails(path, RESULTS_NEW, "is a folder: give a file name"));
    /* Missing folders are never made: a typo would grow a tree. */
    snprintf(nested, sizeof nested, "%s/new/deeper/out.csv", dir);
    char folder[300];
    snprintf(folder, sizeof folder, "%s/new/deeper", dir);
    snprintf(text, sizeof text, "folder %s does not exist: create it or choose another --output",
             folder);
    CHECK(open_fails(nested, RESULTS_NEW, text));
    snprintf(folder, sizeof folder, "%s/new", dir);
    CHECK(access(folder, F_OK) != 0);
    CHECK(open_fails("/dev/null", RESULTS_OVERWRITE, "is not a regular file"));
    CHECK(open_fails("/dev/null/out.csv", RESULTS_NEW, "/dev/null is not a folder"));
    CHECK(open_fails("/proc/version.csv", RESULTS_NEW, "cannot write the result file"));

    /* An existing file: refused, then replaced, then appended to. */
    snprintf(path, sizeof path, "%s/existing.csv", dir);
    CHECK(write_file(path, RESULTS_NEW, row, 2));
    CHECK(open_fails(path, RESULTS_NEW, "exists: add --force to replace it, --append"));
    CHECK(count_rows(path) == 2);
    results_writer *w;
    CHECK(results_open(path, RESULTS_OVERWRITE, "--output", &w, msg) == LADDER_OK);
    CHECK(count_rows(path) == 2); /* kept until the run ends */
    CHECK(results_append(w, row, msg) == LADDER_OK);
    CHECK(results_close(w, msg) == LADDER_OK);
    CHECK(count_rows(path) == 1);
    CHECK(write_file(path, RESULTS_APPEND, row, 3));
    CHECK(count_rows(path) == 4);
    FILE *f = fopen(path, "r");
    int headers = 0;
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        headers += strncmp(line, "date,", 5) == 0;
    if (f)
        fclose(f);
    CHECK(headers == 1);
    /* Appending to a file that is not there starts one. */
    snprintf(path, sizeof path, "%s/fresh.csv", dir);
    CHECK(write_file(path, RESULTS_APPEND, row, 1) && count_rows(path) == 1);

    /* Appending to anything but a result file of this schema is refused; it is unchanged. */
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    write_text(path, "my notes\n");
    CHECK(open_fails(path, RESULTS_APPEND, "only to a result file with the same columns"));
    write_text(path, "date,version\n");
    CHECK(open_fails(path, RESULTS_APPEND, "only to a result file with the same columns"));
    snprintf(text, sizeof text, "%s\nnot,a,row\n", results_header());
    write_text(path, text);
    CHECK(open_fails(path, RESULTS_APPEND, "refuses a damaged result file"));
    f = fopen(path, "r");
    char expected[600];
    snprintf(expected, sizeof expected, "%s\n", results_header());
    CHECK(f && fgets(line, sizeof line, f) && strcmp(line, expected) == 0);
    if (f)
        fclose(f);

    /* When the final rename fails the rows stay in the partial file. */
    snprintf(path, sizeof path, "%s/late.csv", dir);
    snprintf(partial, sizeof partial, "%s.partial", path);
    CHECK(results_open(path, RESULTS_NEW, "--output", &w, msg) == LADDER_OK);
    CHECK(results_append(w, row, msg) == LADDER_OK);
    CHECK(mkdir(path, 0777) == 0); /* something made a folder there meanwhile */
    CHECK(results_close(w, msg) == LADDER_ERROR && strstr(msg, "the rows are in") != NULL);
    CHECK(count_rows(partial) == 1);
}

int main(void)
{
    check_fixture_round_trip();

    char dir[] = "/tmp/ladder-test-results-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], partial[300];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    snprintf(partial, sizeof partial, "%s.partial", path);

    results_writer *w;
    char msg[LADDER_MSG];
    CHECK(results_open(path, RESULTS_NEW, "--output", &w, msg) == LADDER_OK);
    result_row row = sample_row();
    CHECK(results_append(w, &row, msg) == LADDER_OK);
    result_row failed = sample_row();
    strcpy(failed.status, "FAILED");
    strcpy(failed.reason, "element (1,2): got 3, expected 4");
    failed.median_ms = 0; /* failed rows have no timing */
    CHECK(results_append(w, &failed, msg) == LADDER_OK);
    CHECK(access(path, F_OK) != 0);      /* not there until complete */
    CHECK(access(partial, F_OK) == 0);
    CHECK(results_close(w, msg) == LADDER_OK);
    CHECK(access(path, F_OK) == 0);
    CHECK(access(partial, F_OK) != 0);

    result_row *rows = NULL;
    int n = 0;
    CHECK(results_read(path, &rows, &n, msg) == LADDER_OK);
    CHECK(n == 2);
    if (n == 2) {
        CHECK(strcmp(rows[0].device, row.device) == 0);
        CHECK(rows[0].M == 1024 && rows[0].N == 512 && rows[0].K == 256);
        CHECK(rows[0].median_ms == 0.125);
        CHECK(rows[0].peak_gflops == 66908);
        CHECK(strcmp(rows[0].params, "TS=32 WPT=8") == 0);
        CHECK(rows[0].seed == 42);
        CHECK(strcmp(rows[1].status, "FAILED") == 0);
        CHECK(strstr(rows[1].reason, "element (1,2)") != NULL);
        CHECK(rows[1].gflops == 0);
        /* The case round-trips, alpha to the last bit. */
        gemm_case cs;
        CHECK(results_row_case(&rows[0], &cs, msg) == LADDER_OK);
        CHECK(cs.precision == PRECISION_DOUBLE && !cs.trans_a && cs.trans_b &&
              cs.layout == LAYOUT_ROW && cs.alpha == -0.1 && cs.beta == 2.5);
    }
    /* Concatenated files (header repeated) read as one. */
    char twice[300];
    snprintf(twice, sizeof twice, "%s/twice.csv", dir);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cat %s %s > %s", path, path, twice);
    CHECK(system(cmd) == 0);
    free(rows);
    rows = NULL;
    n = 0;
    CHECK(results_read(twice, &rows, &n, msg) == LADDER_OK && n == 4);
    free(rows);

    /* A discarded writer leaves nothing behind. */
    char gone[300];
    snprintf(gone, sizeof gone, "%s/gone.csv", dir);
    CHECK(results_open(gone, RESULTS_NEW, "--output", &w, msg) == LADDER_OK);
    results_discard(w);
    snprintf(partial, sizeof partial, "%s.partial", gone);
    CHECK(access(gone, F_OK) != 0 && access(partial, F_OK) != 0);

    /* Malformed files. */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/bad.csv", dir);
    write_text(bad, "");
    CHECK(read_fails(bad, "empty"));
    write_text(bad, "a,b,c\n1,2,3\n");
    CHECK(read_fails(bad, "no header"));
    char line[4096];
    results_format_row(&row, line, sizeof line);
    char text[8192];
    snprintf(text, sizeof text, "%s\n%s,extra\n", results_header(), line);
    write_text(bad, text);
    int ncolumns;
    results_columns(&ncolumns);
    char expected[64];
    snprintf(expected, sizeof expected, ":2: %d fields, the header has %d", ncolumns + 1,
             ncolumns);
    CHECK(read_fails(bad, expected));
    /* A case column holding a word that is no case's. */
    snprintf(text, sizeof text, "%s\n%s\n", results_header(), line);
    char *trans = strstr(text + strlen(results_header()), ",NT,");
    if (trans)
        memcpy(trans, ",XY,", 4);
    write_text(bad, text);
    CHECK(trans && read_fails(bad, "transpose pair 'XY'"));
    snprintf(text, sizeof text, "%s\n%s\n", results_header(), line);
    char *gf = strstr(text + strlen(results_header()), "2147.48");
    if (gf)
        memcpy(gf, "fast!!!", 7);
    write_text(bad, text);
    CHECK(read_fails(bad, "gflops: 'fast!!!' is not a number"));
    snprintf(text, sizeof text, "date,version\n");
    write_text(bad, text);
    CHECK(read_fails(bad, "no column"));
    CHECK(read_fails("/nonexistent/file.csv", "cannot open"));

    check_output_policy(dir, &row);

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
