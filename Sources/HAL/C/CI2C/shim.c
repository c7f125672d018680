#include "CI2C.h"
