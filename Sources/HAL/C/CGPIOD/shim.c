#include "CGPIOD.h"
