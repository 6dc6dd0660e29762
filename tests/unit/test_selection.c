/* The shape-aware entry's selection table and its look-up: the file written and read back
 * field by field, a corrupt file refused whole (FILE:LINE) without touching what was read
 * before, the later file winning, and the look-up: the exact shape, the nearest shape of
 * the same class (never of another class), the fallback rule, entries that cannot be used
 * (a changed kernel, a rung that is missing or not float32-accurate, parameters the rung
 * refuses) passed over, and the profiler's replace-or-keep rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "params/selection.h"
#include "params/tuning_db.h"

static device_info device(const char *backend)
{
    device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.backend, sizeof d.backend, "%s", backend);
    snprintf(d.name, sizeof d.name, "Test Device");
    d.local_mem_bytes = 64 * 1024;
    d.cc_major = 9;
    d.max_work_group_size = 1024;
    d.max_work_item_sizes[0] = d.max_work_item_sizes[1] = 1024;
    d.subgroups = 1;
    return d;
}

static const rung *find(const char *key) { return registry_find(key); }

/* An entry for rung `r` at M x N x K with `params`, hashed as the kernel is now. */
static selection_entry entry(const char *backend, const rung *r, long M, long N, long K,
                             const char *params, double gflops)
{
    selection_entry e;
    memset(&e, 0, sizeof e);
    char msg[LADDER_MSG], file[256];
    snprintf(e.backend, sizeof e.backend, "%s", backend);
    snprintf(e.device, sizeof e.device, "Test Device");
    e.M = M;
    e.N = N;
    e.K = K;
    gemm_size s = {M, N, K};
    e.label = shape_label(&s);
    e.rung = r->number;
    snprintf(e.params, sizeof e.params, "%s", params);
    e.gflops = gflops;
    snprintf(e.library, sizeof e.library, "clblast");
    e.library_gflops = 2 * gflops;
    kernel_fingerprint fp;
    CHECK(selection_kernel(backend, r, file, sizeof file, &fp, msg) == LADDER_OK);
    snprintf(e.kernel_fnv1a, sizeof e.kernel_fnv1a, "%s", fp.code);
    snprintf(e.kernel, sizeof e.kernel, "%s", file);
    snprintf(e.driver, sizeof e.driver, "driver 1.0");
    snprintf(e.date, sizeof e.date, "2026-01-01T00:00:00Z");
    return e;
}

/* What auto runs at M x N x K: "rung=N params [source]". */
static void choose(tuning_db *db, const device_info *dev, long M, long N, long K, char *out,
                   size_t size)
{
    param_policy pol = {NULL, 0, 0, db, "test_selection", PRECISION_SINGLE, 0, 0};
    gemm_size s = {M, N, K};
    const rung *r = NULL;
    int values[RUNG_MAX_PARAMS] = {0};
    const char *source = "?";
    char msg[LADDER_MSG], params[160];
    if (params_for_auto(&pol, dev, &s, NULL, &r, values, &source, msg) != LADDER_OK) {
        snprintf(out, size, "unsupported: %s", msg);
        return;
    }
    params_auto_string(r, values, params, sizeof params);
    snprintf(out, size, "%s [%s]", params, source);
}

/* The rung the fallback rule should pick for a size on a device: the first of its list
 * that names a rung there, that the registry has, may choose and the backend runs. */
static const rung *rule_rung(const gemm_size *s, const device_info *dev)
{
    const rule_entry *list = selection_fallback_rungs[selection_rule_list(s, dev)];
    for (int i = 0; i < RULE_LIST_MAX && list[i].rung; i++) {
        const rung *r = selection_list_rung(&list[i], s, dev);
        if (selection_rung_eligible(r) && rung_on_backend(r, dev->backend))
            return r;
    }
    return NULL;
}

/* "rung=N <its defaults, as its own rule sets them for the shape> [fallback]" */
static void expected_fallback(const gemm_size *s, const device_info *dev, char *out,
                              size_t size)
{
    const rung *r = rule_rung(s, dev);
    int values[RUNG_MAX_PARAMS] = {0};
    char params[160];
    rung_defaults(r, 0, values);
    if (r->rule_params)
        r->rule_params(values, s, dev);
    params_auto_string(r, values, params, sizeof params);
    snprintf(out, size, "%s [fallback]", params);
}

/* Puts every entry of `list` into the table. */
static void put_all(selection_table *t, const selection_entry *const *list, int n)
{
    char msg[LADDER_MSG];
    for (int i = 0; i < n; i++)
        CHECK(selection_table_put(t, list[i], msg) == LADDER_OK);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_file_format(const char *dir)
{
    char path[512], msg[LADDER_MSG];
    snprintf(path, sizeof path, "%s/table.tsv", dir);
    selection_table t;
    selection_table_init(&t);
    selection_entry a = entry("opencl", find("15"), 128, 128, 32768, "TSM=64 TSN=64 TSK=8 WM=16",
                              123.45);
    selection_entry b = entry("opencl", find("11"), 997, 1013, 1009,
                              "TSM=64 TSN=64 TSK=8 WPTM=4 WPTN=4", 50);
    const selection_entry *const both[] = {&a, &b};
    put_all(&t, both, 2);
    CHECK(t.count == 2);
    CHECK(selection_table_write(&t, path, msg) == LADDER_OK);
    char partial[600];
    snprintf(partial, sizeof partial, "%s.partial", path);
    CHECK(access(partial, F_OK) != 0);

    selection_table back;
    selection_table_init(&back);
    int found = 0;
    CHECK(selection_table_read(&back, path, &found, msg) == LADDER_OK && found == 1);
    CHECK(back.count == 2);
    const selection_entry *r = selection_table_find(&back, "opencl", "Test Device", 997, 1013,
                                                    1009);
    CHECK(r && r->rung == 11 && strcmp(r->params, b.params) == 0 && r->label == SHAPE_ODD);
    r = selection_table_find(&back, "opencl", "Test Device", 128, 128, 32768);
    CHECK(r && r->gflops == 123.45 && r->library_gflops == 246.9 &&
          strcmp(r->library, "clblast") == 0 && strcmp(r->kernel, "15-sgemm.cl") == 0 &&
          strcmp(r->kernel_fnv1a, a.kernel_fnv1a) == 0 && strcmp(r->driver, "driver 1.0") == 0 &&
          strcmp(r->date, a.date) == 0 && r->label == SHAPE_LONG_K);
    CHECK(selection_table_find(&back, "cuda", "Test Device", 128, 128, 32768) == NULL);

    /* A missing file is not an error. */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/none.tsv", dir);
    CHECK(selection_table_read(&back, missing, &found, msg) == LADDER_OK && found == 0);

    /* A later file wins for the same key; a corrupt file adds and replaces nothing. */
    char later[600], corrupt[600];
    snprintf(later, sizeof later, "%s/later.tsv", dir);
    write_file(later, "# a later table\n"
                      "opencl\tTest Device\t997x1013x1009\todd\t15\tTSM=64 TSN=64 TSK=8 WM=16"
                      "\t60\tclblast\t40\t15-sgemm.cl\t0123456789abcdef\td\tt\n");
    CHECK(selection_table_read(&back, later, &found, msg) == LADDER_OK);
    r = selection_table_find(&back, "opencl", "Test Device", 997, 1013, 1009);
    CHECK(back.count == 2 && r && r->rung == 15 && r->gflops == 60);
    const char *bad_lines[][2] = {
        {"opencl\tTest Device\t997x1013\todd\t15\tTSM=64\t1\tnone\t0\tk.cl\t0123456789abcdef\td\tt\n",
         ":2: shape must look like"},
        {"opencl\tTest Device\t8x8x8\ttall\t15\tTSM=64\t1\tnone\t0\tk.cl\t0123456789abcdef\td\tt\n",
         ":2: class must be"},
        {"opencl\tTest Device\t8x8x8\tgemv\t0\tTSM=64\t1\tnone\t0\tk.cl\t0123456789abcdef\td\tt\n",
         ":2: rung must be"},
        {"opencl\tTest Device\t8x8x8\tgemv\t15\tTSM=64\t-1\tnone\t0\tk.cl\t0123456789abcdef\td\tt\n",
         ":2: gflops must be"},
        {"opencl\tTest Device\t8x8x8\tgemv\t15\tTSM=64\t1\tnone\t0\tk.cl\t0123\td\tt\n",
         ":2: kernel_fnv1a must be"},
        {"metal\tTest Device\t8x8x8\tgemv\t15\tTSM=64\t1\tnone\t0\tk.cl\t0123456789abcdef\td\tt\n",
         ":2: backend must be"},
        {"opencl\tTest Device\t8x8x8\tgemv\n", ":2: expected 13 tab-separated fields, found 4"},
    };
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "opencl\tTest Device\t997x1013x1009\todd\t11\tTSM=64 TSN=64 TSK=8 WPTM=4 WPTN=4"
                 "\t99\tclblast\t40\t11-edges.cl\t0123456789abcdef\td\tt\n%s", bad_lines[i][0]);
        snprintf(corrupt, sizeof corrupt, "%s/corrupt.tsv", dir);
        write_file(corrupt, text);
        msg[0] = '\0';
        CHECK(selection_table_read(&back, corrupt, &found, msg) == LADDER_ERROR);
        CHECK(strstr(msg, "corrupt.tsv") && strstr(msg, bad_lines[i][1]));
        if (!strstr(msg, bad_lines[i][1]))
            fprintf(stderr, "  message was: %s\n", msg);
        r = selection_table_find(&back, "opencl", "Test Device", 997, 1013, 1009);
        CHECK(back.count == 2 && r && r->rung == 15); /* its first, good line was not kept */
    }
    selection_table_free(&back);
    selection_table_free(&t);
}

static void test_lookup(void)
{
    device_info ocl = device("opencl");
    tuning_db db;
    tuning_db_init(&db);
    char got[512], want[512], msg[LADDER_MSG];
    const char *square = "TSM=64 TSN=128 TSK=8 WM=16";
    const char *longk = "TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=4";
    selection_entry e1 = entry("opencl", find("15"), 4096, 4096, 4096, square, 100);
    selection_entry e2 = entry("opencl", find("11"), 128, 128, 32768, longk, 10);
    /* Another device's entry, at a shape nearer to the queries below: never used. */
    selection_entry other = entry("opencl", find("12"), 3000, 3000, 3000,
                                  "TSM=64 TSN=64 TSK=8 WM=16", 500);
    snprintf(other.device, sizeof other.device, "Other Device");
    const selection_entry *const usable[] = {&e1, &e2, &other};
    put_all(&db.selection, usable, 3);

    /* The exact shape. */
    choose(&db, &ocl, 4096, 4096, 4096, got, sizeof got);
    CHECK(strcmp(got, "rung=15 TSM=64 TSN=128 TSK=8 WM=16 [selected]") == 0);
    /* The nearest shape of the same class. */
    choose(&db, &ocl, 3000, 2500, 2000, got, sizeof got);
    CHECK(strcmp(got, "rung=15 TSM=64 TSN=128 TSK=8 WM=16 [selected]") == 0);
    choose(&db, &ocl, 100, 100, 50000, got, sizeof got);
    CHECK(strcmp(got, "rung=11 TSM=64 TSN=64 TSK=16 WPTM=4 WPTN=4 [selected]") == 0);
    /* A class the table lacks (GEMV-like, small-k): the fallback rule, never another
     * class's entry. */
    choose(&db, &ocl, 1, 4096, 4096, got, sizeof got);
    expected_fallback(&(gemm_size){1, 4096, 4096}, &ocl, want, sizeof want);
    CHECK(strcmp(got, want) == 0);
    choose(&db, &ocl, 4096, 4096, 64, got, sizeof got);
    expected_fallback(&(gemm_size){4096, 4096, 64}, &ocl, want, sizeof want);
    CHECK(strcmp(got, want) == 0);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "  got %s, want %s\n", got, want);
    /* --defaults (no tuning database): the rule even where the table has the shape. */
    param_policy plain = {NULL, 0, 0, NULL, "test_selection", PRECISION_SINGLE, 0, 0};
    gemm_size s = {4096, 4096, 4096};
    const rung *r = NULL;
    int values[RUNG_MAX_PARAMS] = {0};
    const char *source = "?";
    CHECK(params_for_auto(&plain, &ocl, &s, NULL, &r, values, &source, msg) == LADDER_OK);
    CHECK(strcmp(source, "fallback") == 0 && r == rule_rung(&s, &ocl));
    /* --small-defaults too. */
    plain.tuning = &db;
    plain.small_defaults = 1;
    CHECK(params_for_auto(&plain, &ocl, &s, NULL, &r, values, &source, msg) == LADDER_OK);
    CHECK(strcmp(source, "fallback") == 0);
    /* Another case on the table's choice: the rung is kept, but its parameters are those
     * of the case (rung 15's defaults in double and in TN: the database has no tuned
     * entry), not the table's, which were measured for single NN. */
    plain.small_defaults = 0;
    const rung *r15 = find("15");
    for (int k = 0; k < 2; k++) {
        gemm_case c = GEMM_CASE_DEFAULT;
        if (k == 0)
            c.precision = PRECISION_DOUBLE;
        else
            c.trans_a = 1;
        plain.precision = c.precision;
        plain.trans_a = c.trans_a;
        int want_values[RUNG_MAX_PARAMS] = {0};
        const char *want_source;
        CHECK(params_resolve(r15, NULL, 0, 0, &ocl, c.precision, want_values, &want_source,
                             msg) == LADDER_OK);
        CHECK(params_for_auto(&plain, &ocl, &s, &c, &r, values, &source, msg) == LADDER_OK);
        CHECK(r == r15 && strcmp(source, "selected-rung") == 0 &&
              memcmp(values, want_values, sizeof(int) * (size_t)r15->nparams) == 0);
    }
    plain.precision = PRECISION_SINGLE;
    plain.trans_a = 0;
    /* On CUDA, the square class's first choice is rung 17 (banks). */
    device_info gpu = device("cuda");
    choose(&db, &gpu, 4096, 4096, 4096, got, sizeof got);
    CHECK(strncmp(got, "rung=17 ", 8) == 0 && strstr(got, "[fallback]"));

    /* Entries that cannot be used are passed over: a changed kernel, a rung the ladder
     * lacks, one that is not float32-accurate, parameters the rung refuses. The look-up
     * then takes the next nearest usable entry of the class. */
    selection_entry stale = entry("opencl", find("12"), 4000, 4000, 4000, square, 900);
    snprintf(stale.kernel_fnv1a, sizeof stale.kernel_fnv1a, "0000000000000000");
    selection_entry missing = e1, refused = e1, loose = e1;
    missing.M = missing.N = missing.K = 4001;
    missing.rung = 999;
    refused.M = refused.N = refused.K = 4002;
    snprintf(refused.params, sizeof refused.params, "TSM=7 TSN=64 TSK=8 WM=16");
    loose = entry("cuda", find("16"), 4096, 4096, 4096,
                  "TSM=128 TSN=128 TSK=16 WM=64 WN=64 STAGES=2", 900);
    const selection_entry *const unusable[] = {&stale, &missing, &refused, &loose};
    put_all(&db.selection, unusable, 4);
    choose(&db, &ocl, 4000, 4000, 4000, got, sizeof got);
    CHECK(strcmp(got, "rung=15 TSM=64 TSN=128 TSK=8 WM=16 [selected]") == 0);
    choose(&db, &gpu, 4096, 4096, 4096, got, sizeof got);
    CHECK(strncmp(got, "rung=17 ", 8) == 0 && strstr(got, "[fallback]"));
    int noted = 0;
    for (int i = 0; i < db.selection.count; i++)
        noted += db.selection.entries[i].verdict < 0;
    CHECK(noted == 4); /* each said once, then never looked at again */
    /* A table entry for rung 17, whose helpers transpose: every single pair keeps the
     * table's parameters (its kernel multiplies NN), while double takes the case's own. */
    const rung *r17 = find("17");
    const char *banks = "TSM=64 TSN=64 TSK=16 WPTM=8 WPTN=8 STAGES=2";
    selection_entry e17 = entry("cuda", r17, 2048, 2048, 2048, banks, 100);
    const selection_entry *const cuda_entries[] = {&e17};
    put_all(&db.selection, cuda_entries, 1);
    int table_values[RUNG_MAX_PARAMS] = {0};
    CHECK(rung_params_parse(r17, banks, table_values, msg) == LADDER_OK);
    gemm_size s2048 = {2048, 2048, 2048};
    for (int pair = 0; pair < 4; pair++) {
        gemm_case c = GEMM_CASE_DEFAULT;
        c.trans_a = pair >> 1;
        c.trans_b = pair & 1;
        plain.trans_a = c.trans_a;
        plain.trans_b = c.trans_b;
        CHECK(params_for_auto(&plain, &gpu, &s2048, &c, &r, values, &source, msg) ==
              LADDER_OK);
        CHECK(r == r17 && strcmp(source, "selected") == 0 &&
              memcmp(values, table_values, sizeof(int) * (size_t)r17->nparams) == 0);
    }
    gemm_case dtn = GEMM_CASE_DEFAULT;
    dtn.precision = PRECISION_DOUBLE;
    dtn.trans_a = 1;
    plain.precision = PRECISION_DOUBLE;
    CHECK(params_for_auto(&plain, &gpu, &s2048, &dtn, &r, values, &source, msg) == LADDER_OK);
    CHECK(r == r17 && strcmp(source, "selected-rung") == 0);
    plain.precision = PRECISION_SINGLE;
    plain.trans_a = plain.trans_b = 0;
    tuning_db_free(&db);
}

static void test_offer(void)
{
    selection_table t;
    selection_table_init(&t);
    char msg[LADDER_MSG];
    selection_offer_result what;
    selection_entry old;
    selection_entry a = entry("opencl", find("15"), 64, 64, 4096, "TSM=64 TSN=64 TSK=8 WM=16",
                              10);
    CHECK(selection_offer(&t, &a, 0, &what, &old, msg) == LADDER_OK && what == SELECTION_ADDED);
    selection_entry slower = entry("opencl", find("11"), 64, 64, 4096,
                                   "TSM=64 TSN=64 TSK=8 WPTM=4 WPTN=4", 5);
    CHECK(selection_offer(&t, &slower, 0, &what, &old, msg) == LADDER_OK && what == SELECTION_KEPT);
    CHECK(t.count == 1 && t.entries[0].rung == 15 && old.gflops == 10);
    selection_entry faster = slower;
    faster.gflops = 20;
    CHECK(selection_offer(&t, &faster, 0, &what, &old, msg) == LADDER_OK &&
          what == SELECTION_REPLACED);
    CHECK(t.count == 1 && t.entries[0].rung == 11);
    /* Raced (ladder select --rounds): a slower recorded GFLOPS (a median over rounds,
     * against a lucky single measurement) replaces the entry it beat in the same rounds;
     * not raced, the same entry is kept. */
    selection_entry median = a;
    median.gflops = 12;
    CHECK(selection_offer(&t, &median, 0, &what, &old, msg) == LADDER_OK && what == SELECTION_KEPT);
    CHECK(t.count == 1 && t.entries[0].rung == 11);
    CHECK(selection_offer(&t, &median, 1, &what, &old, msg) == LADDER_OK &&
          what == SELECTION_REPLACED_RACED);
    CHECK(t.count == 1 && t.entries[0].rung == 15 && t.entries[0].gflops == 12);
    CHECK(selection_offer(&t, &faster, 0, &what, &old, msg) == LADDER_OK &&
          what == SELECTION_REPLACED);
    /* The entry's kernel has changed since: replaced whatever its speed. */
    snprintf(t.entries[0].kernel_fnv1a, sizeof t.entries[0].kernel_fnv1a, "0000000000000000");
    CHECK(selection_offer(&t, &a, 0, &what, &old, msg) == LADDER_OK &&
          what == SELECTION_REPLACED_STALE);
    CHECK(t.count == 1 && t.entries[0].rung == 15);
    selection_table_free(&t);
}

/* Whether rung `r` takes case `c` by its registry flags (independently of
 * rung_check_case). */
static int takes(const rung *r, const gemm_case *c)
{
    return (c->precision != PRECISION_DOUBLE || r->takes_double) &&
           (c->precision != PRECISION_SINGLE || !r->no_single_reason) &&
           (!(c->trans_a || c->trans_b) || r->takes_transposes ||
            (!r->blas_args && (r->transposes_b || r->pads))) &&
           ((c->alpha == 1.0 && c->beta == 0.0) || r->blas_args);
}

/* The first BLAS-call rung of `backend` that takes case `c`, or NULL: what auto falls back
 * to, found independently of selection.c. */
static const rung *first_taker(const char *backend, const gemm_case *c)
{
    int count;
    const rung *all = registry_all(&count);
    for (int i = 0; i < count; i++) {
        const rung *r = &all[i];
        if (r->kind == RUNG_KERNEL && r->blas_args && selection_rung_eligible(r) &&
            rung_on_backend(r, backend) && takes(r, c))
            return r;
    }
    return NULL;
}

/* A case the table's or the rule's choice cannot take goes to a BLAS-call rung that takes
 * it ("case-fallback"), or is unsupported with the reason; the default case is unchanged.
 * The expectations follow the registry's flags, so they hold as rungs gain cases. */
static void test_cases(void)
{
    char msg[LADDER_MSG];
    const char *backends[2] = {"opencl", "cuda"};
    for (int b = 0; b < 2; b++) {
        device_info dev = device(backends[b]);
        param_policy plain = {NULL, 0, 0, NULL, "test_selection", PRECISION_SINGLE, 0, 0};
        gemm_size s = {512, 512, 512};
        const rung *r = NULL, *plain_choice = NULL;
        int values[RUNG_MAX_PARAMS] = {0};
        const char *source = "?";
        gemm_case c = GEMM_CASE_DEFAULT;
        CHECK(params_for_auto(&plain, &dev, &s, &c, &plain_choice, values, &source, msg) ==
              LADDER_OK);
        CHECK(strcmp(source, "fallback") == 0);
        for (int k = 0; k < 3; k++) {
            c = GEMM_CASE_DEFAULT;
            if (k == 0)
                c.precision = PRECISION_DOUBLE;
            else if (k == 1)
                c.trans_a = 1;
            else
                c.beta = 1.0;
            plain.precision = c.precision;
            const rung *want = first_taker(backends[b], &c);
            ladder_status st = params_for_auto(&plain, &dev, &s, &c, &r, values, &source, msg);
            if (takes(plain_choice, &c)) {
                /* The choice takes the case itself. */
                CHECK(st == LADDER_OK && r == plain_choice && strcmp(source, "fallback") == 0);
            } else if (want) {
                CHECK(st == LADDER_OK && r == want && strcmp(source, "case-fallback") == 0);
            } else {
                CHECK(st == LADDER_UNSUPPORTED && strstr(msg, "no BLAS-call rung takes the case"));
            }
        }
    }
}

/* The fallback rule, no table, on a GPU of 132 compute units: the class's list, a square
 * too small to give every unit a 128 x 128 tile sent to split-K, and split-K's tile and
 * slices set for the shape (edges of 32, 64 or 128 covering M and N; work-items nearest
 * 512 per compute unit; no more slices than K has tiles). The skinny rung's loads in
 * flight and work-group counts set for the device (16 float4s a work-item; on a GPU K
 * split for 1024 work-items per compute unit; on a CPU few work-items per sum and one
 * work-group per core). On an OpenCL GPU rung 30 ahead of rung 15 at squares and short
 * sums; not on a CPU, nor in CUDA. On a CPU, rung 27 in
 * every class, with the widest vector M fills; split-K's and rung 20's own CPU rules
 * checked directly. On a device of unknown size the rungs' own parameters stand. */
static void test_rule(void)
{
    device_info gpu = device("cuda");
    gpu.compute_units = 132;
    gpu.is_gpu = 1;
    device_info ocl_gpu = device("opencl"), cpu = device("opencl");
    ocl_gpu.compute_units = 132;
    ocl_gpu.is_gpu = 1;
    cpu.compute_units = 2;
    /* A CUDA GPU older than rungs 13, 17 and 18 (compute capability 8.0). */
    device_info volta = gpu;
    volta.cc_major = 7;
    char got[256];
    /* The H200's table at its four GEMV-like shapes, and what the rule sets on a GPU. */
    const char *skinny_gpu = "rung=20 WG=256 RX=8 TQ=2 KL=32 WC=4 WU=2 PF=1 GPC=4 ";
    struct {
        const device_info *dev;
        long M, N, K;
        const char *want; /* the row's params start so */
    } cases[] = {
        /* 1024 tiles: the big squares' rung */
        {&gpu, 4096, 4096, 4096, "rung=17 "},
        /* 16 tiles of 256 work-items: 16 slices make 65,536, nearest 67,584 */
        {&gpu, 512, 512, 512, "rung=19 TSM=128 TSN=128 TSK=8 WM=64 SPLITS=16 "},
        /* a tile holds a warp's 2048 elements; K has 8 tiles: 8 slices at most */
        {&gpu, 32, 32, 64, "rung=19 TSM=64 TSN=32 TSK=8 WM=64 SPLITS=8 "},
        /* skinny-m: 64 tiles of 64 x 128, 128 work-items each */
        {&gpu, 64, 8192, 4096, "rung=19 TSM=64 TSN=128 TSK=8 WM=64 SPLITS=8 "},
        /* skinny-n */
        {&gpu, 16384, 64, 4096, "rung=19 TSM=128 TSN=64 TSK=8 WM=64 SPLITS=4 "},
        {&gpu, 8192, 32, 8192, "rung=19 TSM=128 TSN=32 TSK=8 WM=64 SPLITS=16 "},
        /* 183 tiles: 2 slices (1.39 times the target) beat 1 (0.69 times) */
        {&gpu, 333, 7777, 555, "rung=19 TSM=128 TSN=128 TSK=8 WM=64 SPLITS=2 "},
        /* long-k: one tile, 256 slices */
        {&gpu, 128, 128, 32768, "rung=19 TSM=128 TSN=128 TSK=8 WM=64 SPLITS=256 "},
        /* long-k of 16 rows and columns: on a GPU the skinny rung only up to 8, so
         * split-K: a 32 x 32 tile holds no warp tile, 64 x 32 does; one tile of 64
         * work-items, 256 slices (the most) */
        {&gpu, 16, 16, 8192, "rung=19 TSM=64 TSN=32 TSK=8 WM=64 SPLITS=256 "},
        /* skinny-n of 16 columns: split-K, 86 tiles of 128 x 32, 16 slices, the H200's
         * and the H100's table entries' tile */
        {&gpu, 11008, 16, 4096, "rung=19 TSM=128 TSN=32 TSK=8 WM=64 SPLITS=16 "},
        {&ocl_gpu, 11008, 16, 4096, "rung=19 TSM=128 TSN=32 TSK=8 WM=64 SPLITS=16 "},
        /* 8 rows, the widest the skinny rung takes first on a GPU */
        {&gpu, 8, 8192, 8192, skinny_gpu},
        /* small-k: the pipelined warp tiles */
        {&gpu, 4096, 4096, 64, "rung=13 "},
        /* GEMV-like: the skinny rung, tall and wide */
        {&gpu, 1, 4096, 4096, skinny_gpu},
        {&gpu, 16384, 4, 4096, skinny_gpu},
        /* An OpenCL GPU: rung 30 at squares and short sums, at its defaults but where
         * a 16-deep tile would pad K by more than an eighth; split-K and rung 20 as in
         * CUDA */
        {&ocl_gpu, 4096, 4096, 4096, "rung=30 TSM=128 TSN=128 TSK=16 "},
        {&ocl_gpu, 3072, 3072, 3072, "rung=30 TSM=128 TSN=128 TSK=16 "},
        {&ocl_gpu, 8192, 8192, 32, "rung=30 TSM=128 TSN=128 TSK=16 "},
        {&ocl_gpu, 4096, 4096, 64, "rung=30 TSM=128 TSN=128 TSK=16 "},
        /* K = 8 and 24: a 16-deep tile would pad K by more than an eighth: 8 deep */
        {&ocl_gpu, 4096, 4096, 8, "rung=30 TSM=128 TSN=128 TSK=8 "},
        {&ocl_gpu, 4096, 4096, 24, "rung=30 TSM=128 TSN=128 TSK=8 "},
        {&ocl_gpu, 4096, 4096, 16, "rung=30 TSM=128 TSN=128 TSK=16 "},
        {&ocl_gpu, 4096, 4096, 72, "rung=30 TSM=128 TSN=128 TSK=16 "},
        {&ocl_gpu, 512, 512, 512, "rung=19 TSM=128 TSN=128 TSK=8 WM=64 SPLITS=16 "},
        {&ocl_gpu, 16384, 4, 4096, skinny_gpu},
        /* A CUDA GPU without rungs 13, 17 and 18: rung 15, faster than 11 in CUDA */
        {&volta, 4096, 4096, 64, "rung=15 "},
        {&volta, 4096, 4096, 4096, "rung=15 "},
        /* A CPU of 2 cores: rung 27 first in every class, its vector as wide as M
         * fills (16, 8, 4, 2 or 1 rows), the rest its defaults */
        {&cpu, 256, 256, 256, "rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 256, 256, 16, "rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 97, 101, 103, "rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 688, 16, 256, "rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 1024, 1, 1024, "rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 16, 16, 8192, "rung=27 VW=16 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 15, 1024, 512, "rung=27 VW=8 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 8, 2048, 512, "rung=27 VW=8 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 7, 2048, 512, "rung=27 VW=4 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 4, 2048, 512, "rung=27 VW=4 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 3, 2048, 512, "rung=27 VW=2 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 2, 2048, 512, "rung=27 VW=2 NR=8 LX=1 LY=1 GPC=2 "},
        {&cpu, 1, 1024, 1024, "rung=27 VW=1 NR=8 LX=1 LY=1 GPC=2 "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        choose(NULL, cases[i].dev, cases[i].M, cases[i].N, cases[i].K, got, sizeof got);
        int ok = strncmp(got, cases[i].want, strlen(cases[i].want)) == 0 &&
                 strstr(got, "[fallback]") != NULL;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  %s %ldx%ldx%ld: got %s, want %s...\n", cases[i].dev->backend,
                    cases[i].M, cases[i].N, cases[i].K, got, cases[i].want);
    }
    gemm_size small = {512, 512, 512}, big = {4096, 4096, 4096};
    CHECK(selection_rule_list(&small, &gpu) == SHAPE_LONG_K);
    CHECK(selection_rule_list(&big, &gpu) == SHAPE_SQUARE);
    /* An OpenCL-GPU entry names its rung there only; a narrow-on-GPU one on a GPU only up
     * to 8 rows or columns, on a CPU wherever. */
    const rule_entry scalars_ocl = {"scalars", RULE_OPENCL_GPU}, edges = {"edges", RULE_ANYWHERE},
                     skinny = {"skinny", RULE_NARROW_ON_GPU};
    const gemm_size eight = {8, 8192, 8192}, sixteen = {11008, 16, 4096};
    CHECK(selection_list_rung(&scalars_ocl, &big, &ocl_gpu) == find("30"));
    CHECK(!selection_list_rung(&scalars_ocl, &big, &cpu));
    CHECK(!selection_list_rung(&scalars_ocl, &big, &gpu));
    CHECK(selection_list_rung(&edges, &big, &cpu) == find("11"));
    CHECK(selection_list_rung(&skinny, &eight, &gpu) == find("20"));
    CHECK(!selection_list_rung(&skinny, &sixteen, &gpu));
    CHECK(!selection_list_rung(&skinny, &sixteen, &ocl_gpu));
    CHECK(selection_list_rung(&skinny, &sixteen, &cpu) == find("20"));
    /* A CPU entry names its rung on a CPU only. */
    const rule_entry cpucore = {"cpucore", RULE_ON_CPU};
    CHECK(selection_list_rung(&cpucore, &big, &cpu) == find("27"));
    CHECK(selection_list_rung(&cpucore, &eight, &cpu) == find("27"));
    CHECK(!selection_list_rung(&cpucore, &big, &gpu));
    CHECK(!selection_list_rung(&cpucore, &eight, &ocl_gpu));
    /* Split-K's and the skinny rung's own rules on a CPU, which auto reaches there only
     * where rung 27 cannot run: two work-groups per core for split-K (97 x 101 x 103 is
     * one 128 x 128 tile: 4 slices); for rung 20 RX the largest choice whose 4 RX rows M
     * fills (688: 32, 100: 16, 16: none, the smallest), KL 16, one work-group per core. */
    struct {
        const char *rung;
        long M, N, K;
        const char *want;
    } own[] = {
        {"19", 97, 101, 103, "TSM=128 TSN=128 TSK=8 WM=64 SPLITS=4 "},
        {"20", 688, 16, 256, "WG=256 RX=32 TQ=2 KL=16 WC=4 WU=2 PF=1 GPC=1"},
        {"20", 100, 8, 512, "WG=256 RX=16 TQ=2 KL=16 WC=4 WU=2 PF=1 GPC=1"},
        {"20", 16, 16, 8192, "WG=256 RX=8 TQ=2 KL=16 WC=4 WU=2 PF=1 GPC=1"},
        {"20", 16, 1024, 512, "WG=256 RX=8 TQ=2 KL=16 WC=4 WU=2 PF=1 GPC=1"},
    };
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        const rung *r = find(own[i].rung);
        int values[RUNG_MAX_PARAMS] = {0};
        const gemm_size s = {own[i].M, own[i].N, own[i].K};
        rung_defaults(r, 0, values);
        r->rule_params(values, &s, &cpu);
        rung_params_string(r, values, got, sizeof got);
        const int ok = strncmp(got, own[i].want, strlen(own[i].want)) == 0;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  rung %s on a CPU at %ldx%ldx%ld: got %s, want %s...\n",
                    own[i].rung, own[i].M, own[i].N, own[i].K, got, own[i].want);
    }
    /* Unknown size (0 compute units): 512^3 stays square, split-K and the skinny rung
     * keep their defaults. */
    gpu.compute_units = 0;
    CHECK(selection_rule_list(&small, &gpu) == SHAPE_SQUARE);
    choose(NULL, &gpu, 64, 8192, 4096, got, sizeof got);
    CHECK(strncmp(got, "rung=19 TSM=64 TSN=64 TSK=8 WM=32 SPLITS=256 ", 45) == 0);
    choose(NULL, &gpu, 16384, 4, 4096, got, sizeof got);
    CHECK(strcmp(got, "rung=20 WG=256 RX=8 TQ=4 KL=32 WC=4 WU=4 PF=1 GPC=1 [fallback]") == 0);
}

int main(void)
{
    char dir[] = "/tmp/test_selection.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK(selection_rung_eligible(find("15")) && selection_rung_eligible(find("11")));
    CHECK(!selection_rung_eligible(find("16")));   /* 3xTF32: u = 2^-20 */
    CHECK(!selection_rung_eligible(find("dmma"))); /* double only */
    CHECK(!selection_rung_eligible(find("cublas")) && !selection_rung_eligible(find("auto")));
    CHECK(find("auto") && find("auto")->kind == RUNG_AUTO && find("auto")->number == 0);
    test_file_format(dir);
    test_lookup();
    test_offer();
    test_cases();
    test_rule();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
