// See opus_multistream.h: opusenc.h includes <opus.h> the same way.
#include <opus/opus.h>
