/* Reading a whole text file (a kernel source) into memory. */
#ifndef LADDER_TEXT_FILE_H
#define LADDER_TEXT_FILE_H

#include <stddef.h>

#include "base/status.h"

/* The whole file as one NUL-terminated heap string in *text (free it), its length in bytes
 * in *length (may be NULL). On failure *text is NULL and msg names the file and the
 * reason ("cannot open kernels-cuda/99-x.cu: No such file or directory"). */
ladder_status text_file_read(const char *path, char **text, size_t *length, char *msg);

#endif
