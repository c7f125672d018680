// The one place i2c-dev and libi2c enter the firmware. HAL/I2C wraps them; nothing else includes them.
#ifndef APPLIANCE_CI2C_H
#define APPLIANCE_CI2C_H
#include <stdint.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <i2c/smbus.h>

// The adapter capabilities HAL checks (I2C_FUNCS bits; the composite ones are OR-macros Swift cannot import).
static const unsigned long CI2C_FUNC_PLAIN_I2C = I2C_FUNC_I2C;
static const unsigned long CI2C_FUNC_READ_BYTE_DATA = I2C_FUNC_SMBUS_READ_BYTE_DATA;
static const unsigned long CI2C_FUNC_WRITE_BYTE_DATA = I2C_FUNC_SMBUS_WRITE_BYTE_DATA;
static const unsigned long CI2C_FUNC_READ_I2C_BLOCK = I2C_FUNC_SMBUS_READ_I2C_BLOCK;

/// Selects the 7-bit address later transfers on `fd` go to (I2C_SLAVE, or I2C_SLAVE_FORCE when `force`
/// is non-zero). Returns 0 or -errno.
int ci2c_select_address(int fd, unsigned address, int force);

/// The adapter's I2C_FUNC_* bits (I2C_FUNCS). Returns 0 or -errno.
int ci2c_functionality(int fd, unsigned long *functions);

/// One I2C_RDWR call: a write message of `write_length` bytes, then (if `read_length` > 0) a repeated start
/// and a read message of `read_length` bytes, to the 7-bit `address`. Returns 0 or -errno.
int ci2c_write_read(int fd, uint16_t address, const uint8_t *write, uint16_t write_length,
                    uint8_t *read, uint16_t read_length);
#endif
