#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cshim.h"

extern char **environ;

pid_t cshim_spawn_with_pipes(const char *path, const char *option, const char *argument, int input, int output) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input, 0);
    posix_spawn_file_actions_adddup2(&actions, output, 1);
    /* Nothing else of the app's (its X connection, its files, its sockets) reaches the child. */
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    char *const argv[] = {(char *)path, (char *)option, (char *)argument, NULL};
    pid_t pid = -1;
    int failed = posix_spawn(&pid, path, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    return failed ? -1 : pid;
}

int cshim_memory_file(void) {
    return memfd_create("image", MFD_CLOEXEC);
}

int cshim_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
