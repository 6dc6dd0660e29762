/* Unit test of the number formats and the Markdown printer of `ladder table`: the committed
 * tutorial depends on every character of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "report/table.h"

typedef void (*formatter)(double, char *, size_t);

static int formats_as(formatter f, double v, const char *want)
{
    char got[TABLE_CELL];
    f(v, got, sizeof got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "  %.10g printed as '%s', expected '%s'\n", v, got, want);
        return 0;
    }
    return 1;
}

static void test_gflops(void)
{
    CHECK(formats_as(fmt_gflops, 0.4, "0.4"));
    CHECK(formats_as(fmt_gflops, 5.85, "5.9"));
    CHECK(formats_as(fmt_gflops, 99.94, "99.9"));
    CHECK(formats_as(fmt_gflops, 99.96, "100"));
    CHECK(formats_as(fmt_gflops, 999.49, "999"));
    CHECK(formats_as(fmt_gflops, 999.5, "1,000"));
    CHECK(formats_as(fmt_gflops, 1234.5, "1,235"));   /* half up, not half to even */
    CHECK(formats_as(fmt_gflops, 12345.67, "12,346"));
    CHECK(formats_as(fmt_gflops, 123456.0, "123,456"));
    CHECK(formats_as(fmt_gflops, 1234567.0, "1,234,567"));
}

static void test_ms(void)
{
    CHECK(formats_as(fmt_ms, 0.0333277, "0.0333"));
    CHECK(formats_as(fmt_ms, 0.00372827, "0.00373"));
    CHECK(formats_as(fmt_ms, 0.0239675, "0.0240"));   /* a trailing zero is a digit */
    CHECK(formats_as(fmt_ms, 0.9996, "1.00"));        /* rounding up to the next power */
    CHECK(formats_as(fmt_ms, 1.0, "1.00"));
    CHECK(formats_as(fmt_ms, 11.24, "11.2"));
    CHECK(formats_as(fmt_ms, 99.96, "100"));
    CHECK(formats_as(fmt_ms, 123.456, "123"));
    CHECK(formats_as(fmt_ms, 1342.18, "1,342"));      /* whole digits are kept */
    CHECK(formats_as(fmt_ms, 0.1235, "0.124"));       /* half up */
}

static void test_fraction_and_gain(void)
{
    CHECK(formats_as(fmt_fraction, 0.8123, "0.81"));
    CHECK(formats_as(fmt_fraction, 0.0750, "0.08"));  /* 0.0749999... in binary */
    CHECK(formats_as(fmt_fraction, 0.1250, "0.13"));  /* exact in binary: half up */
    CHECK(formats_as(fmt_fraction, 1.0, "1.00"));
    CHECK(formats_as(fmt_gain, 1400.0 / 950.0, "1.47×"));
    CHECK(formats_as(fmt_gain, 2.5, "2.50×"));
}

static void test_shape_and_names(void)
{
    char s[64];
    fmt_shape(4096, 4096, 4096, s, sizeof s);
    CHECK(strcmp(s, "4096") == 0);
    fmt_shape(512, 256, 128, s, sizeof s);
    CHECK(strcmp(s, "512x256x128") == 0);
    CHECK(strcmp(display_backend("cuda"), "CUDA") == 0);
    CHECK(strcmp(display_backend("opencl"), "OpenCL") == 0);
    CHECK(strcmp(display_backend("metal"), "metal") == 0);
    CHECK(strcmp(display_rung_name("cublas"), "cuBLAS") == 0);
    CHECK(strcmp(display_rung_name("tiling"), "tiling") == 0);
}

/* Columns padded by characters, not bytes; '|' escaped; numbers right-aligned. */
static void test_markdown(void)
{
    md_table *t = md_table_new(2);
    CHECK(t != NULL);
    if (!t)
        return;
    md_table_header(t, 0, "name", 0);
    md_table_header(t, 1, "GFLOPS", 1);
    int r = md_table_add_row(t);
    md_table_set(t, r, 0, "a|b");
    md_table_set(t, r, 1, "1,234");
    r = md_table_add_row(t); /* left with the missing mark in both cells */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK(out != NULL);
    if (out) {
        md_table_print(t, out);
        fclose(out);
        const char *want = "| name | GFLOPS |\n"
                           "| ---- | -----: |\n"
                           "| a\\|b |  1,234 |\n"
                           "| –    |      – |\n";
        CHECK(strcmp(text, want) == 0);
        if (strcmp(text, want) != 0)
            fprintf(stderr, "got:\n%s", text);
    }
    free(text);
    md_table_free(t);
}

int main(void)
{
    test_gflops();
    test_ms();
    test_fraction_and_gain();
    test_shape_and_names();
    test_markdown();
    return CHECK_DONE();
}
