// The one place libmpg123 (LGPL-2.1, linked dynamically) enters the firmware: MP3 decoding for
// Queue/Codecs/MPEG, on a reader handle whose callbacks read through HAL, and in feed mode for streams.
#ifndef APPLIANCE_CMPG123_H
#define APPLIANCE_CMPG123_H
#include <sys/types.h>
#include <mpg123.h>
#endif
