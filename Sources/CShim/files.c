#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "cshim.h"

int cshim_rename_noreplace(const char *source, const char *destination) {
    return renameat2(AT_FDCWD, source, AT_FDCWD, destination, RENAME_NOREPLACE);
}

int cshim_start_writeback(const char *path) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -1;
    int result = sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
    int saved = errno;
    close(descriptor);
    errno = saved;
    return result;
}
