/* The tuning database: the file round trip, the update rule, corrupt files named by line,
 * the source fingerprint, and how ladder run picks (or refuses) tuned parameters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "base/kernel_path.h"
#include "rungs/registry.h"
#include "base/source_hash.h"
#include "params/params.h"
#include "params/tuned_params.h"
#include "params/tuning_db.h"
#include "base/paths.h"
#include "params/tuning_paths.h"

static char dir[] = "/tmp/ladder-test-tuning-XXXXXX";

static void path_of(const char *name, char *out)
{
    snprintf(out, 4096, "%s/%s", dir, name);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static tuning_entry entry(const char *params, double gflops, const char *hash)
{
    tuning_entry e;
    memset(&e, 0, sizeof e);
    strcpy(e.backend, "opencl");
    strcpy(e.device, "Fake GPU");
    e.rung = 3;
    e.cls = SIZE_SMALL;
    snprintf(e.params, sizeof e.params, "%s", params);
    e.gflops = gflops;
    strcpy(e.sizes, "64x64x64");
    strcpy(e.kernel, "03-wpt.cl");
    snprintf(e.kernel_fnv1a, sizeof e.kernel_fnv1a, "%s", hash);
    strcpy(e.driver, "1.0");
    strcpy(e.date, "2025-01-01T00:00:00Z");
    e.file = -1;
    return e;
}

static device_info fake_gpu(void)
{
    device_info d;
    memset(&d, 0, sizeof d);
    strcpy(d.backend, "opencl");
    strcpy(d.name, "Fake GPU");
    d.local_mem_bytes = 48 * 1024;
    d.max_work_group_size = 1024;
    d.max_work_item_sizes[0] = d.max_work_item_sizes[1] = 1024;
    return d;
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[4096], msg[LADDER_MSG];
    int found;

    /* FNV-1a 64 test vectors, and the same through a file. */
    CHECK(fnv1a64("", 0, FNV1A64_OFFSET) == 0xcbf29ce484222325ull);
    CHECK(fnv1a64("a", 1, FNV1A64_OFFSET) == 0xaf63dc4c8601ec8cull);
    /* A file's fingerprint: the bytes hash of "a" is the test vector's; its code is "a\n"
     * (source_strip ends each line it keeps with a newline). */
    kernel_fingerprint fa, fb;
    path_of("a.txt", path);
    write_file(path, "a");
    CHECK(kernel_fingerprint_file(path, &fa, msg) == LADDER_OK &&
          strcmp(fa.bytes, "af63dc4c8601ec8c") == 0);
    char hex[SOURCE_HASH_HEX];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fnv1a64("a\n", 2, FNV1A64_OFFSET));
    CHECK(strcmp(fa.code, hex) == 0);
    CHECK(kernel_fingerprint_matches(&fa, fa.code) && kernel_fingerprint_matches(&fa, fa.bytes) &&
          !kernel_fingerprint_matches(&fa, "0000000000000000"));
    /* Comments and blank lines do not change the code hash; they change the bytes hash.
     * Code does change it, a string's comment marker included. */
    path_of("k1.cl", path);
    write_file(path, "/* rung 3 */\nkernel void f(int n) { n += 1; }\n");
    CHECK(kernel_fingerprint_file(path, &fa, msg) == LADDER_OK);
    path_of("k2.cl", path);
    write_file(path, "/* rung 3, explained better\n   over two lines */\n\n"
                     "kernel void f(int n) { n += 1; } // why\n");
    CHECK(kernel_fingerprint_file(path, &fb, msg) == LADDER_OK);
    CHECK(strcmp(fa.code, fb.code) == 0 && strcmp(fa.bytes, fb.bytes) != 0);
    CHECK(kernel_fingerprint_matches(&fb, fa.code) && !kernel_fingerprint_matches(&fb, fa.bytes));
    write_file(path, "/* rung 3 */\nkernel void f(int n) { n += 2; }\n");
    CHECK(kernel_fingerprint_file(path, &fb, msg) == LADDER_OK && strcmp(fa.code, fb.code) != 0);
    path_of("none.txt", path);
    CHECK(kernel_fingerprint_file(path, &fa, msg) == LADDER_ERROR && strstr(msg, "none.txt"));

    char slug[64];
    tuning_slug("NVIDIA H100 80GB HBM3", slug, sizeof slug);
    CHECK(strcmp(slug, "nvidia-h100-80gb-hbm3") == 0);
    tuning_slug("pthread-skylake-avx512-Intel(R) Xeon(R) Processor", slug, sizeof slug);
    CHECK(strcmp(slug, "pthread-skylake-avx512-intel-r-xeon-r-processor") == 0);

    /* The update rule: one entry per key; faster or refreshed replaces, slower is kept
     * out, another kernel source always replaces. */
    tuning_db db;
    tuning_db_init(&db);
    tuning_offer what;
    tuning_entry old, e = entry("TS=16 WPT=4", 10.0, "0123456789abcdef");
    CHECK(tuning_db_offer(&db, &e, &what, &old, msg) == LADDER_OK && what == TUNING_ADDED);
    e = entry("TS=32 WPT=8", 9.0, "0123456789abcdef");
    CHECK(tuning_db_offer(&db, &e, &what, &old, msg) == LADDER_OK && what == TUNING_KEPT);
    CHECK(db.count == 1 && strcmp(db.entries[0].params, "TS=16 WPT=4") == 0);
    e = entry("TS=32 WPT=8", 11.0, "0123456789abcdef");
    tuning_db_offer(&db, &e, &what, &old, msg);
    CHECK(what == TUNING_REPLACED && strcmp(old.params, "TS=16 WPT=4") == 0);
    e = entry("TS=32 WPT=8", 8.0, "0123456789abcdef"); /* same parameters: refreshed */
    tuning_db_offer(&db, &e, &what, &old, msg);
    CHECK(what == TUNING_REPLACED && db.entries[0].gflops == 8.0);
    e = entry("TS=8 WPT=2", 1.0, "fedcba9876543210");
    tuning_db_offer(&db, &e, &what, &old, msg);
    CHECK(what == TUNING_REPLACED_STALE && db.count == 1);
    e = entry("TS=8 WPT=2", 1.0, "fedcba9876543210");
    e.cls = SIZE_LARGE; /* another key */
    tuning_db_offer(&db, &e, &what, &old, msg);
    CHECK(what == TUNING_ADDED && db.count == 2);
    strcpy(db.entries[1].device, "Fake\tGPU"); /* what tuning_field prevents */
    tuning_field(db.entries[1].device, sizeof db.entries[1].device, "Fake\tGPU");
    CHECK(strcmp(db.entries[1].device, "Fake GPU") == 0);

    /* Written and read back: the same entries. */
    path_of("db.tsv", path);
    CHECK(tuning_db_write(&db, path, msg) == LADDER_OK);
    tuning_db back;
    tuning_db_init(&back);
    CHECK(tuning_db_read(&back, path, &found, msg) == LADDER_OK && found && back.count == 2);
    CHECK(strcmp(back.entries[0].params, "TS=8 WPT=2") == 0 &&
          back.entries[0].cls == SIZE_SMALL && back.entries[1].cls == SIZE_LARGE &&
          back.entries[0].gflops == 1.0 && back.entries[0].rung == 3 &&
          strcmp(back.entries[0].kernel_fnv1a, "fedcba9876543210") == 0);
    tuning_db_free(&back);

    /* A missing file is no error; a corrupt line names the file and the line, and none
     * of that file's entries are kept. */
    tuning_db_init(&back);
    path_of("missing.tsv", path);
    CHECK(tuning_db_read(&back, path, &found, msg) == LADDER_OK && !found);
    const char *bad[] = {
        "opencl\tFake GPU\t3\tsmall\tTS=16 WPT=4\t10\t64x64x64\t03-wpt.cl\t0123456789abcdef\td\tt\n"
        "# a comment\n\n"
        "opencl\tFake GPU\t3\tlarge\tTS=16 WPT=4\t10\t64x64x64\t03-wpt.cl\t0123456789abcdef\n",
        "metal\tFake GPU\t3\tsmall\tTS=16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\n",
        "opencl\tFake GPU\t3\thuge\tTS=16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\n",
        "opencl\tFake GPU\t3\tsmall\tTS 16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\tfast\t64x64x64\tk\t0123456789abcdef\td\tt\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\t10\t64x64\tk\t0123456789abcdef\td\tt\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\t10\t64x64x64\tk\tnot-a-hash\td\tt\n",
        "\x01\x02garbage\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\thalf\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\tsingle\tNX\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\tsingle\tnt\n",
        "opencl\tFake GPU\t3\tsmall\tTS=16\t10\t64x64x64\tk\t0123456789abcdef\td\tt\tsingle\tNN\tx\n",
    };
    const char *expect[] = {"corrupt.tsv:4: expected 13", "backend", "size_class", "params",
                            "gflops", "sizes", "kernel_fnv1a", "corrupt.tsv:1:",
                            "precision must be single or double",
                            "corrupt.tsv:1: trans must be NN, NT, TN or TT",
                            "trans must be NN, NT, TN or TT", "found more than 13"};
    path_of("corrupt.tsv", path);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i]);
        CHECK(tuning_db_read(&back, path, &found, msg) == LADDER_ERROR && found);
        CHECK(strstr(msg, expect[i]) != NULL);
        CHECK(back.count == 0);
    }
    tuning_db_free(&back);

    /* ladder run's choice. The entry for the current 03-wpt.cl is used for small sizes
     * that its tiles divide; not for other classes, sizes it does not divide, parameters
     * the device cannot take, or another version of the kernel. */
    char kernel[1024], hash[SOURCE_HASH_HEX];
    kernel_fingerprint wpt_fp;
    kernel_path("opencl", "03-wpt", kernel, sizeof kernel);
    CHECK(kernel_fingerprint_file(kernel, &wpt_fp, msg) == LADDER_OK);
    snprintf(hash, sizeof hash, "%s", wpt_fp.code);
    const rung *wpt = registry_find("wpt");
    device_info dev = fake_gpu();
    tuning_db run;
    tuning_db_init(&run);
    e = entry("TS=16 WPT=4", 10.0, hash);
    tuning_db_offer(&run, &e, &what, &old, msg);
    int v[RUNG_MAX_PARAMS] = {0};
    gemm_case single = GEMM_CASE_DEFAULT, dbl = GEMM_CASE_DEFAULT;
    dbl.precision = PRECISION_DOUBLE;
    gemm_size s64 = {64, 64, 64}, s40 = {40, 40, 40}, s4096 = {4096, 4096, 4096};
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1 && v[0] == 16 && v[1] == 4);
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s4096, v, "test") == 0); /* large */
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s40, v, "test") == 0);
    CHECK(tuned_params_count(&run, &dev) == 1);
    device_info other = dev;
    strcpy(other.name, "Other GPU");
    CHECK(tuned_params_find(&run, wpt, &other, &single, &s64, v, "test") == 0);
    CHECK(tuned_params_count(&run, &other) == 0);
    /* A stale entry read later does not hide a current one read earlier. */
    e = entry("TS=8 WPT=2", 20.0, "0000000000000000");
    run.entries[run.count++] = e; /* as if from a second file */
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1 && v[0] == 16);
    run.count = 0;
    run.entries[run.count++] = e; /* only the stale one */
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 0 && run.entries[0].noted);
    /* An older table's entry, recorded with the bytes hash of this very file: used. */
    run.entries[0] = entry("TS=8 WPT=2", 20.0, wpt_fp.bytes);
    run.entries[0].noted = 0;
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1 && v[0] == 8);
    /* tune offers its entry with both hashes of the file: such an older line is the same
     * source, so a slower entry is kept out and a faster one replaces it as fresh; a line
     * with neither hash is stale. */
    e = entry("TS=16 WPT=4", 10.0, hash);
    snprintf(e.kernel_bytes_fnv1a, sizeof e.kernel_bytes_fnv1a, "%s", wpt_fp.bytes);
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK && what == TUNING_KEPT &&
          strcmp(run.entries[0].kernel_fnv1a, wpt_fp.bytes) == 0);
    e.gflops = 30.0;
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK && what == TUNING_REPLACED &&
          strcmp(run.entries[0].kernel_fnv1a, hash) == 0);
    run.entries[0] = entry("TS=8 WPT=2", 20.0, "0000000000000000");
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK &&
          what == TUNING_REPLACED_STALE);
    run.entries[0] = entry("TS=64 WPT=1", 10.0, hash); /* 4096 work-items: too many */
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 0);
    run.entries[0] = entry("TS=16 WPT=4 TSK=8", 10.0, hash); /* not rung 3's parameters */
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 0);
    tuning_db_free(&run);

    /* Precisions are kept apart: a line written before double existed (11 fields) is
     * single; a double entry of the same key is another entry; a run uses the entries of
     * its own precision only. */
    path_of("precisions.tsv", path);
    write_file(path, "opencl\tFake GPU\t3\tsmall\tTS=16 WPT=4\t10\t64x64x64\t03-wpt.cl\t");
    FILE *old_line = fopen(path, "a");
    CHECK(old_line != NULL);
    if (old_line) {
        fprintf(old_line, "%s\td\tt\n", hash);
        fclose(old_line);
    }
    tuning_db_init(&run);
    CHECK(tuning_db_read(&run, path, &found, msg) == LADDER_OK && run.count == 1 &&
          run.entries[0].precision == PRECISION_SINGLE);
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1);
    CHECK(tuned_params_find(&run, wpt, &dev, &dbl, &s64, v, "test") == 0);
    e = entry("TS=8 WPT=2", 5.0, hash);
    e.precision = PRECISION_DOUBLE;
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK && what == TUNING_ADDED &&
          run.count == 2);
    CHECK(tuned_params_find(&run, wpt, &dev, &dbl, &s64, v, "test") == 1 &&
          v[0] == 8 && v[1] == 2);
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1 &&
          v[0] == 16 && v[1] == 4);
    CHECK(tuning_db_write(&run, path, msg) == LADDER_OK);
    tuning_db_free(&run);
    tuning_db_init(&run);
    CHECK(tuning_db_read(&run, path, &found, msg) == LADDER_OK && run.count == 2 &&
          run.entries[1].precision == PRECISION_DOUBLE);
    tuning_db_free(&run);

    /* Transpose pairs are kept apart too: lines without the trans field (11 or 12
     * fields) are NN; a TN entry is used by TN rows only, and an NN entry never by TN
     * rows (they run the defaults, after one note). Rung 15 takes every pair. */
    const rung *sgemm = registry_find("sgemm");
    char sgemm_kernel[1024], sgemm_hash[SOURCE_HASH_HEX];
    kernel_fingerprint sgemm_fp;
    kernel_path("opencl", "15-sgemm", sgemm_kernel, sizeof sgemm_kernel);
    CHECK(kernel_fingerprint_file(sgemm_kernel, &sgemm_fp, msg) == LADDER_OK);
    snprintf(sgemm_hash, sizeof sgemm_hash, "%s", sgemm_fp.code);
    path_of("pairs.tsv", path);
    {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            /* 11 fields (before double), then 12 (before the pairs): both NN. */
            fprintf(f, "opencl\tFake GPU\t15\tsmall\tTSM=64 TSN=64 TSK=8 WM=32\t10\t64x64x64\t"
                       "15-sgemm.cl\t%s\td\tt\n", sgemm_hash);
            fprintf(f, "opencl\tFake GPU\t15\tlarge\tTSM=64 TSN=64 TSK=8 WM=32\t10\t4096x4096x4096\t"
                       "15-sgemm.cl\t%s\td\tt\tsingle\n", sgemm_hash);
            fprintf(f, "opencl\tFake GPU\t15\tsmall\tTSM=64 TSN=64 TSK=16 WM=32\t10\t64x64x64\t"
                       "15-sgemm.cl\t%s\td\tt\tsingle\tTN\n", sgemm_hash);
            fclose(f);
        }
    }
    tuning_db_init(&run);
    CHECK(tuning_db_read(&run, path, &found, msg) == LADDER_OK && run.count == 3);
    CHECK(run.entries[0].trans_a == 0 && run.entries[0].trans_b == 0 &&
          run.entries[1].trans_a == 0 && run.entries[1].trans_b == 0 &&
          run.entries[2].trans_a == 1 && run.entries[2].trans_b == 0);
    gemm_case tn = GEMM_CASE_DEFAULT, nt = GEMM_CASE_DEFAULT, tt = GEMM_CASE_DEFAULT;
    tn.trans_a = 1;
    nt.trans_b = 1;
    tt.trans_a = tt.trans_b = 1;
    int sgemm_tsk = rung_param_index(sgemm, "TSK");
    CHECK(sgemm_tsk >= 0);
    CHECK(tuned_params_find(&run, sgemm, &dev, &single, &s64, v, "test") == 1 &&
          v[sgemm_tsk] == 8);
    CHECK(tuned_params_find(&run, sgemm, &dev, &tn, &s64, v, "test") == 1 &&
          v[sgemm_tsk] == 16);
    CHECK(!run.entries[0].noted_pair);
    CHECK(tuned_params_find(&run, sgemm, &dev, &nt, &s64, v, "test") == 0);
    CHECK(run.entries[0].noted_pair && run.entries[2].noted_pair); /* the note was said */
    CHECK(tuned_params_find(&run, sgemm, &dev, &tt, &s64, v, "test") == 0);
    /* A large TN row: only the NN entry has that class, so the defaults. */
    CHECK(tuned_params_find(&run, sgemm, &dev, &tn, &s4096, v, "test") == 0);
    CHECK(tuned_params_find(&run, sgemm, &dev, &single, &s4096, v, "test") == 1);
    /* The same key but another pair is another entry; written and read back, the pair
     * stays. */
    e = entry("TSM=64 TSN=64 TSK=8 WM=32", 12.0, sgemm_hash);
    e.rung = 15;
    e.trans_a = e.trans_b = 1;
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK && what == TUNING_ADDED &&
          run.count == 4);
    e.gflops = 13.0;
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK &&
          what == TUNING_REPLACED && run.count == 4);
    CHECK(tuning_db_write(&run, path, msg) == LADDER_OK);
    tuning_db_free(&run);
    tuning_db_init(&run);
    CHECK(tuning_db_read(&run, path, &found, msg) == LADDER_OK && run.count == 4 &&
          run.entries[2].trans_a == 1 && run.entries[2].trans_b == 0 &&
          run.entries[3].trans_a == 1 && run.entries[3].trans_b == 1 &&
          run.entries[0].trans_a == 0 && run.entries[1].precision == PRECISION_SINGLE);
    CHECK(tuned_params_find(&run, sgemm, &dev, &tt, &s64, v, "test") == 1 &&
          v[sgemm_tsk] == 8);
    tuning_db_free(&run);

    /* A rung whose helpers transpose (rung 5 reads B^T made by one) multiplies NN in
     * every pair: ladder run gives a TN or TT row its NN entry, where rung 15 (which
     * transposes in its kernel) ran its defaults above. */
    const rung *tr = registry_find("transpose");
    char tr_kernel[1024], tr_hash[SOURCE_HASH_HEX];
    kernel_fingerprint tr_fp;
    kernel_path("opencl", "05-transpose", tr_kernel, sizeof tr_kernel);
    CHECK(tr && rung_transposes_by_helpers(tr) && !rung_transposes_by_helpers(sgemm));
    CHECK(kernel_fingerprint_file(tr_kernel, &tr_fp, msg) == LADDER_OK);
    snprintf(tr_hash, sizeof tr_hash, "%s", tr_fp.code);
    tuning_db_init(&run);
    e = entry("TSM=64 TSN=64 TSK=16 WIDTH=4 WPTN=8", 11.0, tr_hash);
    e.rung = 5;
    strcpy(e.kernel, "05-transpose.cl");
    CHECK(tuning_db_offer(&run, &e, &what, &old, msg) == LADDER_OK && what == TUNING_ADDED);
    for (int pair = 0; pair < 4; pair++) {
        param_policy pol = {NULL, 0, 0, &run, "test", PRECISION_SINGLE, pair >> 1, pair & 1};
        const char *source = "?";
        int tsk = rung_param_index(tr, "TSK");
        CHECK(params_for_row(&pol, tr, &dev, &s64, v, &source, msg) == LADDER_OK &&
              strcmp(source, "tuned") == 0 && v[tsk] == 16);
    }
    tuning_db_free(&run);

    /* The committed database of the H100 (entries per pair since 2026-11-25) reads
     * without error; most of its entries are NN, and rung 18 has one for TN. */
    tuning_db_init(&run);
    CHECK(tuning_db_read(&run, LADDER_SOURCE_DIR "/tuning/nvidia-h100-80gb-hbm3.tsv", &found,
                         msg) == LADDER_OK && found && run.count > 0);
    int nn = 0, tn18 = 0;
    for (int i = 0; i < run.count; i++) {
        nn += !run.entries[i].trans_a && !run.entries[i].trans_b;
        tn18 += run.entries[i].rung == 18 && run.entries[i].trans_a && !run.entries[i].trans_b;
    }
    CHECK(nn > run.count / 2 && tn18 == 1);
    tuning_db_free(&run);

    /* Reading for ladder run: the committed folder, then the user's file, which wins; a
     * corrupt file is skipped with a warning, the others still count. */
    char committed[4096], user[4096], file[4096 + 16];
    path_of("committed", committed);
    path_of("user.tsv", user);
    CHECK(mkdir(committed, 0777) == 0);
    tuning_db one;
    tuning_db_init(&one);
    e = entry("TS=16 WPT=4", 10.0, hash);
    tuning_db_offer(&one, &e, &what, &old, msg);
    snprintf(file, sizeof file, "%s/a.tsv", committed);
    CHECK(tuning_db_write(&one, file, msg) == LADDER_OK);
    snprintf(file, sizeof file, "%s/b.tsv", committed);
    write_file(file, "not a database\n");
    one.entries[0] = entry("TS=8 WPT=2", 5.0, hash);
    CHECK(tuning_db_write(&one, user, msg) == LADDER_OK);
    tuning_db_free(&one);
    setenv("LADDER_TUNING_DIR", committed, 1);
    setenv("LADDER_TUNING_DB", user, 1);
    tuning_db_init(&run);
    CHECK(tuning_load_for_run(&run, NULL, "test", msg) == LADDER_OK && run.nfiles == 2);
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1 && v[0] == 8);
    tuning_db_free(&run);
    remove(user);
    tuning_db_init(&run);
    CHECK(tuning_load_for_run(&run, NULL, "test", msg) == LADDER_OK && run.nfiles == 1);
    CHECK(tuned_params_find(&run, wpt, &dev, &single, &s64, v, "test") == 1 && v[0] == 16);
    tuning_db_free(&run);
    tuning_db_init(&run);
    CHECK(tuning_load_for_run(&run, user, "test", msg) == LADDER_ERROR &&
          strstr(msg, "no such file"));
    tuning_db_free(&run);
    char where[4096];
    CHECK(tuning_user_path(where, sizeof where, msg) == LADDER_OK && strcmp(where, user) == 0);
    unsetenv("LADDER_TUNING_DB");
    setenv("XDG_CONFIG_HOME", "/config", 1);
    CHECK(tuning_user_path(where, sizeof where, msg) == LADDER_OK &&
          strcmp(where, "/config/gemm-ladder/tuning.tsv") == 0);

    /* The parent folders of a new database are made. */
    path_of("deep/er/db.tsv", file);
    CHECK(make_parent_dirs(file, msg) == LADDER_OK);
    write_file(file, "");
    CHECK(access(file, F_OK) == 0);

    tuning_db_free(&db);
    char cleanup[4200];
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", dir);
    if (system(cleanup) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
