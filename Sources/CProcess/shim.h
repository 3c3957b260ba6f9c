// Shims for process handles: syscall(2) is variadic, which Swift does not import, and glibc's
// own pidfd_open wrapper (2.36) is in a header the Glibc module does not include.
#ifndef CPROCESS_SHIM_H
#define CPROCESS_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture (Linux 5.3) */
#endif

/// A descriptor that polls readable once process `pid` has exited; -1 with errno set when the
/// kernel refuses (ENOSYS before Linux 5.3, or a seccomp filter), or ESRCH if it is gone.
static inline int cprocess_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

/// pipe2(fds, O_CLOEXEC) through syscall(2): both ends close on exec from the start, so a child
/// another thread spawns meanwhile never inherits them (glibc declares pipe2 only with _GNU_SOURCE).
static inline int cprocess_pipe_cloexec(int fds[2]) {
    return (int)syscall(SYS_pipe2, fds, O_CLOEXEC);
}

#endif
