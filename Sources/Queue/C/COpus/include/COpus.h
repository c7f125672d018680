// The one place libopus, libopusfile, libopusenc and libogg (BSD licences, xiph.org) enter the firmware: Ogg
// Opus decoding and encoding for Queue/Codecs/Opus, on callbacks so file I/O stays HAL's.
#ifndef APPLIANCE_COPUS_H
#define APPLIANCE_COPUS_H
#include <ogg/ogg.h>
#include <opus/opus.h>
#include <opus/opusfile.h>
#include <opus/opusenc.h>
#endif
