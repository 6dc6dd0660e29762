/* `ladder table`: numbers formatted for reading, and the Markdown printer.
 *
 * Tables are committed to the tutorial and compared byte for byte with a fresh printing, so
 * every format here is fixed: rounding by round_half_up, printing by printf in the C locale
 * (the program never calls setlocale), and columns padded to a width counted in characters.
 */
#include "report/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Copies a number printed by printf ("-12345.678") to out with commas between the
 * thousands of its whole part ("-12,345.678"). */
static void group_thousands(const char *plain, char *out, size_t size)
{
    char buf[TABLE_CELL];
    size_t used = 0;
    const char *p = plain;
    if (*p == '-')
        buf[used++] = *p++;
    size_t whole = strspn(p, "0123456789");
    for (size_t i = 0; i < whole && used + 2 < sizeof buf; i++) {
        if (i > 0 && (whole - i) % 3 == 0)
            buf[used++] = ',';
        buf[used++] = p[i];
    }
    buf[used] = '\0';
    snprintf(out, size, "%s%s", buf, p + whole);
}

/* Rounds to `decimals` places, halves away from zero, the way a reader rounds by hand.
 * printf alone rounds the binary value: 0.0750 from a file is 0.07499999... in binary and
 * would print as 0.07, and 0.1250 (exact in binary) would print as 0.12 (half to even).
 * The nudge is far below the precision of any figure in a result file and far above the
 * error of reading a decimal into a double. */
static double round_half_up(double x, int decimals)
{
    if (x < 0)
        return -round_half_up(-x, decimals);
    double scale = pow(10.0, decimals);
    return floor(x * scale + 0.5 + 1e-6) / scale;
}

void fmt_gflops(double gflops, char *out, size_t size)
{
    /* Whole GFLOPS are plenty for a GPU; below 100 (a CPU through PoCL) one decimal keeps
     * rungs apart that would otherwise all read "3". */
    char plain[64];
    if (round_half_up(gflops, 1) < 100.0)
        snprintf(plain, sizeof plain, "%.1f", round_half_up(gflops, 1));
    else
        snprintf(plain, sizeof plain, "%.0f", round_half_up(gflops, 0));
    group_thousands(plain, out, size);
}

double row_gbps(const result_row *r)
{
    const gemm_size s = {r->M, r->N, r->K};
    if (!(r->median_ms > 0))
        return 0.0;
    /* sizes_bytes counts floats; a double row moved twice the bytes. */
    const double scale = strcmp(r->precision, "double") == 0 ? 2.0 : 1.0;
    return scale * (double)sizes_bytes(&s) / (r->median_ms * 1e6); /* bytes per ms / 1e6 = GB/s */
}

void fmt_ms(double ms, char *out, size_t size)
{
    /* Three significant digits: the decimals follow the magnitude, and are recounted when
     * rounding reaches the next power of ten (0.9996 is 1.00, not 1.000). Times of a
     * second or more keep every whole digit. */
    char plain[64];
    int decimals = ms > 0 ? 2 - (int)floor(log10(ms)) : 0;
    if (decimals < 0)
        decimals = 0;
    double rounded = round_half_up(ms, decimals);
    if (decimals > 0 && rounded > 0 && 2 - (int)floor(log10(rounded)) < decimals) {
        decimals--;
        rounded = round_half_up(ms, decimals);
    }
    snprintf(plain, sizeof plain, "%.*f", decimals, rounded);
    group_thousands(plain, out, size);
}

void fmt_fraction(double f, char *out, size_t size)
{
    snprintf(out, size, "%.2f", round_half_up(f, 2));
}

void fmt_gain(double g, char *out, size_t size)
{
    snprintf(out, size, "%.2f×", round_half_up(g, 2));
}

void fmt_shape(long M, long N, long K, char *out, size_t size)
{
    if (M == N && N == K)
        snprintf(out, size, "%ld", M);
    else
        snprintf(out, size, "%ldx%ldx%ld", M, N, K);
}

const char *display_backend(const char *backend)
{
    if (strcmp(backend, "opencl") == 0)
        return "OpenCL";
    if (strcmp(backend, "cuda") == 0)
        return "CUDA";
    if (strcmp(backend, "cpu") == 0)
        return "CPU";
    return backend;
}

const char *display_rung_name(const char *rung_name)
{
    static const char *const names[][2] = {
        {"cublas", "cuBLAS"}, {"clblast", "CLBlast"}, {"cpu", "CPU BLAS"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(rung_name, names[i][0]) == 0)
            return names[i][1];
    return rung_name;
}

/* ---- the Markdown table --------------------------------------------------------------- */

struct md_table {
    int ncols;
    int nrows;              /* data rows; the header is row -1, kept apart */
    char (*header)[TABLE_CELL];
    int *right;             /* right-align this column */
    char (*cells)[TABLE_CELL];
};

md_table *md_table_new(int ncols)
{
    md_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    t->header = calloc((size_t)ncols, sizeof *t->header);
    t->right = calloc((size_t)ncols, sizeof *t->right);
    if (!t->header || !t->right) {
        md_table_free(t);
        return NULL;
    }
    return t;
}

void md_table_free(md_table *t)
{
    if (!t)
        return;
    free(t->header);
    free(t->right);
    free(t->cells);
    free(t);
}

/* Copies text into a cell, escaping '|' (which would end the cell). */
static void put_cell(char *cell, const char *text)
{
    size_t used = 0;
    for (; *text && used + 3 < TABLE_CELL; text++) {
        if (*text == '|')
            cell[used++] = '\\';
        cell[used++] = (*text == '\n' || *text == '\r') ? ' ' : *text;
    }
    cell[used] = '\0';
}

void md_table_header(md_table *t, int col, const char *text, int right_align)
{
    put_cell(t->header[col], text);
    t->right[col] = right_align;
}

int md_table_add_row(md_table *t)
{
    char (*grown)[TABLE_CELL] =
        realloc(t->cells, (size_t)(t->nrows + 1) * (size_t)t->ncols * sizeof *grown);
    if (!grown)
        return -1;
    t->cells = grown;
    int row = t->nrows++;
    for (int c = 0; c < t->ncols; c++)
        put_cell(t->cells[row * t->ncols + c], TABLE_MISSING);
    return row;
}

void md_table_set(md_table *t, int row, int col, const char *text)
{
    put_cell(t->cells[row * t->ncols + col], text);
}

/* Width on screen: UTF-8 continuation bytes take no column ("–" and "×" are one each). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

static void print_padded(FILE *out, const char *text, int w, int right)
{
    int pad = w - width(text);
    fprintf(out, " ");
    if (right)
        fprintf(out, "%*s%s", pad, "", text);
    else
        fprintf(out, "%s%*s", text, pad, "");
    fprintf(out, " |");
}

void md_table_print(const md_table *t, FILE *out)
{
    /* Padding is not needed by Markdown; it keeps the committed source readable and its
     * diffs small. Delimiter cells need at least three characters. */
    int *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w)
        return;
    for (int c = 0; c < t->ncols; c++) {
        w[c] = width(t->header[c]) < 3 ? 3 : width(t->header[c]);
        for (int r = 0; r < t->nrows; r++) {
            int cw = width(t->cells[r * t->ncols + c]);
            if (cw > w[c])
                w[c] = cw;
        }
    }
    fprintf(out, "|");
    for (int c = 0; c < t->ncols; c++)
        print_padded(out, t->header[c], w[c], t->right[c]);
    fprintf(out, "\n|");
    for (int c = 0; c < t->ncols; c++) {
        fprintf(out, " ");
        for (int i = 0; i < w[c] - 1; i++)
            fputc('-', out);
        fprintf(out, "%s |", t->right[c] ? ":" : "-");
    }
    fprintf(out, "\n");
    for (int r = 0; r < t->nrows; r++) {
        fprintf(out, "|");
        for (int c = 0; c < t->ncols; c++)
            print_padded(out, t->cells[r * t->ncols + c], w[c], t->right[c]);
        fprintf(out, "\n");
    }
    free(w);
}
