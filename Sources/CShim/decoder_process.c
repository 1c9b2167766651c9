#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

/* What decoding needs, as strace showed it for every loader: reading (the loaders' modules, fontconfig's
 * files), memory, threads' bookkeeping, time and the process's own signals. Every other call fails with EPERM:
 * an allow-list, so that a call added to the kernel later (there is one every few releases) is refused too. */
static const int allowed_calls[] = {
    SCMP_SYS(read), SCMP_SYS(readv), SCMP_SYS(pread64), SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(lseek),
    SCMP_SYS(close), SCMP_SYS(dup), SCMP_SYS(dup2), SCMP_SYS(dup3), SCMP_SYS(fcntl), SCMP_SYS(fadvise64),
    SCMP_SYS(fstat), SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(statfs),
    SCMP_SYS(fstatfs), SCMP_SYS(access), SCMP_SYS(faccessat), SCMP_SYS(faccessat2), SCMP_SYS(readlink),
    SCMP_SYS(readlinkat), SCMP_SYS(getdents64), SCMP_SYS(getcwd), SCMP_SYS(mmap), SCMP_SYS(munmap),
    SCMP_SYS(mremap), SCMP_SYS(mprotect), SCMP_SYS(madvise), SCMP_SYS(brk), SCMP_SYS(get_mempolicy),
    SCMP_SYS(set_mempolicy), SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(rseq), SCMP_SYS(set_tid_address),
    SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity), SCMP_SYS(membarrier), SCMP_SYS(poll), SCMP_SYS(ppoll),
    SCMP_SYS(eventfd2), SCMP_SYS(pipe2), SCMP_SYS(clock_gettime), SCMP_SYS(clock_getres), SCMP_SYS(gettimeofday),
    SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getuid),
    SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(uname), SCMP_SYS(sysinfo), SCMP_SYS(getrandom),
    SCMP_SYS(getrlimit), SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
    SCMP_SYS(sigaltstack), SCMP_SYS(restart_syscall), SCMP_SYS(exit), SCMP_SYS(exit_group),
};

/* Flags that write, create or truncate: an open with none of them only reads. O_TMPFILE without its
 * O_DIRECTORY bit, which reading a folder sets. */
#define WRITING_OPEN_FLAGS (O_ACCMODE | O_CREAT | O_TRUNC | (O_TMPFILE & ~O_DIRECTORY))

static int build_filter(scmp_filter_ctx filter) {
    int failed = 0;
    for (size_t index = 0; index < sizeof allowed_calls / sizeof allowed_calls[0]; index++) {
        /* A negative number is a call this architecture does not have (stat on arm64): nothing to allow. */
        if (allowed_calls[index] < 0) continue;
        failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, allowed_calls[index], 0);
    }
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(open), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, WRITING_OPEN_FLAGS, 0));
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                               SCMP_A2(SCMP_CMP_MASKED_EQ, WRITING_OPEN_FLAGS, 0));
    /* Threads (librsvg's, dav1d's), never processes. */
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    /* Their flags are in a structure the filter cannot read: ENOSYS makes glibc use clone (and open). */
    failed |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    failed |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
    /* abort() and raise() signal this process; no other. */
    pid_t self = getpid();
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, self));
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_EQ, self));
    /* Limits of this process only (setrlimit and getrlimit pass 0). */
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_EQ, 0));
    /* Threads name themselves; isatty asks TCGETS (TIOCSTI would type into the user's terminal). */
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_GET_NAME));
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, TCGETS));
    /* Every thread the process has, not only the caller. */
    failed |= seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    return failed;
}

static int limit(int resource, rlim_t value) {
    struct rlimit bound = {value, value};
    return setrlimit(resource, &bound);
}

int cshim_decoder_sandbox(int max_files) {
    /* A write past the size limit then fails with EFBIG instead of ending the process (stderr may be a file). */
    if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR) return -1;
    if (limit(RLIMIT_FSIZE, 0) || limit(RLIMIT_CORE, 0) || limit(RLIMIT_NOFILE, (rlim_t)max_files)) return -1;
    /* No core through a pipe handler either (systemd-coredump), and no other process of the user attaches. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!filter) return -1;
    int failed = build_filter(filter) || seccomp_load(filter);
    seccomp_release(filter);
    return failed ? -1 : 0;
}
