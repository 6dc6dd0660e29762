/* Result files: the schema (one column table), a row as a CSV line, and the reader. The
 * writer, which opens, appends and completes a file, is results_writer.c. */
#include "core/results.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The schema. Each entry names the column, the member of result_row it holds, how it is
 * written, and what it means (README.md's table is printed from these texts). */
#define MEMBER(member) offsetof(result_row, member), sizeof(((result_row *)0)->member)
#define TEXT(member) COLUMN_TEXT, MEMBER(member), NULL, 0
#define INT(member) COLUMN_INT, MEMBER(member), NULL, 0
#define LONG(member) COLUMN_LONG, MEMBER(member), NULL, 0
#define SEED(member) COLUMN_SEED, MEMBER(member), NULL, 0
#define REAL(member, format, shown) COLUMN_REAL, MEMBER(member), format, shown
static const result_column columns[] = {
    {"date", TEXT(date), "UTC time the row was measured (ISO 8601)", NULL},
    {"version", TEXT(version), "gemm-ladder version (`0.1.0+<git describe>`)", NULL},
    {"host", TEXT(host), "host name", NULL},
    {"backend", TEXT(backend), "`opencl`, `cuda` or `cpu` (the host BLAS)", NULL},
    {"device", TEXT(device),
     "as the driver reports them (CUDA: driver, NVRTC and cuBLAS versions)", NULL},
    {"vendor", TEXT(vendor), NULL, NULL},
    {"driver", TEXT(driver), NULL, NULL},
    {"compute_units", INT(compute_units),
     "compute units (SMs) and maximum clock", NULL},
    {"clock_mhz", INT(clock_mhz), NULL, NULL},
    {"peak_gflops", REAL(peak_gflops, "%.0f", SHOWN_POSITIVE),
     "FP32 peak where the backend can tell (NVIDIA: SMs × FP32 lanes per SM × 2 × clock); "
     "empty when unknown, never guessed", NULL},
    {"rung", INT(rung),
     "rung number and name; 0 and `cublas` / `clblast` / `cpu` for baselines; 0 and `auto` "
     "for the shape-aware entry", NULL},
    {"rung_name", TEXT(rung_name), NULL, NULL},
    {"params", TEXT(params),
     "parameters used (`TS=32 WPT=8`; for `auto`, the rung it ran first: `rung=15 TSM=128 "
     "...`) and where they came from: `default`, `small-default`, `user`, `tuned` (the "
     "tuning database), `tune-candidate` (a row of `ladder tune`'s or `ladder select`'s "
     "candidates file), `selected` (`auto`, from its selection table), `fallback` (`auto`, "
     "by its rule), `selected-rung` (`auto`, the chosen rung in a case other than single "
     "NN, with the parameters a run gives it in that case), `case-fallback` (`auto`, a "
     "BLAS-call rung that takes a case its choice cannot: double, transposes, alpha and "
     "beta)", NULL},
    {"param_source", TEXT(param_source), NULL, NULL},
    {"M", LONG(M), "sizes: op(A) is M×K, op(B) is K×N, C is M×N", NULL},
    {"N", LONG(N), NULL, NULL},
    {"K", LONG(K), NULL, NULL},
    {"precision", TEXT(precision), "the case: `single` or `double`; the transposes, op(A) "
     "then op(B) (`NN`, `NT`, `TN`, `TT`); the layout, `col` (column-major) or `row`; "
     "alpha and beta of C = alpha·op(A)·op(B) + beta·C. Older files lack these columns: "
     "their rows read as `single`, `NN`, `col`, 1, 0", "single"},
    {"trans", TEXT(trans), NULL, "NN"},
    {"layout", TEXT(layout), NULL, "col"},
    {"alpha", REAL(alpha, "%.17g", SHOWN_ALWAYS), NULL, "1"},
    {"beta", REAL(beta, "%.17g", SHOWN_ALWAYS), NULL, "0"},
    {"reps", INT(reps),
     "timed repetitions and their median, min, max in milliseconds", NULL},
    {"median_ms", REAL(median_ms, "%.6g", SHOWN_TIMED), NULL, NULL},
    {"min_ms", REAL(min_ms, "%.6g", SHOWN_TIMED), NULL, NULL},
    {"max_ms", REAL(max_ms, "%.6g", SHOWN_TIMED), NULL, NULL},
    {"gflops", REAL(gflops, "%.2f", SHOWN_TIMED), "2·M·N·K / median", NULL},
    {"vs_library", REAL(vs_library, "%.4f", SHOWN_POSITIVE),
     "gflops as a fraction of the vendor library measured on the same device and size in "
     "the same run, and which library", NULL},
    {"library", TEXT(library), NULL, NULL},
    {"error_ratio", REAL(error_ratio, "%.4g", SHOWN_CHECKED),
     "largest |error| / bound over the checked elements (≤ 1 passes); the bound uses the "
     "rung's unit roundoff (`ladder list`)", NULL},
    {"rel_error", REAL(rel_error, "%.3g", SHOWN_CHECKED),
     "largest |c − r| / (|A||B|)_ij over the elements checked one by one (all of them, or "
     "the sample): the error in units of the product's size, comparable across methods and "
     "precisions; empty where not verified and in files written before the column", ""},
    {"verify", TEXT(verify), "`full`, `sampled` or `off`", NULL},
    {"status", TEXT(status),
     "`ok`, `FAILED` (wrong result), `unsupported` (cannot run here; see reason), `error`", NULL},
    {"reason", TEXT(reason), "why, for rows that are not ok", NULL},
    {"seed", SEED(seed), "seed of the inputs", NULL},
};
#undef TEXT
#undef INT
#undef LONG
#undef SEED
#undef REAL
#undef MEMBER
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))

const result_column *results_columns(int *count)
{
    *count = NCOLUMNS;
    return columns;
}

const char *results_header(void)
{
    static char header[1024];
    if (!header[0]) {
        size_t used = 0;
        for (int i = 0; i < NCOLUMNS; i++)
            used += (size_t)snprintf(header + used, sizeof header - used, "%s%s",
                                     i ? "," : "", columns[i].name);
    }
    return header;
}

/* Appends a CSV field, quoted when it holds a comma, a quote or a newline. */
static size_t put_field(char *out, size_t size, size_t used, const char *s, int first)
{
    if (used + 1 >= size)
        return used;
    if (!first)
        out[used++] = ',';
    int quote = strpbrk(s, ",\"\n\r") != NULL;
    if (quote && used + 1 < size)
        out[used++] = '"';
    for (; *s && used + 2 < size; s++) {
        if (*s == '"')
            out[used++] = '"';
        out[used++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
    }
    if (quote && used + 1 < size)
        out[used++] = '"';
    out[used] = '\0';
    return used;
}

/* Whether a COLUMN_REAL field is written: the rule its column names. */
static int real_shown(const result_column *c, const result_row *r, double v)
{
    int timed = r->median_ms > 0;
    switch (c->shown) {
    case SHOWN_POSITIVE:
        return v > 0;
    case SHOWN_TIMED:
        return timed;
    case SHOWN_CHECKED:
        return timed && v >= 0 && strcmp(r->verify, "off") != 0;
    case SHOWN_ALWAYS:
        return 1;
    }
    return 0;
}

/* One field's text, as its column says it is written. */
static void format_field(const result_column *c, const result_row *r, char *out, size_t size)
{
    const char *member = (const char *)r + c->offset;
    switch (c->kind) {
    case COLUMN_TEXT:
        snprintf(out, size, "%.*s", (int)c->size, member);
        return;
    case COLUMN_INT:
        snprintf(out, size, "%d", *(const int *)member);
        return;
    case COLUMN_LONG:
        snprintf(out, size, "%ld", *(const long *)member);
        return;
    case COLUMN_SEED:
        snprintf(out, size, "%llu", *(const unsigned long long *)member);
        return;
    case COLUMN_REAL: {
        double v = *(const double *)member;
        if (real_shown(c, r, v))
            snprintf(out, size, c->format, v);
        else
            out[0] = '\0';
        return;
    }
    }
}

void results_format_row(const result_row *r, char *out, size_t size)
{
    char field[sizeof r->reason + 1];
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < NCOLUMNS; i++) {
        format_field(&columns[i], r, field, sizeof field);
        used = put_field(out, size, used, field, i == 0);
    }
}

/* ---- reader ------------------------------------------------------------------------ */

/* Splits one CSV line into fields (RFC 4180 quoting). Returns the number of fields, or
 * -1 for an unterminated quote. Fields point into `line`, which is modified. */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return max + 1;
        char *out = p;
        fields[n++] = p;
        if (*p == '"') {
            char *in = p + 1;
            for (;;) {
                if (*in == '\0')
                    return -1;
                if (*in == '"' && in[1] == '"') {
                    *out++ = '"';
                    in += 2;
                } else if (*in == '"') {
                    in++;
                    break;
                } else {
                    *out++ = *in++;
                }
            }
            p = in;
            if (*p != ',' && *p != '\0')
                return -1;
        } else {
            while (*p && *p != ',')
                p++;
            out = p;
        }
        int last = *p == '\0';
        *out = '\0';
        if (last)
            return n;
        p++;
    }
}

/* Reads one field into its member of `row`, as its column says; 0 when it is not a
 * number where one is needed. An empty number reads as 0 (not measured), or -1 in a
 * SHOWN_CHECKED column (not checked: the writer leaves negative values empty). */
static int parse_field(const result_column *c, const char *text, result_row *row)
{
    char *member = (char *)row + c->offset;
    if (c->kind == COLUMN_TEXT) {
        snprintf(member, c->size, "%s", text);
        return 1;
    }
    char *end = (char *)text;
    errno = 0;
    switch (c->kind) {
    case COLUMN_INT: {
        long v = *text ? strtol(text, &end, 10) : 0;
        if (v < INT_MIN || v > INT_MAX)
            return 0;
        *(int *)member = (int)v;
        break;
    }
    case COLUMN_LONG:
        *(long *)member = *text ? strtol(text, &end, 10) : 0;
        break;
    case COLUMN_SEED:
        *(unsigned long long *)member = *text ? strtoull(text, &end, 10) : 0;
        break;
    case COLUMN_REAL:
        *(double *)member = *text ? strtod(text, &end) : c->shown == SHOWN_CHECKED ? -1 : 0;
        break;
    case COLUMN_TEXT:
        break;
    }
    return *end == '\0' && errno == 0;
}

/* Fills `row` from the fields, mapped by header position (-1: a column added after the
 * file was written, read as empty). Returns the index of the column that failed to
 * parse, or -1. */
static int row_from_fields(char **f, const int *col, result_row *row)
{
    memset(row, 0, sizeof *row);
    for (int i = 0; i < NCOLUMNS; i++)
        if (!parse_field(&columns[i], col[i] >= 0 ? f[col[i]] : columns[i].absent, row))
            return i;
    return -1;
}

/* Maps header names to positions (-1: a column an older file lacks, which takes its
 * `absent` value); returns 0 if a required column of the schema is missing. */
static int map_header(char **f, int n, int *col, const char **missing)
{
    for (int i = 0; i < NCOLUMNS; i++) {
        col[i] = -1;
        for (int j = 0; j < n; j++)
            if (strcmp(f[j], columns[i].name) == 0)
                col[i] = j;
        if (col[i] < 0 && !columns[i].absent) {
            *missing = columns[i].name;
            return 0;
        }
    }
    return 1;
}

void results_set_case(result_row *row, const gemm_case *cs)
{
    snprintf(row->precision, sizeof row->precision, "%s", gemm_precision_name(cs->precision));
    gemm_trans_name(cs->trans_a, cs->trans_b, row->trans);
    snprintf(row->layout, sizeof row->layout, "%s", gemm_layout_name(cs->layout));
    row->alpha = cs->alpha;
    row->beta = cs->beta;
}

int results_same_case(const result_row *a, const result_row *b)
{
    return strcmp(a->precision, b->precision) == 0 && strcmp(a->trans, b->trans) == 0 &&
           strcmp(a->layout, b->layout) == 0 && a->alpha == b->alpha && a->beta == b->beta;
}

void results_case_label(const result_row *row, int all, char *out, size_t size)
{
    gemm_case cs;
    char msg[LADDER_MSG];
    if (results_row_case(row, &cs, msg) == LADDER_OK) /* the reader checked the words */
        gemm_case_label(&cs, all, out, size);
    else
        snprintf(out, size, "%s %s %s", row->precision, row->trans, row->layout);
}

int results_case_filter_matches(const results_case_filter *f, const result_row *row)
{
    return (!f->precision || strcmp(f->precision, row->precision) == 0) &&
           (!f->trans || strcmp(f->trans, row->trans) == 0) &&
           (!f->layout || strcmp(f->layout, row->layout) == 0);
}

ladder_status results_check_one_case(const result_row *const *rows, const result_row *plain,
                                     int n, char *msg)
{
    const result_row *first = rows ? rows[0] : plain;
    for (int i = 1; i < n; i++) {
        const result_row *r = rows ? rows[i] : &plain[i];
        if (results_same_case(first, r))
            continue;
        char a[96], b[96];
        results_case_label(first, 1, a, sizeof a);
        results_case_label(r, 1, b, sizeof b);
        return ladder_fail(msg, LADDER_ERROR,
                           "rows of more than one case match (%s; %s): choose one with "
                           "--precision, --trans and --case-layout (alpha and beta: from "
                           "separate files)", a, b);
    }
    return LADDER_OK;
}

ladder_status results_row_case(const result_row *row, gemm_case *cs, char *msg)
{
    *cs = GEMM_CASE_DEFAULT;
    if (gemm_parse_precision(row->precision, &cs->precision, msg) != LADDER_OK ||
        gemm_parse_trans(row->trans, &cs->trans_a, &cs->trans_b, msg) != LADDER_OK ||
        gemm_parse_layout(row->layout, &cs->layout, msg) != LADDER_OK)
        return LADDER_ERROR;
    cs->alpha = row->alpha;
    cs->beta = row->beta;
    return LADDER_OK;
}

ladder_status results_read(const char *path, result_row **rows, int *count, char *msg)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return ladder_fail(msg, LADDER_ERROR, "%s: cannot open: %s", path, strerror(errno));
    char line[8192];
    char *f[NCOLUMNS + 8];
    int col[NCOLUMNS];
    int have_header = 0, header_fields = 0, lineno = 0;
    ladder_status st = LADDER_OK;
    while (fgets(line, sizeof line, file)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: line too long", path, lineno);
            break;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        int n = split_csv(line, f, NCOLUMNS + 7);
        if (n < 0) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: unterminated quoted field", path,
                             lineno);
            break;
        }
        /* A header line (first line, or repeated where files were concatenated). */
        if (strcmp(f[0], "date") == 0) {
            const char *missing;
            if (!map_header(f, n, col, &missing)) {
                st = ladder_fail(msg, LADDER_ERROR,
                                 "%s:%d: header has no column '%s': not a gemm-ladder "
                                 "result file", path, lineno, missing);
                break;
            }
            have_header = 1;
            header_fields = n;
            continue;
        }
        if (!have_header) {
            st = ladder_fail(msg, LADDER_ERROR,
                             "%s:%d: no header line before the first row: not a gemm-ladder "
                             "result file", path, lineno);
            break;
        }
        if (n != header_fields) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: %d fields, the header has %d", path,
                             lineno, n, header_fields);
            break;
        }
        result_row row;
        int bad = row_from_fields(f, col, &row);
        if (bad >= 0) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: column %s: '%s' is not a number",
                             path, lineno, columns[bad].name, f[col[bad]]);
            break;
        }
        gemm_case cs;
        char why[LADDER_MSG];
        if (results_row_case(&row, &cs, why) != LADDER_OK) {
            st = ladder_fail(msg, LADDER_ERROR, "%s:%d: %.900s", path, lineno, why);
            break;
        }
        result_row *grown = realloc(*rows, (size_t)(*count + 1) * sizeof **rows);
        if (!grown) {
            st = ladder_fail(msg, LADDER_ERROR, "out of memory reading %s", path);
            break;
        }
        *rows = grown;
        (*rows)[(*count)++] = row;
    }
    if (st == LADDER_OK && ferror(file))
        st = ladder_fail(msg, LADDER_ERROR, "%s: read error", path);
    if (st == LADDER_OK && !have_header)
        st = ladder_fail(msg, LADDER_ERROR, "%s: empty file: no header line", path);
    fclose(file);
    return st;
}
