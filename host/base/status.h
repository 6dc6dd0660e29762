/* Status codes and error messages shared by every part of the harness.
 *
 * Every function that can fail returns a ladder_status and, on failure, writes a one-line
 * human-readable message into a caller-provided buffer. Messages name the call that failed
 * and what it was doing, so the user never sees a bare error code.
 */
#ifndef LADDER_STATUS_H
#define LADDER_STATUS_H

#include <stddef.h>

typedef enum {
    LADDER_OK = 0,
    LADDER_ERROR = 1,       /* something broke: the message says what */
    LADDER_UNSUPPORTED = 2, /* the rung/size/device combination cannot run: the message says why */
} ladder_status;

/* Size of every error-message buffer in the project. */
#define LADDER_MSG 1024

/* printf into an error buffer (never overflows, always terminated); returns `status`. */
ladder_status ladder_fail(char *msg, ladder_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
