#ifndef APPLIANCE_C_BASELINE_H
#define APPLIANCE_C_BASELINE_H
#include <stdint.h>

/// The firmware's biquad cascade written in plain C, as the benchmark's baseline. Same numeric contract as
/// Codec8_24's BiquadKernel (Q15.48 samples and state in int64, Q5.58 coefficients, 64x64->128-bit products
/// rounded to the high word, bell form for peaking/notch stages), so its output is bit-identical.
typedef struct {
    int64_t b0, b1, b2, neg_a1, neg_a2, bell_gain;
    int is_bell;
} cb_stage;

typedef struct {
    int64_t x1, x2, y1, y2;
} cb_state;

/// Filters `frames` interleaved frames of 8.24 samples in place. `states` holds stages x channels entries
/// (stage-major); `scratch` holds 128 x channels int64.
void cb_cascade_process(const cb_stage *stages, int stage_count, cb_state *states, int32_t *samples, int frames,
                        int channels, int64_t input_gain_q58, int has_input_gain, int64_t *scratch);

#endif
