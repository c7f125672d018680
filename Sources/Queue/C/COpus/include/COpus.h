// The one place libopus, libopusfile, libopusenc and libogg (BSD licences, xiph.org) enter the firmware: Ogg
// Opus decoding and encoding for Queue/Codecs/Opus, on callbacks so file I/O stays HAL's.
#ifndef APPLIANCE_COPUS_H
#define APPLIANCE_COPUS_H
#include <ogg/ogg.h>
#include <opus/opus.h>
#include <opus/opusfile.h>
#include <opus/opusenc.h>

/// OPUS_SET_GAIN (Q7.8 dB) on a multistream decoder (opus_multistream_decoder_ctl is variadic).
int copus_ms_decoder_set_gain(OpusMSDecoder *decoder, int gain_q8);
/// OPUS_RESET_STATE on a multistream decoder.
int copus_ms_decoder_reset(OpusMSDecoder *decoder);
/// ope_encoder_ctl with one integer argument (OPUS_SET_BITRATE, OPE_SET_MUXING_DELAY, ...).
int copus_encoder_set(OggOpusEnc *encoder, int request, int value);
#endif
