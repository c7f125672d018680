#ifndef CSIGNALFD_H
#define CSIGNALFD_H

#include <signal.h>

// signalfd(2) and flock(2)'s headers are not in Swift's Glibc module: these thin wrappers are.

// A close-on-exec, non-blocking signalfd for `mask` (which the caller has blocked); the descriptor or -errno.
int csignalfd_open(const sigset_t *mask);

// The number of the next pending signal read from `fd`; 0 when none is pending; -errno on failure.
int csignalfd_read(int fd);

// flock(fd, LOCK_UN): 0, or -errno.
int csignalfd_unlock(int fd);

// flock(fd, LOCK_EX | LOCK_NB): 0, or -errno (-EWOULDBLOCK when another open file description holds it).
int csignalfd_lock_exclusive(int fd);

#endif
