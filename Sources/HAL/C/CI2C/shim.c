#include "CI2C.h"
#include <errno.h>
#include <sys/ioctl.h>

// Thin wrappers for the ioctls Swift cannot call directly (variadic ioctl, structs of pointers).

int ci2c_select_address(int fd, unsigned address, int force) {
    if (ioctl(fd, force ? I2C_SLAVE_FORCE : I2C_SLAVE, (unsigned long)address) < 0) return -errno;
    return 0;
}

int ci2c_functionality(int fd, unsigned long *functions) {
    if (ioctl(fd, I2C_FUNCS, functions) < 0) return -errno;
    return 0;
}

int ci2c_write_read(int fd, uint16_t address, const uint8_t *write, uint16_t write_length,
                    uint8_t *read, uint16_t read_length) {
    struct i2c_msg messages[2] = {
        { .addr = address, .flags = 0, .len = write_length, .buf = (uint8_t *)write },
        { .addr = address, .flags = I2C_M_RD, .len = read_length, .buf = read },
    };
    struct i2c_rdwr_ioctl_data transfer = { .msgs = messages, .nmsgs = read_length > 0 ? 2 : 1 };
    int result = ioctl(fd, I2C_RDWR, &transfer);
    if (result < 0) return -errno;
    // The kernel answers with the number of messages it completed.
    if ((unsigned)result != transfer.nmsgs) return -EIO;
    return 0;
}
