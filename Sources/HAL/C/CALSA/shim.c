#include "CALSA.h"
#include <stdarg.h>
#include <stdio.h>

// alsa-lib's error handler is variadic, which Swift cannot implement: this one formats the message into a
// thread-local buffer that the Swift side reads right after a failed call.
static __thread char last_message[512];

static void calsa_message_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, args);
    va_end(args);
}

void calsa_capture_messages(void) { snd_lib_error_set_handler(calsa_message_handler); }

const char *calsa_last_message(void) { return last_message; }

void calsa_clear_last_message(void) { last_message[0] = 0; }
