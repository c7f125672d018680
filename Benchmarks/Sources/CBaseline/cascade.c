#include "CBaseline.h"

enum { BLOCK = 128, PRODUCT_SHIFT = 64 - 58, WIDE_SHIFT = 48 - 24 };

static inline int64_t high(int64_t a, int64_t b) {
    __int128 p = (__int128)a * b;
    return (int64_t)(p >> 64) + (int64_t)((uint64_t)p >> 63);
}

static void run_stage(const cb_stage *c, cb_state *s, int64_t *x, int frames, int stride) {
    int64_t x1 = s->x1, x2 = s->x2, y1 = s->y1, y2 = s->y2;
    if (c->is_bell) {
        for (int i = 0; i < frames; i++, x += stride) {
            int64_t x0 = *x;
            int64_t e0 = (int64_t)((uint64_t)(high(c->bell_gain, x0 - x2) + high(c->neg_a2, y2) + high(c->neg_a1, y1))
                                   << PRODUCT_SHIFT);
            *x = x0 + e0;
            x2 = x1; x1 = x0; y2 = y1; y1 = e0;
        }
    } else {
        for (int i = 0; i < frames; i++, x += stride) {
            int64_t x0 = *x;
            int64_t y0 = (int64_t)((uint64_t)(high(c->b0, x0) + high(c->b1, x1) + high(c->b2, x2) + high(c->neg_a2, y2) +
                                              high(c->neg_a1, y1))
                                   << PRODUCT_SHIFT);
            *x = y0;
            x2 = x1; x1 = x0; y2 = y1; y1 = y0;
        }
    }
    s->x1 = x1; s->x2 = x2; s->y1 = y1; s->y2 = y2;
}

void cb_cascade_process(const cb_stage *stages, int stage_count, cb_state *states, int32_t *samples, int frames,
                        int channels, int64_t input_gain_q58, int has_input_gain, int64_t *scratch) {
    while (frames > 0) {
        int n = frames < BLOCK ? frames : BLOCK;
        int count = n * channels;
        for (int i = 0; i < count; i++) {
            int64_t wide = (int64_t)samples[i] << WIDE_SHIFT;
            scratch[i] = has_input_gain ? (int64_t)((uint64_t)high(wide, input_gain_q58) << PRODUCT_SHIFT) : wide;
        }
        for (int s = 0; s < stage_count; s++)
            for (int ch = 0; ch < channels; ch++)
                run_stage(&stages[s], &states[s * channels + ch], scratch + ch, n, channels);
        for (int i = 0; i < count; i++) {
            int64_t r = (scratch[i] + ((int64_t)1 << (WIDE_SHIFT - 1))) >> WIDE_SHIFT;
            samples[i] = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
        }
        samples += count;
        frames -= n;
    }
}
