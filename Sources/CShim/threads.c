#define _GNU_SOURCE
#include "cshim.h"
#include <gio/gio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

void cshim_lower_thread_priority(gint steps) {
    /* On Linux a nice value belongs to a thread: this one alone is set, `steps` below the main
     * thread's (the process id's), whatever the thread that started it had. */
    errno = 0;
    int process = getpriority(PRIO_PROCESS, (id_t)getpid());
    if (errno == 0) {
        setpriority(PRIO_PROCESS, (id_t)gettid(), process + steps);
    }
}

void cshim_name_thread(const char *name) {
    /* The system keeps 15 bytes of a thread's name and refuses longer ones. */
    char shortened[16];
    g_strlcpy(shortened, name, sizeof shortened);
    pthread_setname_np(pthread_self(), shortened);
}

/* The kernel's struct sched_attr; glibc has no wrapper for sched_setattr. */
struct cshim_sched_attr {
    guint32 size;
    guint32 policy;
    guint64 flags;
    gint32 nice;
    guint32 priority;
    guint64 runtime;
    guint64 deadline;
    guint64 period;
};

#define CSHIM_SCHED_OTHER 0
#define CSHIM_SCHED_FLAG_RESET_ON_FORK 0x01

void cshim_request_time_slice(guint64 slice_ns) {
    /* EEVDF (Linux 6.12 and later) reads a normal thread's sched_runtime as the slice it asks
     * for: a shorter slice gives an earlier deadline, so the thread takes a core soon after it
     * wakes. Reset-on-fork keeps the request to this thread: threads it starts get the default.
     * GLib copies the scheduler settings of the thread that makes its first shared thread pool to
     * every thread of such pools: GTask's pool is made first, while this thread has the default. */
    g_type_ensure(G_TYPE_TASK);
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, (id_t)gettid());
    if (errno != 0) return;
    struct cshim_sched_attr attributes = {
        .size = sizeof attributes,
        .policy = CSHIM_SCHED_OTHER,
        .flags = CSHIM_SCHED_FLAG_RESET_ON_FORK,
        .nice = nice,
        .runtime = slice_ns,
    };
    syscall(SYS_sched_setattr, 0, &attributes, 0);
}

gint cshim_thread_times_open(void) {
    return open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

gboolean cshim_thread_times_read(gint fd, guint64 *ran_ns, guint64 *waited_ns) {
    /* "<ns on a core> <ns runnable, waiting for one> <times scheduled>"; read again from the start each time */
    char text[96];
    ssize_t length = pread(fd, text, sizeof text - 1, 0);
    if (length <= 0) return FALSE;
    text[length] = '\0';
    return sscanf(text, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, ran_ns, waited_ns) == 2;
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

void cshim_give_each_thread_its_own_heap(void) {
    /* glibc makes 8 heaps per core and then shares them among threads, the GUI thread's among
     * them; a worker preempted while holding that heap's lock held up the GUI thread for up to
     * 30 ms. With a heap per thread the GUI thread's lock is only taken by frees of what it
     * allocated itself. */
    mallopt(M_ARENA_MAX, 256);
}
