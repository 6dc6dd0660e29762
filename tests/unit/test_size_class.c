/* Size classes: the documented rule, at and around its edges. */
#include <string.h>

#include "check.h"
#include "params/size_class.h"

static size_class of(long M, long N, long K)
{
    gemm_size s = {M, N, K};
    return size_class_of(&s);
}

int main(void)
{
    CHECK(of(512, 512, 512) == SIZE_SMALL);
    CHECK(of(1024, 1024, 1024) == SIZE_SMALL);
    CHECK(of(1792, 1792, 1792) == SIZE_SMALL);   /* below 2048^3 is small */
    CHECK(of(2047, 2048, 2048) == SIZE_SMALL);
    CHECK(of(2048, 2048, 2048) == SIZE_LARGE);   /* 2048^3 itself is large (measured) */
    CHECK(of(8192, 8192, 8192) == SIZE_LARGE);
    CHECK(of(4096, 4096, 1024) == SIZE_LARGE);   /* a ratio of 4: not skinny */
    CHECK(of(4096, 4096, 512) == SIZE_SKINNY);   /* a ratio of 8: skinny */
    CHECK(of(4096, 4096, 513) == SIZE_LARGE);    /* just under 8 */
    CHECK(of(64, 64, 8) == SIZE_SKINNY);         /* skinny wins over small */
    CHECK(of(1, 1, 1) == SIZE_SMALL);
    CHECK(of(8192, 1, 8192) == SIZE_SKINNY);

    size_class c;
    for (int i = 0; i < SIZE_CLASS_COUNT; i++) {
        CHECK(size_class_parse(size_class_name((size_class)i), &c) == 0 && c == (size_class)i);
    }
    CHECK(strcmp(size_class_name(SIZE_SKINNY), "skinny") == 0);
    CHECK(size_class_parse("huge", &c) == -1);
    return CHECK_DONE();
}
