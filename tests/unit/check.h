/* A minimal test harness: CHECK records a failure with its line and goes on; main ends
 * with CHECK_DONE(), which prints the totals and returns non-zero on any failure. */
#ifndef LADDER_CHECK_H
#define LADDER_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (cond) {                                                                     \
            check_passed++;                                                             \
        } else {                                                                        \
            check_failed++;                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
        }                                                                               \
    } while (0)

#define CHECK_DONE()                                                                    \
    (printf("%d passed, %d failed\n", check_passed, check_failed), check_failed != 0)

#endif
