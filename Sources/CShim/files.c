#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/fsuid.h>

#include "cshim.h"

int cshim_rename_noreplace(const char *source, const char *destination) {
    return renameat2(AT_FDCWD, source, AT_FDCWD, destination, RENAME_NOREPLACE);
}

int cshim_set_file_user(unsigned int uid) {
    return setfsuid(uid);
}
