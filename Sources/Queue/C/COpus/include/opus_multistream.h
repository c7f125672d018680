// opusfile.h includes <opus_multistream.h> as if /usr/include/opus were on the include path (its pkg-config
// file adds it); this forwarder makes the plain include work without pkg-config, on the host and in the sysroot.
#include <opus/opus_multistream.h>
