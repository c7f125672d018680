// The dlopen table for FFmpeg (Queue/Codecs/FFmpeg is its only user): the libraries are opened by soname and
// each function looked up once; nothing here keeps state besides the handles, which stay open for good.
#include "CFFmpeg.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void *open_library(const char *soname, char *error, size_t size) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(error, size, "cannot load %s: %s", soname, why ? why : "not found");
    }
    return handle;
}

#define LOOKUP(handle, soname, name) do { \
        void *symbol = dlsym(handle, #name); \
        if (!symbol) { snprintf(error, errorSize, "%s lacks %s (built against other FFmpeg headers?)", soname, #name); return -1; } \
        *(void **)&table->name = symbol; \
    } while (0)

static int lookup_all(CFFmpegFunctions *table, void *util, void *codec, void *format, const char *avutil,
                      const char *avcodec, const char *avformat, char *error, size_t errorSize) {
    LOOKUP(util, avutil, av_log_set_level);
    LOOKUP(util, avutil, av_strerror);
    LOOKUP(util, avutil, av_dict_get);
    LOOKUP(util, avutil, av_dict_set);
    LOOKUP(util, avutil, av_dict_free);
    LOOKUP(util, avutil, av_frame_alloc);
    LOOKUP(util, avutil, av_frame_free);
    LOOKUP(util, avutil, av_frame_unref);
    LOOKUP(util, avutil, av_frame_get_buffer);
    LOOKUP(util, avutil, av_frame_make_writable);
    LOOKUP(util, avutil, av_malloc);
    LOOKUP(util, avutil, av_free);
    LOOKUP(util, avutil, av_max_alloc);
    LOOKUP(util, avutil, av_channel_layout_default);
    LOOKUP(util, avutil, av_channel_layout_uninit);

    LOOKUP(codec, avcodec, avcodec_find_decoder);
    LOOKUP(codec, avcodec, avcodec_find_encoder);
    LOOKUP(codec, avcodec, avcodec_alloc_context3);
    LOOKUP(codec, avcodec, avcodec_free_context);
    LOOKUP(codec, avcodec, avcodec_parameters_to_context);
    LOOKUP(codec, avcodec, avcodec_parameters_from_context);
    LOOKUP(codec, avcodec, avcodec_open2);
    LOOKUP(codec, avcodec, avcodec_send_packet);
    LOOKUP(codec, avcodec, avcodec_receive_frame);
    LOOKUP(codec, avcodec, avcodec_send_frame);
    LOOKUP(codec, avcodec, avcodec_receive_packet);
    LOOKUP(codec, avcodec, avcodec_flush_buffers);
    LOOKUP(codec, avcodec, av_packet_alloc);
    LOOKUP(codec, avcodec, av_packet_free);
    LOOKUP(codec, avcodec, av_packet_unref);
    LOOKUP(codec, avcodec, av_packet_get_side_data);

    LOOKUP(format, avformat, avformat_alloc_context);
    LOOKUP(format, avformat, avformat_open_input);
    LOOKUP(format, avformat, avformat_find_stream_info);
    LOOKUP(format, avformat, avformat_close_input);
    LOOKUP(format, avformat, av_find_best_stream);
    LOOKUP(format, avformat, av_read_frame);
    LOOKUP(format, avformat, avformat_seek_file);
    LOOKUP(format, avformat, avio_alloc_context);
    LOOKUP(format, avformat, avio_context_free);
    LOOKUP(format, avformat, avio_flush);
    LOOKUP(format, avformat, avformat_alloc_output_context2);
    LOOKUP(format, avformat, avformat_new_stream);
    LOOKUP(format, avformat, avformat_write_header);
    LOOKUP(format, avformat, av_write_frame);
    LOOKUP(format, avformat, av_write_trailer);
    LOOKUP(format, avformat, avformat_free_context);
    return 0;
}

const CFFmpegFunctions *cffmpeg_load(const char *avutil, const char *avcodec, const char *avformat,
                                     char *error, size_t errorSize) {
    void *util = open_library(avutil, error, errorSize);
    if (!util) return NULL;
    void *codec = open_library(avcodec, error, errorSize);
    if (!codec) return NULL;
    void *format = open_library(avformat, error, errorSize);
    if (!format) return NULL;
    CFFmpegFunctions *table = malloc(sizeof *table);
    if (!table) { snprintf(error, errorSize, "out of memory"); return NULL; }
    if (lookup_all(table, util, codec, format, avutil, avcodec, avformat, error, errorSize) != 0) {
        free(table);
        return NULL;
    }
    return table;
}

void cffmpeg_release(const CFFmpegFunctions *table) {
    free((void *)table);
}
