#include "base/paths.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

ladder_status make_parent_dirs(const char *path, char *msg)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return LADDER_OK;
    *slash = '\0';
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char was = *p;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            return ladder_fail(msg, LADDER_ERROR, "cannot create folder %s: %s", dir,
                               strerror(errno));
        if (was == '\0')
            return LADDER_OK;
        *p = was;
    }
}
