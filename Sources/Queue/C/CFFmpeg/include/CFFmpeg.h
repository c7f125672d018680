// The one place FFmpeg's libavformat, libavcodec and libavutil (LGPL-2.1+) enter the firmware: AAC and Apple
// Lossless for Queue/Codecs/FFmpeg. They are loaded with dlopen at first use, by the soname of the headers the
// firmware was built against, so a board that never plays AAC or ALAC needs no FFmpeg installed, and one that
// lacks it gets a clear message naming the package instead of a binary that will not start.
#ifndef APPLIANCE_CFFMPEG_H
#define APPLIANCE_CFFMPEG_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#endif
