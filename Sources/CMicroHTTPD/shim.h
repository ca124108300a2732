#ifndef TABSTAGE_MICROHTTPD_SHIM_H
#define TABSTAGE_MICROHTTPD_SHIM_H
// libmicrohttpd's start and info calls are C-variadic, which Swift cannot call:
// these fixed-argument wrappers are compiled into the module.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdint.h>
#include <microhttpd.h>

#endif
