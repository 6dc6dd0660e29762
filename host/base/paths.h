/* Small file-system helpers shared by the commands that write files. */
#ifndef LADDER_PATHS_H
#define LADDER_PATHS_H

#include "base/status.h"

/* Creates the folders above the file `path` (like mkdir -p), so that an output such as
 * results/lab3/alice.csv can be written before results/lab3/ exists. */
ladder_status make_parent_dirs(const char *path, char *msg);

#endif
