// The one place libgpiod enters the firmware. HAL/GPIO wraps it; nothing else includes gpiod.h.
#ifndef APPLIANCE_CGPIOD_H
#define APPLIANCE_CGPIOD_H
#include <gpiod.h>
#endif
