#include "CSignalFD.h"
#include <errno.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <unistd.h>

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
