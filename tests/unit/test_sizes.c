/* --sizes parsing: every accepted form, and every malformed one rejected with a message. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/sizes.h"

static int parses(const char *spec, int expect_count, gemm_size first, gemm_size last)
{
    gemm_size *s;
    int n;
    char msg[LADDER_MSG];
    if (sizes_parse(spec, &s, &n, msg) != LADDER_OK) {
        fprintf(stderr, "'%s' rejected: %s\n", spec, msg);
        return 0;
    }
    int ok = n == expect_count && s[0].M == first.M && s[0].N == first.N &&
             s[0].K == first.K && s[n - 1].M == last.M && s[n - 1].N == last.N &&
             s[n - 1].K == last.K;
    free(s);
    return ok;
}

static int rejects(const char *spec, const char *needle)
{
    gemm_size *s = (gemm_size *)1;
    int n = 5;
    char msg[LADDER_MSG] = "";
    int rejected = sizes_parse(spec, &s, &n, msg) == LADDER_ERROR && s == NULL && n == 0 &&
                   strstr(msg, needle) != NULL;
    if (!rejected)
        fprintf(stderr, "'%s' not rejected as expected (msg: %s)\n", spec, msg);
    return rejected;
}

int main(void)
{
    CHECK(parses("1024", 1, (gemm_size){1024, 1024, 1024}, (gemm_size){1024, 1024, 1024}));
    CHECK(parses("1024x512x256", 1, (gemm_size){1024, 512, 256}, (gemm_size){1024, 512, 256}));
    CHECK(parses("1X2X3", 1, (gemm_size){1, 2, 3}, (gemm_size){1, 2, 3}));
    CHECK(parses("256:1024:256", 4, (gemm_size){256, 256, 256}, (gemm_size){1024, 1024, 1024}));
    CHECK(parses("256:4096:x2", 5, (gemm_size){256, 256, 256}, (gemm_size){4096, 4096, 4096}));
    CHECK(parses("100:110:7", 2, (gemm_size){100, 100, 100}, (gemm_size){107, 107, 107}));
    CHECK(parses("1,7x1x3,2:2:1", 3, (gemm_size){1, 1, 1}, (gemm_size){2, 2, 2}));

    CHECK(rejects("", "empty"));
    CHECK(rejects("0", "at least 1"));
    CHECK(rejects("-5", "not understood"));
    CHECK(rejects("12x0x4", "at least 1"));
    CHECK(rejects("abc", "not understood"));
    CHECK(rejects("12x34", "not understood"));
    CHECK(rejects("1x2x3x4", "not understood"));
    CHECK(rejects("12.5", "not understood"));
    CHECK(rejects("99999999999999999999999", "not understood"));
    CHECK(rejects("2000000", "larger than"));
    CHECK(rejects("50000", "2^31"));                    /* 50000^2 elements */
    CHECK(rejects("1x1000000x1000000", "2^31"));
    CHECK(rejects("512:256:1", "above end"));
    CHECK(rejects("1:10:0", "step"));
    CHECK(rejects("1:10:x1", "factor"));
    CHECK(rejects("1:10", "START:END:STEP"));
    CHECK(rejects("1:1000000:1", "more than"));         /* too many sizes */
    CHECK(rejects("1024,bogus", "bogus"));

    gemm_size s = {1000, 1000, 1000};
    CHECK(sizes_bytes(&s) == 12000000ull);
    return CHECK_DONE();
}
