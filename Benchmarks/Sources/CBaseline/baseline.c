#include "CBaseline.h"
int32_t c_baseline_identity(int32_t x) { return x; }
