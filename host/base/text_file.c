#include "base/text_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ladder_status text_file_read(const char *path, char **text, size_t *length, char *msg)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ladder_fail(msg, LADDER_ERROR, "cannot open %s: %s", path, strerror(errno));

    /* Grow the buffer as we read rather than trusting fseek/ftell, which do not work on
     * pipes or on files that change while we read them. */
    size_t capacity = 16384, used = 0;
    char *buffer = malloc(capacity);
    while (buffer) {
        used += fread(buffer + used, 1, capacity - used - 1, f);
        if (used < capacity - 1)
            break; /* short read: end of file or an error, told apart below */
        capacity *= 2;
        char *bigger = realloc(buffer, capacity);
        if (!bigger)
            free(buffer);
        buffer = bigger;
    }
    int read_error = ferror(f);
    fclose(f);
    if (!buffer)
        return ladder_fail(msg, LADDER_ERROR, "out of memory reading %s", path);
    if (read_error) {
        free(buffer);
        return ladder_fail(msg, LADDER_ERROR, "cannot read %s: read error", path);
    }
    buffer[used] = '\0';
    *text = buffer;
    if (length)
        *length = used;
    return LADDER_OK;
}
