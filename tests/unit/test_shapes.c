/* The public shape sets: --sizes takes their names (alone or in a list), each set has at
 * least 20 shapes covering every class, the declared classes agree with the rule, and the
 * rule classifies any shape at its boundaries. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/shapes.h"
#include "base/sizes.h"

static shape_class rule(long M, long N, long K)
{
    gemm_size s = {M, N, K};
    return shape_rule_class(&s);
}

/* Parses `spec`; returns the count, or -1 when rejected. The sizes go to *out. */
static int parse(const char *spec, gemm_size **out)
{
    int n;
    char msg[LADDER_MSG];
    if (sizes_parse(spec, out, &n, msg) != LADDER_OK)
        return -1;
    return n;
}

static void check_set(const shape_set *set, double most_work)
{
    gemm_size *s = NULL;
    int n = parse(set->name, &s);
    CHECK(n == set->count && n >= 20);
    int labels[SHAPE_CLASS_COUNT] = {0}, rules[SHAPE_RULE_CLASSES] = {0};
    for (int i = 0; i < n && s; i++) {
        const named_shape *ns = &set->shapes[i];
        CHECK(s[i].M == ns->M && s[i].N == ns->N && s[i].K == ns->K);
        shape_class r = shape_rule_class(&s[i]);
        labels[shape_label(&s[i])]++;
        rules[r]++;
        /* A declared class other than the set's own labels is the rule's class. */
        if (ns->label != SHAPE_LLM && ns->label != SHAPE_ODD)
            CHECK(ns->label == r);
        CHECK(shape_label(&s[i]) == ns->label);
        CHECK((double)s[i].M * s[i].N * s[i].K <= most_work);
        CHECK(ns->what && ns->what[0]);
        for (int k = 0; k < i; k++)
            CHECK(!(s[k].M == s[i].M && s[k].N == s[i].N && s[k].K == s[i].K));
    }
    for (int c = 0; c < SHAPE_CLASS_COUNT; c++)
        CHECK(labels[c] >= 2); /* every class, and more than one shape of it */
    for (int c = 0; c < SHAPE_RULE_CLASSES; c++)
        CHECK(rules[c] >= 2);
    free(s);
}

/* A K sweep: one M = N, K doubling from 4 up to `last_k`, classes by the rule, and A and B
 * at most `most_bytes` each. */
static void check_sweep(const shape_set *set, long mn, long last_k, double most_bytes)
{
    gemm_size *s = NULL;
    int n = parse(set->name, &s);
    CHECK(n == set->count && n >= 10);
    for (int i = 0; i < n && s; i++) {
        CHECK(s[i].M == mn && s[i].N == mn && s[i].K == 4L << i);
        CHECK(set->shapes[i].label == shape_rule_class(&s[i]));
        CHECK((double)s[i].M * s[i].K * 4 <= most_bytes);
    }
    CHECK(s && n > 0 && s[n - 1].K == last_k);
    free(s);
}

int main(void)
{
    int nsets;
    const shape_set *sets = shape_sets(&nsets);
    CHECK(nsets == 4);
    /* The accuracy figure's sweep: K from 4 to 65,536 at 2048 (A and B 512 MiB each). */
    check_sweep(shape_set_find("ksweep"), 2048, 65536, 512.0 * 1024 * 1024);
    check_sweep(shape_set_find("ksweep-cpu"), 128, 4096, 2.0 * 1024 * 1024);
    CHECK(shape_set_find("shapes") == &sets[0] && shape_set_find("shapes-cpu") == &sets[1]);
    CHECK(shape_set_find("shape") == NULL && shape_set_find("SHAPES") == NULL);
    check_set(shape_set_find("shapes"), 2.1e11);
    /* Small enough for PoCL on two cores: at most 2^25 multiply-adds a shape. */
    check_set(shape_set_find("shapes-cpu"), 33554432.0);

    /* A set inside a list, in the list's order. */
    gemm_size *s = NULL;
    int n = parse("shapes,4096", &s);
    CHECK(n == shape_set_find("shapes")->count + 1);
    CHECK(s && s[n - 1].M == 4096 && s[n - 1].N == 4096 && s[n - 1].K == 4096);
    CHECK(s && s[0].M == 512);
    free(s);
    n = parse("7x7x7,shapes-cpu", &s);
    CHECK(n == shape_set_find("shapes-cpu")->count + 1 && s && s[0].M == 7);
    free(s);
    /* An unknown name: rejected, and the message names the sets there are. */
    char msg[LADDER_MSG] = "";
    int count = 3;
    CHECK(sizes_parse("shapez", &s, &count, msg) == LADDER_ERROR && count == 0);
    CHECK(strstr(msg, "'shapez'") && strstr(msg, "shapes, shapes-cpu"));

    /* The rule, at each boundary. */
    CHECK(rule(1, 4096, 4096) == SHAPE_GEMV);
    CHECK(rule(4096, 8, 100) == SHAPE_GEMV);
    CHECK(rule(9, 4096, 100) == SHAPE_SKINNY_M);
    CHECK(rule(128, 128, 1024) == SHAPE_LONG_K);
    CHECK(rule(128, 100, 1023) == SHAPE_SQUARE);
    CHECK(rule(128, 128, 1023) == SHAPE_SQUARE);
    CHECK(rule(4096, 4096, 512) == SHAPE_SMALL_K);
    CHECK(rule(4096, 4096, 513) == SHAPE_SQUARE);
    CHECK(rule(512, 4096, 1000) == SHAPE_SKINNY_M);
    CHECK(rule(513, 4096, 1000) == SHAPE_SQUARE);
    CHECK(rule(4096, 512, 1000) == SHAPE_SKINNY_N);
    CHECK(rule(1, 1, 1) == SHAPE_GEMV);
    CHECK(rule(1000, 1000, 1000) == SHAPE_SQUARE);
    /* gemv comes first: a GEMV-like shape with a long sum is still GEMV-like. */
    CHECK(rule(4, 4, 100000) == SHAPE_GEMV);

    /* Labels: the set's own for its shapes, the rule's for any other. */
    gemm_size qkv = {12288, 2048, 4096}, near_qkv = {12288, 2048, 4097}, prime = {997, 1013, 1009};
    CHECK(shape_label(&qkv) == SHAPE_LLM && shape_rule_class(&qkv) == SHAPE_SQUARE);
    CHECK(shape_label(&near_qkv) == SHAPE_SQUARE);
    CHECK(shape_label(&prime) == SHAPE_ODD);

    /* Names both ways. */
    for (int c = 0; c < SHAPE_CLASS_COUNT; c++) {
        shape_class back;
        CHECK(shape_class_parse(shape_class_name((shape_class)c), &back) == 0 && (int)back == c);
    }
    shape_class none;
    CHECK(shape_class_parse("tall", &none) == -1);
    CHECK(strcmp(shape_class_name(SHAPE_LONG_K), "long-k") == 0);
    return CHECK_DONE();
}
