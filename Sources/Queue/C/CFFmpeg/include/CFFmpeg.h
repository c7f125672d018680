// The one place FFmpeg's libavformat, libavcodec and libavutil (LGPL-2.1+) enter the firmware: AAC and Apple
// Lossless for Queue/Codecs/FFmpeg. They are loaded with dlopen at first use, by the soname of the headers the
// firmware was built against, so a board that never plays AAC or ALAC needs no FFmpeg installed, and one that
// lacks it gets a clear message naming the package instead of a binary that will not start.
//
// Struct layouts (AVFormatContext, AVFrame, ...) match only the major version of the headers, so the sonames
// carry those majors (libavcodec.so.59 for FFmpeg 5.1, .61 for 7.1). Only API present in both is used.
#ifndef APPLIANCE_CFFMPEG_H
#define APPLIANCE_CFFMPEG_H
#include <stddef.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>

// One field per function, typed by the header's own prototype.
#define CFFMPEG_FN(name) __typeof__(name) *_Nonnull name

/// The FFmpeg functions the firmware calls, resolved with dlsym.
typedef struct CFFmpegFunctions {
    // libavutil
    CFFMPEG_FN(av_log_set_level);
    CFFMPEG_FN(av_strerror);
    CFFMPEG_FN(av_dict_get);
    CFFMPEG_FN(av_dict_set);
    CFFMPEG_FN(av_dict_free);
    CFFMPEG_FN(av_frame_alloc);
    CFFMPEG_FN(av_frame_free);
    CFFMPEG_FN(av_frame_unref);
    CFFMPEG_FN(av_frame_get_buffer);
    CFFMPEG_FN(av_frame_make_writable);
    CFFMPEG_FN(av_malloc);
    CFFMPEG_FN(av_free);
    CFFMPEG_FN(av_max_alloc);
    CFFMPEG_FN(av_channel_layout_default);
    CFFMPEG_FN(av_channel_layout_uninit);
    // libavcodec
    CFFMPEG_FN(avcodec_find_decoder);
    CFFMPEG_FN(avcodec_find_encoder);
    CFFMPEG_FN(avcodec_alloc_context3);
    CFFMPEG_FN(avcodec_free_context);
    CFFMPEG_FN(avcodec_parameters_to_context);
    CFFMPEG_FN(avcodec_parameters_from_context);
    CFFMPEG_FN(avcodec_open2);
    CFFMPEG_FN(avcodec_send_packet);
    CFFMPEG_FN(avcodec_receive_frame);
    CFFMPEG_FN(avcodec_send_frame);
    CFFMPEG_FN(avcodec_receive_packet);
    CFFMPEG_FN(avcodec_flush_buffers);
    CFFMPEG_FN(av_packet_alloc);
    CFFMPEG_FN(av_packet_free);
    CFFMPEG_FN(av_packet_unref);
    CFFMPEG_FN(av_packet_get_side_data);
    // libavformat
    CFFMPEG_FN(avformat_alloc_context);
    CFFMPEG_FN(avformat_open_input);
    CFFMPEG_FN(avformat_find_stream_info);
    CFFMPEG_FN(avformat_close_input);
    CFFMPEG_FN(av_find_best_stream);
    CFFMPEG_FN(av_read_frame);
    CFFMPEG_FN(avformat_seek_file);
    CFFMPEG_FN(avio_alloc_context);
    CFFMPEG_FN(avio_context_free);
    CFFMPEG_FN(avio_flush);
    CFFMPEG_FN(avformat_alloc_output_context2);
    CFFMPEG_FN(avformat_new_stream);
    CFFMPEG_FN(avformat_write_header);
    CFFMPEG_FN(av_write_frame);
    CFFMPEG_FN(av_write_trailer);
    CFFMPEG_FN(avformat_free_context);
} CFFmpegFunctions;

/// The major versions of the headers built against (the sonames to load).
static inline int cffmpeg_avutil_major(void) { return LIBAVUTIL_VERSION_MAJOR; }
static inline int cffmpeg_avcodec_major(void) { return LIBAVCODEC_VERSION_MAJOR; }
static inline int cffmpeg_avformat_major(void) { return LIBAVFORMAT_VERSION_MAJOR; }

/// Function-like macros Swift cannot import.
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_error_no_memory(void) { return AVERROR(ENOMEM); }
static inline int64_t cffmpeg_no_pts(void) { return AV_NOPTS_VALUE; }

/// Opens the three libraries by the given sonames (libavutil, libavcodec, libavformat) and returns their
/// function table (allocated: the caller copies it and gives it back to `cffmpeg_release`; the libraries stay
/// loaded for good), or NULL with a one-line reason in `error` (the soname that failed and dlerror's text).
const CFFmpegFunctions *_Nullable cffmpeg_load(const char *_Nonnull avutil, const char *_Nonnull avcodec,
                                               const char *_Nonnull avformat, char *_Nonnull error, size_t errorSize);

/// Frees a table `cffmpeg_load` returned (once copied; libFuzzer's leak check found it dropped, issue 16).
void cffmpeg_release(const CFFmpegFunctions *_Nonnull table);
#endif
