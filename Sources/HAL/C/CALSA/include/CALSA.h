// The one place alsa-lib enters the firmware. HAL/PCM wraps it; nothing else includes ALSA.
#ifndef APPLIANCE_CALSA_H
#define APPLIANCE_CALSA_H
#include <alsa/asoundlib.h>

/// Routes alsa-lib's diagnostic messages (e.g. "Unknown PCM foo") into a per-thread buffer instead of
/// stderr, so a failed call can quote what the library said. Idempotent; call before opening a PCM.
void calsa_capture_messages(void);

/// The last message alsa-lib reported on this thread since the last clear ("" when none).
const char *calsa_last_message(void);

/// Forgets this thread's last alsa-lib message.
void calsa_clear_last_message(void);

#endif
