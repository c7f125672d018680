// The one place libFLAC (BSD licence, xiph.org) enters the firmware: native FLAC and Ogg FLAC decoding and
// encoding for Queue/Codecs/FLAC. The decoder and encoder run on stream callbacks, so file I/O stays HAL's.
#ifndef APPLIANCE_CFLAC_H
#define APPLIANCE_CFLAC_H
#include <FLAC/stream_decoder.h>
#include <FLAC/stream_encoder.h>
#include <FLAC/metadata.h>
#endif
