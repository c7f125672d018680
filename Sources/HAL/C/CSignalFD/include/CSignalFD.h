#ifndef CSIGNALFD_H
#define CSIGNALFD_H

#include <signal.h>

// signalfd(2), flock(2) and openat2(2) are not in Swift's Glibc module (openat2 has no glibc wrapper at all,
// and Swift cannot call the variadic syscall(2)): these thin wrappers are.

// A close-on-exec, non-blocking signalfd for `mask` (which the caller has blocked); the descriptor or -errno.
int csignalfd_open(const sigset_t *mask);

// The number of the next pending signal read from `fd`; 0 when none is pending; -errno on failure.
int csignalfd_read(int fd);

// flock(fd, LOCK_UN): 0, or -errno.
int csignalfd_unlock(int fd);

// flock(fd, LOCK_EX | LOCK_NB): 0, or -errno (-EWOULDBLOCK when another open file description holds it).
int csignalfd_lock_exclusive(int fd);

// openat2(2) (Linux 5.6+, no glibc wrapper) as O_PATH | O_CLOEXEC (| O_DIRECTORY when `directory`) with
// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: the kernel keeps every step of the walk (`..`, an absolute path,
// a symbolic link, one swapped in meanwhile) inside `dirfd`'s tree. The descriptor, or -errno (-EXDEV: the
// path would leave the tree; -ENOSYS: an older kernel).
int copenat2_beneath(int dirfd, const char *path, int directory);

// O_PATH (a descriptor that only names an entry), which Swift's Glibc module leaves out (it needs _GNU_SOURCE):
// for the walk that stands in for openat2 where the kernel has none.
int copen_path_flag(void);

#endif
