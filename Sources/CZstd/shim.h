#ifndef KITH_CZSTD_SHIM_H
#define KITH_CZSTD_SHIM_H
#include <zstd.h>
#endif
