#ifndef KITH_CZLIB_SHIM_H
#define KITH_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros, which Swift cannot call; these wrappers can be. */

/* A raw DEFLATE (RFC 1951, no zlib header or trailer) compressor at `level`. */
static inline int kith_zlib_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

/* A decompressor for raw DEFLATE (`zlib_wrapped` 0) or zlib-wrapped DEFLATE (RFC 1950, `zlib_wrapped` 1). */
static inline int kith_zlib_inflate_init(z_streamp stream, int zlib_wrapped) {
    return inflateInit2(stream, zlib_wrapped ? MAX_WBITS : -MAX_WBITS);
}
#endif
