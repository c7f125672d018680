// libmpg123 is called directly from Swift; this file only gives the C target a translation unit.
#include "CMPG123.h"
