#define _GNU_SOURCE
#include "cshim.h"
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

void cshim_name_thread(const char *name) {
    /* The system keeps 15 bytes of a thread's name and refuses longer ones. */
    char shortened[16];
    g_strlcpy(shortened, name, sizeof shortened);
    pthread_setname_np(pthread_self(), shortened);
}

gint cshim_wakeup_new(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

void cshim_wakeup_signal(gint fd) {
    eventfd_write(fd, 1);
}

void cshim_wakeup_clear(gint fd) {
    eventfd_t count;
    eventfd_read(fd, &count);
}
