// The Opus libraries are called directly from Swift, except their variadic ctl calls, which Swift cannot
// import: these wrappers pass one integer request each.
#include "COpus.h"

int copus_ms_decoder_set_gain(OpusMSDecoder *decoder, int gain_q8) {
    return opus_multistream_decoder_ctl(decoder, OPUS_SET_GAIN(gain_q8));
}

int copus_ms_decoder_reset(OpusMSDecoder *decoder) {
    return opus_multistream_decoder_ctl(decoder, OPUS_RESET_STATE);
}

int copus_encoder_set(OggOpusEnc *encoder, int request, int value) {
    return ope_encoder_ctl(encoder, request, (opus_int32)value);
}
