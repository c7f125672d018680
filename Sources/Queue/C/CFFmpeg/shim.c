// The dlopen table for FFmpeg goes here (Queue/Codecs/FFmpeg is its only user).
#include "CFFmpeg.h"
