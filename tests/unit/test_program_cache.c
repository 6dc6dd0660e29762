/* The cache of compiled programs: a program asked for again is not compiled again, and
 * when the cache is full the one asked for longest ago is released to make room (ladder
 * select compiles hundreds of variants; it used to fail past the 64th). A fake backend
 * counts what is compiled and released. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/rung_exec.h"

static int compiled, released;
static gpu_program *last_released;

static ladder_status fake_compile(backend_session *s, const char *path, const char *options,
                                  gpu_program **program, char *msg)
{
    compiled++;
    *program = (gpu_program *)(size_t)(compiled * 16); /* a distinct, never dereferenced handle */
    return LADDER_OK;
}
static void fake_release(gpu_program *program)
{
    released++;
    last_released = program;
}

int main(void)
{
    backend_ops ops = {.name = "opencl", .compile = fake_compile,
                       .release_program = fake_release};
    run_target t;
    memset(&t, 0, sizeof t);
    t.ops = &ops;
    program_cache *pc = program_cache_new();
    CHECK(pc != NULL);
    char msg[LADDER_MSG], options[32];
    gpu_program *first = NULL, *p = NULL;

    /* Fill the cache; the first program is asked for again in the middle, so it is not
     * the one used longest ago when the cache overflows: the second is. */
    for (int i = 0; i < PROGRAM_CACHE_MAX; i++) {
        snprintf(options, sizeof options, "-DV=%d", i);
        CHECK(program_cache_get(pc, &t, "90-fake", options, &p, msg) == LADDER_OK);
        if (i == 0)
            first = p;
        if (i == PROGRAM_CACHE_MAX / 2) {
            CHECK(program_cache_get(pc, &t, "90-fake", "-DV=0", &p, msg) == LADDER_OK);
            CHECK(p == first);
        }
    }
    CHECK(compiled == PROGRAM_CACHE_MAX && released == 0);

    /* One more: compiled, and the second program released, not the first. */
    CHECK(program_cache_get(pc, &t, "90-fake", "-DV=extra", &p, msg) == LADDER_OK);
    CHECK(compiled == PROGRAM_CACHE_MAX + 1 && released == 1);
    CHECK(last_released == (gpu_program *)(size_t)(2 * 16));
    CHECK(program_cache_get(pc, &t, "90-fake", "-DV=0", &p, msg) == LADDER_OK && p == first);
    CHECK(compiled == PROGRAM_CACHE_MAX + 1);

    /* Many more than fit: every one is compiled, none fails. */
    for (int i = 0; i < 3 * PROGRAM_CACHE_MAX; i++) {
        snprintf(options, sizeof options, "-DW=%d", i);
        CHECK(program_cache_get(pc, &t, "90-fake", options, &p, msg) == LADDER_OK);
    }
    CHECK(compiled == 4 * PROGRAM_CACHE_MAX + 1);
    CHECK(released == compiled - PROGRAM_CACHE_MAX);
    program_cache_free(pc, &ops);
    CHECK(released == compiled);

    /* A rung that compiles only the kernels of a call's shape (rung 20 on CUDA) has one
     * program per kernel set; dropping its parameters releases all of them, and nothing
     * of other parameters. */
    const rung *skinny = registry_find("skinny");
    CHECK(skinny != NULL && skinny->cuda_call_defines != NULL);
    if (skinny) {
        snprintf(t.dev.backend, sizeof t.dev.backend, "cuda");
        pc = program_cache_new();
        compiled = released = 0;
        int values[RUNG_MAX_PARAMS], other[RUNG_MAX_PARAMS];
        rung_defaults(skinny, 0, values);
        rung_defaults(skinny, 1, other);
        const launch_shape shapes[] = {{1, 4096, 4096, 132, 4, 0, 0},
                                       {4096, 1, 4096, 132, 4, 0, 0},
                                       {8, 8192, 8192, 132, 4, 0, 0}};
        char opts[256];
        for (int i = 0; i < 3; i++) {
            rung_call_options(skinny, values, &t.dev, NULL, &shapes[i], opts, sizeof opts);
            CHECK(strstr(opts, "-DONLY_") != NULL);
            CHECK(program_cache_get(pc, &t, skinny->id, opts, &p, msg) == LADDER_OK);
        }
        rung_call_options(skinny, other, &t.dev, NULL, &shapes[0], opts, sizeof opts);
        CHECK(program_cache_get(pc, &t, skinny->id, opts, &p, msg) == LADDER_OK);
        CHECK(compiled == 4);
        program_cache_drop(pc, &t, skinny, values, NULL);
        CHECK(released == 3);
        CHECK(program_cache_get(pc, &t, skinny->id, opts, &p, msg) == LADDER_OK);
        CHECK(compiled == 4); /* the other parameters' program is still there */
        program_cache_free(pc, &ops);
    }
    return CHECK_DONE();
}
