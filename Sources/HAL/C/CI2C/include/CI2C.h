// The one place i2c-dev and libi2c enter the firmware. HAL/I2C wraps them; nothing else includes them.
#ifndef APPLIANCE_CI2C_H
#define APPLIANCE_CI2C_H
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <i2c/smbus.h>
#endif
