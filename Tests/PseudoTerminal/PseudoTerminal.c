#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "PseudoTerminal.h"

int pseudo_terminal_open(char *path, size_t path_size) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -errno;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, path, path_size) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}
