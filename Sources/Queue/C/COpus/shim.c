// The Opus libraries are called directly from Swift; this file only gives the C target a translation unit.
#include "COpus.h"
