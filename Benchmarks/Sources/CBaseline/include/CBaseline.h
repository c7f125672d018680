#ifndef APPLIANCE_C_BASELINE_H
#define APPLIANCE_C_BASELINE_H
#include <stdint.h>

/// Placeholder; the real cascade is defined with the EQ's coefficient format.
int32_t c_baseline_identity(int32_t x);

#endif
