// The one place alsa-lib enters the firmware. HAL/PCM wraps it; nothing else includes ALSA.
#ifndef APPLIANCE_CALSA_H
#define APPLIANCE_CALSA_H
#include <alsa/asoundlib.h>
#endif
