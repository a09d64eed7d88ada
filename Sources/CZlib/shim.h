#ifndef LIFECYCLED_CZLIB_SHIM_H
#define LIFECYCLED_CZLIB_SHIM_H
// zlib, for compressing device snapshots (LifecycleServer/Persistence/Deflate.swift).
#include <zlib.h>
#endif
