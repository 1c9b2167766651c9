#define _GNU_SOURCE
#include "cshim.h"
#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

void cshim_lower_thread_priority(gint steps) {
    /* On Linux a nice value belongs to a thread: this one alone is lowered. */
    pid_t thread = gettid();
    errno = 0;
    int current = getpriority(PRIO_PROCESS, (id_t)thread);
    if (errno == 0) {
        setpriority(PRIO_PROCESS, (id_t)thread, current + steps);
    }
}
