// Test-only: the pseudo-terminal calls of POSIX that Glibc's Swift module does not export (posix_openpt,
// grantpt, unlockpt, ptsname: declared in <stdlib.h> only under _XOPEN_SOURCE). Tests open a pty pair with them
// to drive a console as a person at a terminal would. The firmware never opens ptys.
#ifndef APPLIANCE_PSEUDO_TERMINAL_H
#define APPLIANCE_PSEUDO_TERMINAL_H
#include <stddef.h>

int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
char *ptsname(int fd);

/// posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), grantpt and unlockpt in one call; writes the device's path
/// (/dev/pts/N) into `path`. Returns the controller's descriptor, or -errno.
int pseudo_terminal_open(char *path, size_t path_size);
#endif
