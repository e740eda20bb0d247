#ifndef KITH_CQRENCODE_SHIM_H
#define KITH_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
