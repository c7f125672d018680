#define _GNU_SOURCE /* O_PATH */
#include "CSignalFD.h"
#include <errno.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

int csignalfd_open(const sigset_t *mask) {
    int fd = signalfd(-1, mask, SFD_CLOEXEC | SFD_NONBLOCK);
    return fd < 0 ? -errno : fd;
}

int csignalfd_read(int fd) {
    struct signalfd_siginfo info;
    for (;;) {
        ssize_t count = read(fd, &info, sizeof info);
        if (count == (ssize_t)sizeof info) return (int)info.ssi_signo;
        if (count < 0 && errno == EINTR) continue;
        if (count < 0 && errno == EAGAIN) return 0;
        return count < 0 ? -errno : -EIO;
    }
}

int csignalfd_unlock(int fd) {
    for (;;) {
        if (flock(fd, LOCK_UN) == 0) return 0;
        if (errno != EINTR) return -errno;
    }
}

int csignalfd_lock_exclusive(int fd) {
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
        if (errno != EINTR) return -errno;
    }
}

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture (asm-generic/unistd.h) */
#endif

int copenat2_beneath(int dirfd, const char *path, int directory) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_PATH | O_CLOEXEC | (directory ? O_DIRECTORY : 0);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    for (;;) {
        long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd >= 0) return (int)fd;
        if (errno != EINTR && errno != EAGAIN) return -errno;
    }
}

int copen_path_flag(void) { return O_PATH; }
