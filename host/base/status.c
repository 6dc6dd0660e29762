#include "base/status.h"

#include <stdarg.h>
#include <stdio.h>

ladder_status ladder_fail(char *msg, ladder_status status, const char *fmt, ...)
{
    if (msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, LADDER_MSG, fmt, ap);
        va_end(ap);
    }
    return status;
}
