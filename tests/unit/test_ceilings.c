/* ladder ceilings without a device: the ceilings file's update rule (one line per device,
 * replaced in place; other lines, comments and five-field lines kept; the project's header
 * renewed, someone else's comments kept; a file that is not a ceilings file refused and
 * left as it was; --force writing anew), the read probe's default buffer, and the FP64
 * probe on a device without double (not supported, with the reason; nothing launched). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "base/text_file.h"
#include "core/ceilings.h"
#include "report/ceilings_file.h"

static char dir[] = "/tmp/ladder-test-ceilings-XXXXXX";

/* The path of the file `name` in the scratch folder (a static buffer), first written with
 * `text` when that is not NULL. */
static const char *scratch(const char *name, const char *text)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = text ? fopen(path, "w") : NULL;
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

/* The file's text (a static buffer, "" when unreadable). */
static const char *text_of(const char *path)
{
    static char copy[8192];
    char *text = NULL, msg[LADDER_MSG];
    copy[0] = '\0';
    if (text_file_read(path, &text, NULL, msg) == LADDER_OK)
        snprintf(copy, sizeof copy, "%s", text);
    free(text);
    return copy;
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static ceilings_entry entry(const char *device, double fp32, double read, double fp64)
{
    ceilings_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.device, sizeof e.device, "%s", device);
    e.fp32_fma_gflops = fp32;
    e.read_gbps = read;
    e.fp64_fma_gflops = fp64;
    snprintf(e.date, sizeof e.date, "2026-11-25");
    snprintf(e.source, sizeof e.source, "a test");
    return e;
}

static void test_new_file(void)
{
    char msg[LADDER_MSG];
    const char *path = scratch("new.tsv", NULL);
    ceilings_entry e = entry("Fake GPU", 65100.4, 3066, 0);
    CHECK(ceilings_file_update(path, &e, 0, msg) == LADDER_OK);
    const char *text = text_of(path);
    CHECK(strncmp(text, CEILINGS_HEADER_START, strlen(CEILINGS_HEADER_START)) == 0);
    CHECK(strstr(text, "\nFake GPU\t65100\t3066\t2026-11-25\ta test\t-\n") != NULL);
    char partial[4200];
    snprintf(partial, sizeof partial, "%s.partial", path);
    CHECK(access(partial, F_OK) != 0);

    /* It reads back: FP64 "-" is 0, not measured. */
    ceilings_entry *got = NULL;
    int count = 0, found = 0;
    CHECK(ceilings_file_read(path, &got, &count, &found, msg) == LADDER_OK);
    CHECK(found == 1 && count == 1);
    CHECK(count == 1 && got[0].fp32_fma_gflops == 65100 && got[0].fp64_fma_gflops == 0);
    free(got);
}

static void test_update_in_place(void)
{
    char msg[LADDER_MSG];
    const char *path = scratch("update.tsv", "# gemm-ladder device ceilings, an older header\n"
                     "#   of two lines\n"
                     "Other GPU\t100\t10\t2026-01-01\tsomewhere\n"
                     "Fake GPU\t1\t2\t2026-01-01\tthe old line\n"
                     "# a note of the user's\n"
                     "Fake GPU 2\t5\t6\t2026-01-01\ta device whose name starts the same\t7\n");
    ceilings_entry e = entry("Fake GPU", 123.456, 45.6789, 61.7);
    CHECK(ceilings_file_update(path, &e, 0, msg) == LADDER_OK);
    const char *text = text_of(path);
    CHECK(count_of(text, CEILINGS_HEADER_START) == 1);
    CHECK(strstr(text, "an older header") == NULL);           /* the header renewed */
    CHECK(strstr(text, "fp64_fma_gflops") != NULL);
    CHECK(count_of(text, "\nFake GPU\t") == 1);                /* replaced, not added */
    CHECK(strstr(text, "\nFake GPU\t123.5\t45.68\t2026-11-25\ta test\t61.7\n") != NULL);
    CHECK(strstr(text, "\nOther GPU\t100\t10\t2026-01-01\tsomewhere\n") != NULL);
    CHECK(strstr(text, "\n# a note of the user's\n") != NULL);
    CHECK(strstr(text, "\nFake GPU 2\t5\t6\t2026-01-01\ta device whose name starts the "
                       "same\t7\n") != NULL);
    /* In its place: after Other GPU, before the note. */
    const char *other = strstr(text, "Other GPU"), *mine = strstr(text, "\nFake GPU\t"),
               *note = strstr(text, "# a note");
    CHECK(other && mine && note && other < mine && mine < note);

    /* A new device goes at the end; the others stay. */
    ceilings_entry third = entry("Third GPU", 10, 1, 5);
    CHECK(ceilings_file_update(path, &third, 0, msg) == LADDER_OK);
    text = text_of(path);
    size_t len = strlen(text);
    const char *tail = "\nThird GPU\t10\t1\t2026-11-25\ta test\t5\n";
    CHECK(len > strlen(tail) && strcmp(text + len - strlen(tail), tail) == 0);
    CHECK(count_of(text, "\nFake GPU\t") == 1 && count_of(text, "Other GPU") == 1);
}

static void test_foreign_comments_kept(void)
{
    char msg[LADDER_MSG];
    const char *path = scratch("mine.tsv", "# my own ceilings, measured by hand\n"
                     "Fake GPU\t1\t2\t2026-01-01\tby hand");    /* no final newline */
    ceilings_entry e = entry("Fake GPU", 7, 8, 9);
    CHECK(ceilings_file_update(path, &e, 0, msg) == LADDER_OK);
    CHECK(strcmp(text_of(path), "# my own ceilings, measured by hand\n"
                                "Fake GPU\t7\t8\t2026-11-25\ta test\t9\n") == 0);
}

static void test_refused_and_forced(void)
{
    char msg[LADDER_MSG];
    const char *csv = "device,rung,gflops\nFake GPU,3,100\n";
    const char *path = scratch("results.csv", csv);
    ceilings_entry e = entry("Fake GPU", 7, 8, 9);
    CHECK(ceilings_file_update(path, &e, 0, msg) == LADDER_ERROR);
    CHECK(strstr(msg, "results.csv:1:") != NULL);
    CHECK(strcmp(text_of(path), csv) == 0);
    /* --force: the header and this line, whatever was there. */
    CHECK(ceilings_file_update(path, &e, 1, msg) == LADDER_OK);
    const char *text = text_of(path);
    CHECK(strncmp(text, CEILINGS_HEADER_START, strlen(CEILINGS_HEADER_START)) == 0);
    CHECK(strstr(text, "device,rung") == NULL);
    CHECK(count_of(text, "\nFake GPU\t7\t8\t") == 1);
}

static void test_default_bytes(void)
{
    device_info d;
    memset(&d, 0, sizeof d);
    d.is_gpu = 1;
    d.max_alloc_bytes = d.global_mem_bytes = (size_t)80 << 30;
    CHECK(ceilings_default_bytes(&d) == (size_t)1 << 30);
    d.is_gpu = 0;
    CHECK(ceilings_default_bytes(&d) == (size_t)2 << 30);
    d.max_alloc_bytes = ((size_t)1 << 30) + 7; /* the largest buffer, to 16 bytes */
    CHECK(ceilings_default_bytes(&d) == (size_t)1 << 30);
    d.global_mem_bytes = (size_t)1 << 30;      /* half the memory at most */
    CHECK(ceilings_default_bytes(&d) == (size_t)1 << 29);
}

static void test_no_double(void)
{
    run_target t;
    memset(&t, 0, sizeof t); /* no backend: nothing may be launched */
    snprintf(t.dev.backend, sizeof t.dev.backend, "opencl");
    t.dev.fp64 = 0;
    ceilings_plan plan = {.read_bytes = 1 << 20, .reps = 3, .max_seconds = 0.1};
    ceiling_figure f;
    char msg[LADDER_MSG];
    CHECK(ceiling_fma(&t, PRECISION_DOUBLE, &plan, &f, msg) == LADDER_OK);
    CHECK(f.status == LADDER_UNSUPPORTED && f.value == 0);
    CHECK(strstr(f.why, "no double") != NULL);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_new_file();
    test_update_in_place();
    test_foreign_comments_kept();
    test_refused_and_forced();
    test_default_bytes();
    test_no_double();
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
